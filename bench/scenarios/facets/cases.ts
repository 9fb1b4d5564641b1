/**
 * The facets scenario's cases, each cycling through several variants of its request, so that no single value is
 * measured:
 * - `filter-selective`: a tail brand and a year range (well under 1 % of the documents), without and with `q`;
 * - `filter-broad`: `published = true AND price > N` (about two thirds of them), without and with `q`;
 * - `filter-complex`: `IN`, `OR`, `NOT`, `!=` on a nested field together;
 * - `facets`: `facetDistribution` and `facetStats` of all ten attributes, without `q`, with `q`, with a broad filter;
 * - `sort`: `price:asc`/`rating:desc`, without `q`, with `q`, with a broad filter.
 */
import { COLORS, FACET_ATTRIBUTES } from './corpus.js'

export interface FacetsCase {
  id: string
  description: string
  /** The request bodies the case cycles through. */
  variants: Record<string, unknown>[]
}

/** The cases, with `words` for the keyword variants (common words of the corpus). */
export function facetsCases(words: string[]): FacetsCase[] {
  const q = (i: number) => words[i % words.length]!
  const selective = (i: number) => `brand = "brand-${20 + 10 * i}" AND year >= ${2000 + i}`
  const broad = (i: number) => `published = true AND price > ${10 + 10 * i}`
  const range = (n: number) => Array.from({ length: n }, (_, i) => i)
  return [
    { id: 'filter-selective', description: 'a tail brand and a year range, placeholder', variants: range(10).map((i) => ({ filter: selective(i) })) },
    { id: 'filter-selective-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), filter: selective(i) })) },
    { id: 'filter-broad', description: '`published = true AND price > N`, placeholder', variants: range(10).map((i) => ({ filter: broad(i) })) },
    { id: 'filter-broad-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), filter: broad(i) })) },
    {
      id: 'filter-complex', description: '`IN`, `OR`, `NOT`, `!=` on a nested field, with one query word',
      variants: range(10).map((i) => ({ q: q(i), filter: `(color IN [${COLORS[i]}, ${COLORS[i + 1]}] OR rating >= ${4 + i / 20}) AND seller.country != US AND NOT tags = sale` })),
    },
    { id: 'facets', description: 'distribution and stats of the 10 attributes, placeholder', variants: range(4).map((i) => ({ facets: FACET_ATTRIBUTES, limit: 20 + i })) },
    { id: 'facets-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), facets: FACET_ATTRIBUTES })) },
    { id: 'facets-filtered', description: 'the same under the broad filter, placeholder', variants: range(10).map((i) => ({ filter: broad(i), facets: FACET_ATTRIBUTES })) },
    { id: 'sort', description: '`price:asc` or `rating:desc`, placeholder', variants: range(4).map((i) => ({ sort: [i % 2 === 0 ? 'price:asc' : 'rating:desc'], offset: 10 * i })) },
    { id: 'sort-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), sort: [i % 2 === 0 ? 'price:asc' : 'rating:desc'] })) },
    { id: 'sort-filtered', description: '`price:asc` under the broad filter, placeholder', variants: range(10).map((i) => ({ filter: broad(i), sort: ['price:asc'] })) },
  ]
}

/** The words of the first documents' titles, for the keyword variants. */
export function queryWords(docs: Record<string, unknown>[]): string[] {
  const words = new Set<string>()
  for (const doc of docs.slice(0, 40)) for (const w of String(doc.title).toLowerCase().match(/\p{L}+/gu) ?? []) if (w.length >= 4) words.add(w)
  return [...words].slice(0, 20)
}
