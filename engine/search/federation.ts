/**
 * Federated multi-search: merging the hits of several queries into one list, as Meilisearch does
 * (`crates/meilisearch/src/search/federated/perform.rs`, `types.rs`). Pure: the multi-search operation runs the
 * queries and hands their hits here.
 *
 * - Every query is run with `offset = 0` and `limit = required` (`requiredHitCount`, bounded by each index's
 *   `maxTotalHits` by the caller), with ranking scores on.
 * - Hits are merged as `itertools::kmerge_by` merges the per-query lists: repeatedly take the best head, the best
 *   being the highest `weightedRankingScore = _rankingScore × weight`, ties going to the lowest query position (a
 *   query's own order is kept, even where its scores are not monotonic, as with a `sort` rule).
 * - A document met again in the same index (from another query) is skipped: the first (best) occurrence wins.
 * - Then `offset`/`limit` (or `page`/`hitsPerPage`) are applied to the merged list.
 * - Each hit gets `_federation: {indexUid, queriesPosition, weightedRankingScore}` after the document's own fields
 *   (and `_vectors`), before `_formatted`, `_matchesPosition`, `_rankingScore`, `_rankingScoreDetails`;
 *   `_rankingScore` stays only on hits of queries that asked for it.
 * - `estimatedTotalHits` (or `totalHits`) is the sum, over the indexes, of the union of the candidates of that
 *   index's queries.
 * - With `federation.distinct`, a hit whose distinct value was already taken (from any index) is skipped too.
 */
import { DEFAULT_SEARCH_LIMIT, type FederationPagination } from './request.js'
import type { JsonObject } from '../json/value.js'

/** How many hits to ask of each query, and the slice of the merged list to return. */
export interface FederationWindow {
  required: number
  skip: number
  take: number
}

/** `perform_federated_search`: `required_hit_count` and `(skip, take)`. */
export function federationWindow(f: FederationPagination): FederationWindow {
  const { page, hitsPerPage } = f
  if (page === null && hitsPerPage === null) return { required: f.limit + f.offset, skip: f.offset, take: f.limit }
  if (page === null) return { required: hitsPerPage!, skip: 0, take: hitsPerPage! }
  if (page === 0) return { required: 0, skip: 0, take: 0 }
  const perPage = hitsPerPage ?? DEFAULT_SEARCH_LIMIT
  return { required: perPage * page, skip: (page - 1) * perPage, take: perPage }
}

/** The response's pagination fields, in Meilisearch's key order. */
export function federatedHitsInfo(f: FederationPagination, hitNumber: number): Record<string, number> {
  if (f.page === null && f.hitsPerPage === null) return { limit: f.limit, offset: f.offset, estimatedTotalHits: hitNumber }
  const page = f.page ?? 1
  const hitsPerPage = f.hitsPerPage ?? DEFAULT_SEARCH_LIMIT
  // If hitsPerPage is 0, pages can't be computed and Meilisearch answers 0.
  const totalPages = hitsPerPage === 0 ? 0 : Math.floor((hitNumber + hitsPerPage - 1) / hitsPerPage)
  return { hitsPerPage, page, totalPages, totalHits: hitNumber }
}

/** The hits of one query, best first, as the search gave them. */
export interface QueryHits {
  indexUid: string
  /** `queriesPosition`: the query's index in `queries` (or its `federationOptions.queryPosition`). */
  position: number
  weight: number
  /** Whether the query asked for `showRankingScore` (it is forced on to merge). */
  showRankingScore: boolean
  /** Shaped hits, each with `_rankingScore`. */
  hits: JsonObject[]
  /** The internal id of each hit (same order). */
  docids: number[]
  /** With `federation.distinct`: each hit's values of the distinct attribute, as comparable keys (same order). */
  distinctKeys?: string[][]
}

const TRAILING = new Set(['_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails'])

/** The hit with `_federation` placed where Meilisearch puts it (the document's fields come first). */
export function withFederation(hit: JsonObject, federation: JsonObject, keepRankingScore: boolean): JsonObject {
  const keys = Object.keys(hit)
  // The trailing keys the formatter appends, in their order; everything before them is the document.
  let split = keys.length
  while (split > 0 && TRAILING.has(keys[split - 1]!)) split--
  const out: JsonObject = {}
  for (let i = 0; i < split; i++) out[keys[i]!] = hit[keys[i]!]
  out._federation = federation
  for (let i = split; i < keys.length; i++) {
    const key = keys[i]!
    if (key === '_rankingScore' && !keepRankingScore) continue
    out[key] = hit[key]
  }
  return out
}

function scoreOf(hit: JsonObject): number {
  const s = hit._rankingScore
  return typeof s === 'number' ? s : 1
}

/**
 * Merge the queries' hits (see the module comment) and return the `skip`/`take` slice, each hit carrying its
 * `_federation` object.
 */
export function mergeFederatedHits(queries: readonly QueryHits[], skip: number, take: number): JsonObject[] {
  const heads = queries.map(() => 0)
  const seen = new Set<string>()
  const takenValues = new Set<string>()
  const valueTaken = (query: QueryHits, i: number) => (query.distinctKeys?.[i] ?? []).some((k) => takenValues.has(k))
  const out: JsonObject[] = []
  const end = skip + take
  let emitted = 0
  while (emitted < end) {
    let best = -1
    let bestScore = 0
    for (let q = 0; q < queries.length; q++) {
      const query = queries[q]!
      // Skip the heads already seen in the index (another query returned them first).
      while (heads[q]! < query.hits.length && (seen.has(`${query.indexUid}\u0000${query.docids[heads[q]!]}`) || valueTaken(query, heads[q]!))) heads[q]!++
      if (heads[q]! >= query.hits.length) continue
      const score = scoreOf(query.hits[heads[q]!]!) * query.weight
      if (best === -1 || score > bestScore || (score === bestScore && query.position < queries[best]!.position)) {
        best = q
        bestScore = score
      }
    }
    if (best === -1) break
    const query = queries[best]!
    const i = heads[best]!++
    seen.add(`${query.indexUid}\u0000${query.docids[i]}`)
    for (const k of query.distinctKeys?.[i] ?? []) takenValues.add(k)
    if (emitted >= skip) {
      const federation = { indexUid: query.indexUid, queriesPosition: query.position, weightedRankingScore: bestScore }
      out.push(withFederation(query.hits[i]!, federation, query.showRankingScore))
    }
    emitted++
  }
  return out
}

/** What one query of an index reports towards the hit count. */
export interface QueryCount {
  /** Matching documents (not bounded by `maxTotalHits`). */
  candidates: number
  /** The internal ids of the hits retrieved. */
  docids: readonly number[]
}

/**
 * The number of documents matching any of an index's queries (Meilisearch: the size of the union of their
 * candidates). Exact when every query's candidates were all retrieved; otherwise the sum of the candidates, capped
 * at the number of documents in the index (the candidate sets themselves are not available here).
 */
export function indexHitCount(queries: readonly QueryCount[], documents: number): number {
  if (queries.length === 1) return queries[0]!.candidates
  if (queries.every((q) => q.docids.length >= q.candidates)) {
    const union = new Set<number>()
    for (const q of queries) for (const id of q.docids) union.add(id)
    return union.size
  }
  return Math.min(documents, queries.reduce((n, q) => n + q.candidates, 0))
}
