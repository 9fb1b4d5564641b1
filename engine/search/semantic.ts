/**
 * Semantic search: the filter's documents ranked by the similarity of their vectors to the query vector (milli's
 * `vector_sort.rs`), each with `_rankingScore` `(1 + cosine) / 2` shifted by the embedder's `distribution` when it
 * has one; documents without vectors for the embedder come last (score 0). The distinct attribute keeps the best
 * document of each value, applied while the nearest neighbours are taken (more are asked for until the window is
 * full), and `rankingScoreThreshold` cuts the hits below it.
 */
import { TesseraError } from '../errors/index.js'
import type { Distribution } from '../embedders/config.js'
import { checkFilterable, parseFilter } from '../filter/index.js'
import { RoaringBitmap32 } from '../inverted/index.js'
import { distinctValues } from '../facets/distribution.js'
import { invalidDimensions } from '../vectors/document.js'
import { scoreOf } from '../vectors/distance.js'
import { nearest } from '../vectors/search.js'
import type { RankedHit } from './bucket-sort.js'
import { checkDistinct, inIndex, type SearchOutcome } from './keyword.js'
import type { SearchQuery } from './request.js'
import type { SearchSource } from './source.js'

/** The embedder a semantic or hybrid query names (Meilisearch's default name when it names none). */
export function embedderName(query: Pick<SearchQuery, 'hybrid'>): string {
  return query.hybrid?.embedder ?? 'default'
}

/** The embedder, which must exist (`invalid_search_embedder`). */
export function requireEmbedder(source: SearchSource, name: string) {
  const settings = source.settings.embedders[name]
  if (settings === undefined) throw new TesseraError('invalid_search_embedder', `Cannot find embedder with name \`${name}\`.`)
  return settings
}

/** milli's `DistributionShift::shift`: the score moved so the embedder's mean lands on 0.5, ±sigma on ±0.4. */
export function shiftScore(score: number, distribution: Distribution | undefined): number {
  if (!distribution) return score
  const f = Math.fround
  const shifted = f(f(f(f(score) - f(distribution.mean)) / f(distribution.sigma)) * f(0.4) + f(0.5))
  return Math.min(1, Math.max(f(1.1920928955078125e-7), shifted))
}

/** Check the query vector's length against the embedder's dimensions (the settings', else the stored vectors'). */
export function checkQueryVector(source: SearchSource, name: string, vector: Float32Array): void {
  const dims = source.settings.embedders[name]?.dimensions ?? source.vectors?.get(name)?.dims
  if (dims !== undefined && vector.length !== dims) throw inIndex(source.uid, () => { throw invalidDimensions(dims, vector.length) })
}

export function rankSemantic(source: SearchSource, query: SearchQuery, vector: Float32Array, window: { offset: number; limit: number }): SearchOutcome {
  const name = embedderName(query)
  const settings = requireEmbedder(source, name)
  checkQueryVector(source, name, vector)
  let universe = source.live
  const expr = parseFilter(query.filter, 'invalid_search_filter')
  if (expr) {
    inIndex(source.uid, () => checkFilterable(expr, source.settings.filterableAttributes, 'invalid_search_filter', { containsFilter: source.containsFilter }))
    universe = RoaringBitmap32.and(universe, source.filter(expr))
  }
  if (query.distinct !== null) inIndex(source.uid, () => checkDistinct(query.distinct!, source.settings))
  const field = query.distinct ?? source.settings.distinctAttribute
  const facet = field === null ? undefined : source.facets.field(field)
  const values = facet ? distinctValues(facet) : null
  const want = window.offset + window.limit
  const space = source.vectors?.get(name)
  const allowed = universe.size === source.live.size ? null : universe
  const seenValues = new Set<number>()
  const included = new Set<number>()
  const hits: RankedHit[] = []
  const keep = (docid: number, score: number, similarity: number | null): void => {
    if (included.has(docid)) return
    included.add(docid)
    const ids = values?.valueIds(docid)
    if (ids) {
      if (ids.some((v) => seenValues.has(v))) return
      for (const v of ids) seenValues.add(v)
    }
    if (query.rankingScoreThreshold !== null && score < query.rankingScoreThreshold) return
    hits.push({ docid, evaluation: { score, details: { vectorSort: similarity === null ? { order: 0 } : { order: 0, similarity } } } })
  }
  let exhausted = space === undefined
  for (let k = Math.max(want, 1); !exhausted && hits.length < want; k *= 2) {
    const found = nearest(space!, vector, k, allowed)
    hits.length = 0
    included.clear()
    seenValues.clear()
    for (const n of found) {
      const similarity = Math.fround(scoreOf(n.similarity))
      keep(n.docid, shiftScore(similarity, settings.distribution), similarity)
    }
    exhausted = found.length < k
  }
  // Documents without vectors for the embedder come last, in internal id order.
  if (hits.length < want && query.rankingScoreThreshold === null) {
    for (const docid of universe) {
      if (hits.length >= want) break
      keep(docid, 0, null)
    }
  }
  const candidates = query.rankingScoreThreshold === null ? universe.size : Math.min(universe.size, hits.length)
  return { hits: hits.slice(window.offset, want), candidates, plan: null, degraded: false, sorts: [], all: universe }
}
