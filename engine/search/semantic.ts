/**
 * Semantic search: the filter's documents ranked by the similarity of their vectors to the query vector (milli's
 * `vector_sort.rs`) and by the sort rules, in the order of the ranking rules (semantic-sort.ts); each hit's
 * `_rankingScore` is `(1 + cosine) / 2` shifted by the embedder's `distribution` when it has one; documents
 * without vectors for the embedder come after those with (score 0). The distinct attribute keeps the best document
 * of each value, `rankingScoreThreshold` cuts the hits below it, `searchCutoffMs` degrades the search.
 */
import { performance } from 'node:perf_hooks'
import { TesseraError } from '../errors/index.js'
import type { Distribution } from '../embedders/config.js'
import { checkFilterable, parseFilter } from '../filter/index.js'
import { RoaringBitmap32 } from '../inverted/index.js'
import { distinctValues } from '../facets/distribution.js'
import { invalidDimensions } from '../vectors/document.js'
import { scoreOf } from '../vectors/distance.js'
import { checkDistinct, DEFAULT_SEARCH_CUTOFF_MS, inIndex, type SearchOutcome } from './keyword.js'
import { semanticLevels, semanticSort } from './semantic-sort.js'
import { checkSort, parseSort, sortCriteriaFor, sortKey } from './sort.js'
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
  // In milli's order of f32 operations (a factor and an offset, then one multiply-add), so the scores match
  // Meilisearch's to the last bit: (score - mean) / sigma * 0.4 + 0.5 differs in the low bits.
  const factor = f(f(0.4) / f(distribution.sigma))
  const offset = f(f(0.5) - f(factor * f(distribution.mean)))
  const shifted = f(f(factor * f(score)) + offset)
  return Math.min(1, Math.max(f(1.1920928955078125e-7), shifted))
}

/**
 * Check the query vector's length against the embedder's dimensions (the settings', else the stored vectors').
 * Meilisearch's message here names no index (tests/search/hybrid.rs `query_combination`).
 */
export function checkQueryVector(source: SearchSource, name: string, vector: Float32Array): void {
  const dims = source.settings.embedders[name]?.dimensions ?? source.vectors?.get(name)?.dims
  if (dims !== undefined && vector.length !== dims) throw invalidDimensions(dims, vector.length)
}

/**
 * A semantic search ranked as milli ranks it: the filter's documents, bucket-sorted by the vector level and the
 * sort levels in the order of the ranking rules (semantic-sort.ts), within `searchCutoffMs` of `start`.
 */
export function rankSemantic(source: SearchSource, query: SearchQuery, vector: Float32Array, window: { offset: number; limit: number }, start = performance.now()): SearchOutcome {
  const name = embedderName(query)
  const settings = requireEmbedder(source, name)
  checkQueryVector(source, name, vector)
  let universe = source.live
  const expr = parseFilter(query.filter, 'invalid_search_filter')
  const sortParam = parseSort(query.sort, 'invalid_search_sort')
  inIndex(source.uid, () => checkSort(sortParam, source.settings, 'invalid_search_sort'))
  if (expr) {
    inIndex(source.uid, () => checkFilterable(expr, source.settings.filterableAttributes, 'invalid_search_filter', { containsFilter: source.containsFilter }))
    universe = RoaringBitmap32.and(universe, source.filter(expr))
  }
  if (query.distinct !== null) inIndex(source.uid, () => checkDistinct(query.distinct!, source.settings))
  const field = query.distinct ?? source.settings.distinctAttribute
  const facet = field === null ? undefined : source.facets.field(field)
  const sorts = sortCriteriaFor(source.settings.rankingRules, sortParam).map((c) => sortKey(c, source.facets))
  const cutoff = source.settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS
  const result = semanticSort({
    levels: semanticLevels(source.settings.rankingRules, sorts, sortParam.length),
    space: source.vectors?.get(name),
    vector,
    shift: (similarity) => shiftScore(Math.fround(scoreOf(similarity)), settings.distribution),
    universe,
    everyDocument: universe.size === source.live.size,
    distinct: facet ? distinctValues(facet) : null,
    from: window.offset,
    length: window.limit,
    threshold: query.rankingScoreThreshold,
    exhaustive: query.page !== null || query.hitsPerPage !== null,
    deadline: start + cutoff,
    now: () => performance.now(),
  })
  return { hits: result.hits, candidates: result.all.size, plan: null, degraded: result.degraded, sorts, all: result.all }
}
