/**
 * Folding the remotes' answers into a federated search (`search/federated/perform.rs`): the hits of every host
 * merged by weighted score (ties to the lower query position), each hit's `_federation.remote` naming its host;
 * the remotes' hit counts added to the local one; their `facetsByIndex` added to the local facets, value by value;
 * with `federation.distinct`, one hit per value across hosts.
 * A remote asked for the first `offset + limit` hits (or the first `page × hitsPerPage`) so the merged page is
 * right, and never merges facets itself.
 */
import { addLeaf, attributeValues, type Facets } from '../filter/index.js'
import type { JsonObject } from '../json/value.js'
import { compareBytes } from '../json/byte-order.js'
import type { ComputedFacets, FacetOrder } from '../search/federated-facets.js'
import type { Federation } from '../search/request.js'
import type { RemoteOutcome } from './remote-search.js'

/** The `federation` object sent to remotes. */
export function remoteFederation(federation: Federation): JsonObject {
  const out: JsonObject = {}
  const { page, hitsPerPage } = federation
  if (page === null && hitsPerPage === null) {
    out.limit = federation.limit + federation.offset
    out.offset = 0
  } else if (page === 0) {
    out.page = 0
    if (hitsPerPage !== null) out.hitsPerPage = hitsPerPage
  } else {
    out.page = 1
    out.hitsPerPage = (page ?? 1) * (hitsPerPage ?? 20)
  }
  if (federation.facetsByIndex.size > 0) out.facetsByIndex = Object.fromEntries(federation.facetsByIndex)
  if (federation.distinct !== null) out.distinct = federation.distinct
  return out
}

function federationOf(hit: JsonObject): JsonObject {
  return hit._federation as JsonObject
}

function scoreOf(hit: JsonObject): number {
  const score = federationOf(hit).weightedRankingScore
  return typeof score === 'number' ? score : 0
}

function positionOf(hit: JsonObject): number {
  const position = federationOf(hit).queriesPosition
  return typeof position === 'number' ? position : Number.MAX_SAFE_INTEGER
}

/** `_federation.remote` added (after the other fields); `weightedScoreValues`, only meant for merging, removed. */
function tagged(hit: JsonObject, remote: string | null): JsonObject {
  const { weightedScoreValues: _, ...federation } = federationOf(hit)
  return { ...hit, _federation: { ...federation, remote } }
}

/** A hit's values of the `distinct` attribute, as comparable keys (what `federation.distinct` keeps once). */
function distinctKeys(hit: JsonObject, attribute: string): string[] {
  const facets: Facets = { numbers: [], strings: [] }
  for (const v of attributeValues(hit, attribute)) addLeaf(v, facets)
  return [...facets.numbers.map((n) => `n:${n}`), ...facets.strings.map((s) => `s:${s}`)]
}

export interface MergedRemoteHits {
  hits: JsonObject[]
  /** Hits left out because their `distinct` value came earlier from another host (taken off the hit count). */
  rejected: number
}

/**
 * Which hits are one document: `useNetwork` hits of one index with the same primary key value (Meilisearch: "documents
 * with the same id are assumed identical for deduplication"); `null` for hits never deduplicated.
 */
export type DocumentKey = (hit: JsonObject) => string | null

/** The `DocumentKey` of hits at `positions` (`useNetwork` queries), from each index's primary key. */
export function networkDocumentKey(positions: ReadonlySet<number>, primaryKeyOf: (uid: string) => string | null): DocumentKey {
  return (hit) => {
    const federation = federationOf(hit)
    if (!positions.has(positionOf(hit)) || typeof federation.indexUid !== 'string') return null
    const primaryKey = primaryKeyOf(federation.indexUid)
    const id = primaryKey === null ? undefined : hit[primaryKey]
    // A document id is a string or an integer, and `1` and `"1"` name the same document (milli's external ids).
    return typeof id === 'string' || typeof id === 'number' ? `${federation.indexUid}\u0000${String(id)}` : null
  }
}

/**
 * The merged page: `local` (this instance's hits, already merged, best first) and each remote's hits, merged by
 * `_federation.weightedRankingScore`, the `skip`/`take` slice of the result. With `distinct`, a hit whose value of
 * that attribute an earlier hit of any host had is left out (each host already kept one hit per value); with
 * `documentKey`, so is a hit of a document an earlier hit (of another host) was.
 */
