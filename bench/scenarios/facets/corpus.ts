/**
 * The facets scenario's corpus: the uniform generated documents (data/uniform-corpus.ts: title, description, price,
 * stock, tags, published) with six more attributes drawn from a second seeded generator: `brand` (Zipf over 1,000
 * values, so a tail brand is rare), `category` (Zipf over 40), `color` (16, uniform), `rating` (1.0–5.0 in tenths),
 * `year` (1990–2025) and the nested `seller.country` (Zipf over 60). The ten filterable attributes are those six and
 * price, stock, tags, published; price, rating and year are sortable too.
 */
import { mulberry32, zipf } from '../../data/random.js'
import { generateDocuments } from '../../data/uniform-corpus.js'

export const FACET_ATTRIBUTES = ['brand', 'category', 'color', 'rating', 'year', 'seller.country', 'price', 'stock', 'tags', 'published']
export const SORTABLE_ATTRIBUTES = ['price', 'rating', 'year']

export const COLORS = ['red', 'blue', 'green', 'black', 'white', 'grey', 'yellow', 'orange', 'purple', 'pink', 'brown', 'navy', 'teal', 'olive', 'maroon', 'silver']
const COUNTRIES = Array.from({ length: 60 }, (_, i) => (i === 0 ? 'US' : i === 1 ? 'DE' : i === 2 ? 'FR' : `C${String(i).padStart(2, '0')}`))

/** The corpus: the same documents for the same count and seed. */
export function* generateFacetDocuments(count: number, seed: number): Generator<Record<string, unknown>> {
  const rand = mulberry32(seed)
  const brand = zipf(1000, 1.1, rand)
  const category = zipf(40, 0.8, rand)
  const country = zipf(60, 1.0, rand)
  for (const doc of generateDocuments(count, seed ^ 0x5eed)) {
    yield {
      ...doc,
      brand: `brand-${brand()}`,
      category: `category-${category()}`,
      color: COLORS[Math.floor(rand() * COLORS.length)]!,
      rating: Math.round(10 + rand() * 40) / 10,
      year: 1990 + Math.floor(rand() * 36),
      seller: { country: COUNTRIES[country()]!, since: 2000 + Math.floor(rand() * 26) },
    }
  }
}