export function mergeRemoteHits(local: JsonObject[], self: string | null, outcomes: readonly RemoteOutcome[], skip: number, take: number, distinct: string | null = null, documentKey: DocumentKey | null = null): MergedRemoteHits {
  const lists: JsonObject[][] = [local.map((hit) => tagged(hit, self))]
  for (const outcome of outcomes) {
    if ('result' in outcome) lists.push((outcome.result.hits as JsonObject[]).map((hit) => tagged(hit, outcome.name)))
  }
  const heads = lists.map(() => 0)
  const out: JsonObject[] = []
  const taken = new Set<string>()
  const documents = new Set<string>()
  let rejected = 0
  let emitted = 0
  // With `distinct` or `documentKey`, the lists are read to the end so that every duplicate is counted.
  while (emitted < skip + take || distinct !== null || documentKey !== null) {
    let best = -1
    for (let l = 0; l < lists.length; l++) {
      const hit = lists[l]![heads[l]!]
      if (hit === undefined) continue
      if (best === -1) { best = l; continue }
      const current = lists[best]![heads[best]!]!
      const [a, b] = [scoreOf(hit), scoreOf(current)]
      if (a > b || (a === b && positionOf(hit) < positionOf(current))) best = l
    }
    if (best === -1) break
    const hit = lists[best]![heads[best]!++]!
    const document = documentKey?.(hit) ?? null
    if (document !== null) {
      if (documents.has(document)) { rejected++; continue }
      documents.add(document)
    }
    if (distinct !== null) {
      const keys = distinctKeys(hit, distinct)
      if (keys.some((k) => taken.has(k))) { rejected++; continue }
      for (const k of keys) taken.add(k)
    }
    if (emitted >= skip && emitted < skip + take) out.push(hit)
    emitted++
  }
  return { hits: out, rejected }
}

/** The hits the remotes counted (`estimatedTotalHits`, or `totalHits` when they paginated). */
export function remoteHitCount(outcomes: readonly RemoteOutcome[]): number {
  let total = 0
  for (const outcome of outcomes) {
    if (!('result' in outcome)) continue
    const { estimatedTotalHits, totalHits } = outcome.result
    total += typeof estimatedTotalHits === 'number' ? estimatedTotalHits : typeof totalHits === 'number' ? totalHits : 0
  }
  return total
}

/** `remoteErrors`: each failed remote's error, by remote name. */
export function remoteErrors(outcomes: readonly RemoteOutcome[]): Record<string, JsonObject> {
  const errors: Record<string, JsonObject> = {}
  for (const outcome of [...outcomes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if ('error' in outcome) errors[outcome.name] = outcome.error.toJSON() as unknown as JsonObject
  }
  return errors
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/** The remotes' `facetsByIndex`, added into `byIndex` (counts summed, stats widened). */
export function addRemoteFacets(byIndex: Map<string, ComputedFacets>, outcomes: readonly RemoteOutcome[]): void {
  for (const outcome of outcomes) {
    if (!('result' in outcome)) continue
    const remote = outcome.result.facetsByIndex as Record<string, ComputedFacets> | undefined
    for (const [uid, facets] of Object.entries(remote ?? {})) {
      let target = byIndex.get(uid)
      if (target === undefined) byIndex.set(uid, (target = { distribution: {}, stats: {} }))
      // Names are read as own entries only (a facet or value may be called `constructor`).
      for (const [facet, values] of Object.entries(facets.distribution ?? {})) {
        const counts = new Map(Object.entries(own(target.distribution, facet) ?? {}))
        for (const [value, count] of Object.entries(values)) counts.set(value, (counts.get(value) ?? 0) + count)
        target.distribution[facet] = Object.fromEntries(counts)
      }
      for (const [facet, s] of Object.entries(facets.stats ?? {})) {
        const known = own(target.stats, facet)
        target.stats[facet] = known ? { min: Math.min(known.min, s.min), max: Math.max(known.max, s.max) } : { ...s }
      }
    }
  }
}

/** How an index orders and cuts its facet values (its `faceting` settings). */
export interface FacetValueOrder {
  orderOf(facet: string): FacetOrder
  maxValuesPerFacet: number
}

/**
 * With remotes and without `mergeFacets`, each index's facet values are put back in the index's order and cut to its
 * `maxValuesPerFacet` once the remotes' counts are in (Meilisearch's `sort_and_truncate`): `alpha` sorts the values
 * as strings, `count` by count, largest first. Indexes this instance does not hold keep the remotes' order.
 */
export function sortRemoteFacets(byIndex: Map<string, ComputedFacets>, orders: ReadonlyMap<string, FacetValueOrder>): void {
  for (const [uid, facets] of byIndex) {
    const order = orders.get(uid)
    if (order === undefined) continue
    for (const [facet, values] of Object.entries(facets.distribution)) {
      const entries = Object.entries(values)
      if (order.orderOf(facet) === 'count') entries.sort((a, b) => b[1] - a[1] || compareBytes(a[0], b[0]))
      else entries.sort((a, b) => compareBytes(a[0], b[0]))
      facets.distribution[facet] = Object.fromEntries(entries.slice(0, order.maxValuesPerFacet))
    }
  }
  const sorted = [...byIndex].sort(([a], [b]) => compareBytes(a, b))
  byIndex.clear()
  for (const [uid, facets] of sorted) byIndex.set(uid, facets)
}
