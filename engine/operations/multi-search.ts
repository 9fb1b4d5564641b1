/**
 * `POST /multi-search`, with and without `federation`, as Meilisearch answers it
 * (`crates/meilisearch/src/routes/multi_search.rs`, `crates/meilisearch/src/search/federated/perform.rs`).
 *
 * - Without `federation`: `{results: [{indexUid, ...search response}]}` in query order. A query with
 *   `federationOptions` fails (`invalid_multi_search_federation_options`), and so does a query whose search fails,
 *   its message prefixed with ``Inside `.queries[N]`: ``.
 * - With `federation`: a query with `offset`/`limit`/`page`/`hitsPerPage` (`invalid_multi_search_query_pagination`)
 *   or non-empty `facets` (`invalid_multi_search_query_facets`) fails; queries then run index by index in uid order
 *   (so the first missing index in that order is the one reported, at its first query), and their hits are merged
 *   (search/federation.ts). A query's own `showPerformanceDetails` fails too
 *   (`invalid_multi_search_query_show_performance_details`); `federation.showPerformanceDetails` times the whole.
 * - `federation.facetsByIndex` computes each named index's facets over the documents matching its queries, shown per
 *   index or, with `mergeFacets`, merged (search/federated-facets.ts); `federation.distinct` runs every query with
 *   that `distinct` and keeps one hit per value across indexes.
 * - A missing index inside a query is `index_not_found` with status 400 (the resource is not in the URL).
 * - Remotes (network/, README "Network"): a query with `federationOptions.remote` or `useNetwork` is routed to this
 *   instance and/or remotes (network/routing.ts); the remotes search while this instance does, and their hits,
 *   counts and facets are merged in (network/remote-results.ts), their failures reported in `remoteErrors`.
 */
import { performance } from 'node:perf_hooks'
import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import { federatedHitsInfo, federationWindow, indexHitCount, mergeFederatedHits, type QueryHits } from '../search/federation.js'
import { rankedSearch, resolveQueryVector } from '../search/dispatch.js'
import { mergeFacets, type ComputedFacets, type FacetOrder } from '../search/federated-facets.js'
import { StageTimer } from '../search/performance.js'
import { checkFacets, facetDistribution } from '../facets/distribution.js'
import { addLeaf, attributeValues, normalizeRules, type Facets } from '../filter/index.js'
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import type { Federation, MultiSearchQuery, MultiSearchRequest, SearchQuery } from '../search/request.js'
import { searchSource } from './search-source.js'
import { search } from './search.js'
import { addRemoteFacets, emptyPlan, mergeRemoteHits, remoteErrors, remoteHitCount, routeQuery, startRemoteSearches, type Network, type NetworkPlan, type RemoteOutcome, type RemoteSearchOptions, withScoreValues, networkSearchRequest, asSearchResponse, sortRemoteFacets, networkDocumentKey, type FacetValueOrder, fuseFilters } from '../network/index.js'

export async function multiSearch(engine: Engine, request: MultiSearchRequest, options: RemoteSearchOptions = {}): Promise<JsonObject> {
  return request.federation === null ? separateSearches(engine, request.queries, options) : federatedSearch(engine, request.queries, request.federation, options)
}

/**
 * A search of one index with `useNetwork` (the route's `search` with it, and a query of a multi-search without
 * `federation`): the `network` feature is needed even for `false`, which searches here only; `true` searches the
 * index on every remote of the network (network/as-federated.ts).
 */
export async function networkSearch(engine: Engine, uid: string, query: SearchQuery, options: RemoteSearchOptions = {}): Promise<JsonObject> {
  engine.features.require('network', 'passing `useNetwork` in a search query')
  if (query.useNetwork !== true) return search(engine, uid, { ...query, useNetwork: null })
  const request = networkSearchRequest(uid, query)
  return asSearchResponse(uid, query, await federatedSearch(engine, request.queries, request.federation, options))
}

/** An error raised while running query `n`: its message located, `index_not_found` answered with 400. */
function inside(err: unknown, n: number): unknown {
  if (!(err instanceof TesseraError)) return err
  return new TesseraError(err.code, `Inside \`.queries[${n}]\`: ${err.message}`, err.code === 'index_not_found' ? 400 : undefined)
}

/** Rust's `{:?}` of a `Vec<String>`. */
export function debugList(items: readonly string[]): string {
  const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`
  return `[${items.map(quote).join(', ')}]`
}

/**
 * The queries run a few at a time (as many as there are search threads, so a multi-search never fills the search
 * queue alone; one at a time without threads), up to the first with `federationOptions`; the answer is the one of
 * running them in order: the results, or the error of the first query that fails.
 */
async function separateSearches(engine: Engine, queries: MultiSearchQuery[], options: RemoteSearchOptions): Promise<JsonObject> {
  const refused = queries.findIndex((q) => q.federationOptions !== null)
  const runnable = refused < 0 ? queries.length : refused
  const width = Math.max(1, engine.searchThreads?.threads ?? 1)
  const running: Promise<JsonObject>[] = []
  const start = (n: number) => {
    if (n >= runnable) return
    const { indexUid, query } = queries[n]!
    running[n] = query.useNetwork === null ? search(engine, indexUid, query) : networkSearch(engine, indexUid, query, options)
    // Read now so that a failure after an earlier one is not left unhandled.
    running[n]!.catch(() => {})
  }
  for (let n = 0; n < width; n++) start(n)
  const results: JsonObject[] = []
  for (let n = 0; n < queries.length; n++) {
    if (n === refused) {
      throw new TesseraError('invalid_multi_search_federation_options', `Inside \`.queries[${n}]\`: Using \`federationOptions\` is not allowed in a non-federated search.\n - Hint: remove \`federationOptions\` from query #${n} or add \`federation\` to the request.`)
    }
    try {
      results.push({ indexUid: queries[n]!.indexUid, ...(await running[n]!) })
    } catch (err) {
      throw inside(err, n)
    }
    start(n + width)
  }
  return { results }
}

const PAGINATION_FIELDS = ['offset', 'limit', 'page', 'hitsPerPage'] as const

/**
 * The checks made while the queries are partitioned, in query order; each query's merge position. Each query is
 * also routed to this instance and/or remotes (`plan`, see network/routing.ts).
 */
function federatedPositions(engine: Engine, queries: MultiSearchQuery[], network: Network, plan: NetworkPlan): number[] {
  return queries.map(({ indexUid, query, present, federationOptions }, n) => {
    const paginated = PAGINATION_FIELDS.find((f) => present.has(f))
    if (paginated !== undefined) {
      throw new TesseraError('invalid_multi_search_query_pagination', `Inside \`.queries[${n}]\`: Using pagination options is not allowed in federated queries.\n - Hint: remove \`${paginated}\` from query #${n} or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`)
    }
    if (query.facets !== null && query.facets.length > 0) {
      throw new TesseraError('invalid_multi_search_query_facets', `Inside \`.queries[${n}]\`: Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from query #${n} or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${indexUid}: ${debugList(query.facets)}\` for facets in federated search`)
    }
    if (present.has('showPerformanceDetails')) {
      throw new TesseraError('invalid_multi_search_query_show_performance_details', `Inside \`.queries[${n}]\`: Using \`.showPerformanceDetails\` is not allowed in federated queries.\n - Hint: remove \`showPerformanceDetails\` from query #${n} or remove \`federation\` from the request`)
    }
    if (federationOptions?.queryPosition != null) engine.features.require('network', 'Using `federationOptions.queryPosition`')
    const position = federationOptions?.queryPosition ?? n
    routeQuery(plan, engine.features, network, queries[n]!, n, position)
    return position
  })
}

async function federatedSearch(engine: Engine, queries: MultiSearchQuery[], federation: Federation, options: RemoteSearchOptions): Promise<JsonObject> {
  const start = performance.now()
  const timer = federation.showPerformanceDetails ? new StageTimer('federated search') : null
  const queriesStart = performance.now()
  if (options.proxied) engine.features.require('network', 'Performing a remote federated search')
  const network = engine.network.routingView()
  const plan = emptyPlan(network)
  const positions = federatedPositions(engine, queries, network, plan)
  const window = federationWindow(federation)
  // The remotes search while this instance does.
  const remoteSearch = startRemoteSearches(plan, federation, options)
  // Queries run index by index, indexes in uid order, queries of an index in request order.
  const byIndex = new Map<string, number[]>()
  queries.forEach((q, n) => { if (plan.local.has(n)) byIndex.set(q.indexUid, [...(byIndex.get(q.indexUid) ?? []), n]) })
  const uids = [...byIndex.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const merged: QueryHits[] = []
  const matched = new Map<string, Bitmap>()
  let hitNumber = 0
  for (const uid of uids) {
    const ns = byIndex.get(uid)!
    const counts: { candidates: number; docids: number[] }[] = []
    let documents = 0
    for (const n of ns) {
      const { query, federationOptions } = queries[n]!
      let result: FederatedQueryResult
      try {
        // A sharded `useNetwork` query searches here only the shards this instance answers for.
        const shards = plan.localFilters.get(n)
        const filter = shards === undefined ? query.filter : fuseFilters(query.filter, shards)
        result = await federatedQuery(engine, uid, { ...query, filter, distinct: query.distinct ?? federation.distinct }, window.required, federation.distinct)
      } catch (err) {
        // A missing index is reported at the first query of that index.
        throw inside(err, err instanceof TesseraError && err.code === 'index_not_found' ? positions[ns[0]!]! : positions[n]!)
      }
      documents = result.documents
      counts.push({ candidates: result.candidates, docids: result.docids })
      const known = matched.get(uid)
      matched.set(uid, known ? RoaringBitmap32.or(known, result.all) : result.all)
      merged.push({
        indexUid: uid, position: positions[n]!, weight: federationOptions?.weight ?? 1, showRankingScore: query.showRankingScore,
        hits: result.hits, docids: result.docids, ...(result.distinctKeys ? { distinctKeys: result.distinctKeys } : {}),
      })
    }
    hitNumber += indexHitCount(counts, documents)
  }
  timer?.record('federated search > queries', performance.now() - queriesStart)
  // Indexes named in `facetsByIndex` but not queried must exist too.
  for (const uid of federation.facetsByIndex.keys()) {
    if (byIndex.has(uid) || engine.catalog.has(uid) || plan.remoteIndexes.has(uid)) continue
    throw new TesseraError('index_not_found', `Inside \`.federation.facetsByIndex.${uid}\`: Index \`${uid}\` not found.\n - Note: index \`${uid}\` is not used in queries`, 400)
  }
  const outcomes = await remoteSearch
  const facetsStart = performance.now()
  const facets = await federatedFacets(engine, queries, federation, matched, { outcomes, indexes: plan.remoteIndexes })
  timer?.record('federated search > facets', performance.now() - facetsStart)
  // Merge in query order so that equal positions keep the request's order.
  merged.sort((a, b) => a.position - b.position)
  hitNumber += remoteHitCount(outcomes)
  const merge = (): JsonObject[] => {
    if (!plan.hasRemote) return options.proxied ? withScoreValues(mergeFederatedHits(merged, window.skip, window.take)) : mergeFederatedHits(merged, window.skip, window.take)
    // This instance's hits, then every host's; with `distinct` or `useNetwork` (documents deduplicated), all of
    // them, so that duplicates are all counted.
    const dedup = plan.networkPositions.size > 0 ? networkDocumentKey(plan.networkPositions, (uid) => engine.catalog.get(uid)?.primaryKey ?? null) : null
    const local = mergeFederatedHits(merged, 0, federation.distinct === null && dedup === null ? window.skip + window.take : Number.MAX_SAFE_INTEGER)
    const all = mergeRemoteHits(local, plan.self, outcomes, window.skip, window.take, federation.distinct, dedup)
    hitNumber -= all.rejected
    return all.hits
  }
  const hits = timer ? timer.time('merge', merge) : merge()
  const response: JsonObject = { hits, processingTimeMs: Math.floor(performance.now() - start), ...federatedHitsInfo(federation, hitNumber) }
  Object.assign(response, facets)
  if (plan.hasRemote) response.remoteErrors = remoteErrors(outcomes)
  if (timer) response.performanceDetails = timer.details(performance.now() - start)
  return response
}

/**
 * `facetsByIndex` (or, with `mergeFacets`, `facetDistribution` and `facetStats`): each named index's facets over
 * the documents its queries matched. Errors name where they come from, as Meilisearch's do.
 */
async function federatedFacets(engine: Engine, queries: MultiSearchQuery[], federation: Federation, matched: ReadonlyMap<string, Bitmap>, remote: { outcomes: readonly RemoteOutcome[]; indexes: ReadonlySet<string> }): Promise<JsonObject> {
  const byIndex = new Map<string, ComputedFacets>()
  const orders = new Map<string, FacetOrder>()
  const indexOrders = new Map<string, FacetValueOrder>()
  for (const uid of [...federation.facetsByIndex.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const names = federation.facetsByIndex.get(uid)
    if (names === null || names === undefined) continue
    // An index only remotes were asked about gets its facets from them.
    if (remote.indexes.has(uid) && !engine.catalog.has(uid)) continue
    const source = await searchSource(engine, uid)
    const used = queries.findIndex((q) => q.indexUid === uid)
    try {
      checkFacets(names, normalizeRules(source.settings.filterableAttributes))
    } catch (err) {
      if (!(err instanceof TesseraError)) throw err
      const note = used === -1 ? `\n - Note: index \`${uid}\` is not used in queries` : `\n - Note: index \`${uid}\` used in \`.queries[${used}]\``
      throw new TesseraError('invalid_multi_search_facets', `Inside \`.federation.facetsByIndex.${uid}\`: ${err.message}${note}`)
    }
    byIndex.set(uid, facetDistribution(names, source.facets, matched.get(uid) ?? new RoaringBitmap32(), source.settings))
    const by = source.settings.faceting.sortFacetValuesBy as Record<string, string>
    const orderOf = (facet: string): FacetOrder => (by[facet] ?? by['*']) === 'count' ? 'count' : 'alpha'
    for (const facet of Object.keys(byIndex.get(uid)!.distribution)) {
      if (!orders.has(facet)) orders.set(facet, orderOf(facet))
    }
    indexOrders.set(uid, { orderOf, maxValuesPerFacet: source.settings.faceting.maxValuesPerFacet })
  }
  if (remote.outcomes.length > 0) {
    addRemoteFacets(byIndex, remote.outcomes)
    if (federation.mergeFacets === null) sortRemoteFacets(byIndex, indexOrders)
  }
  if (byIndex.size === 0) return {}
  if (federation.mergeFacets !== null) {
    const { distribution, stats } = mergeFacets(byIndex, orders, federation.mergeFacets.maxValuesPerFacet)
    return { facetDistribution: distribution, facetStats: stats }
  }
  return { facetsByIndex: Object.fromEntries(byIndex) }
}

interface FederatedQueryResult {
  hits: Record<string, unknown>[]
  docids: number[]
  /** Matching documents, not bounded by `maxTotalHits` (Meilisearch counts candidates so in federation). */
  candidates: number
  /** Documents in the index. */
  documents: number
  /** Every matching document (what the index's facets are computed over). */
  all: Bitmap
  /** With `federation.distinct`: each hit's values of that attribute as keys (`n:1`, `s:red`). */
  distinctKeys?: string[][]
}

/** One query of a federated search: its first `limit` hits (bounded by the index's `maxTotalHits`), with scores. */
async function federatedQuery(engine: Engine, uid: string, query: SearchQuery, limit: number, distinct: string | null): Promise<FederatedQueryResult> {
  const source = await searchSource(engine, uid)
  let docids: number[] = []
  // The window is bounded here; the search itself counts candidates without the bound.
  const unbounded = {
    ...source,
    settings: { ...source.settings, pagination: { ...source.settings.pagination, maxTotalHits: Number.MAX_SAFE_INTEGER } },
    fetch: (ids: number[]) => { docids = ids; return source.fetch(ids) },
  }
  const window = { offset: 0, limit: Math.min(limit, source.settings.pagination.maxTotalHits), page: null, hitsPerPage: null }
  const windowed = { ...query, ...window, showRankingScore: true }
  // Resolved for the window searched: a hybrid query's keyword side decides whether `q` is embedded at all.
  const vector = await resolveQueryVector(unbounded, windowed)
  const { response: result, outcome } = rankedSearch(unbounded, windowed, vector)
  const out: FederatedQueryResult = { hits: result.hits as Record<string, unknown>[], docids, candidates: result.estimatedTotalHits as number, documents: source.live.size, all: outcome.all }
  if (distinct !== null) {
    out.distinctKeys = source.fetch(docids).map((doc) => {
      const facets: Facets = { numbers: [], strings: [] }
      for (const v of attributeValues(doc as Record<string, unknown>, distinct)) addLeaf(v, facets)
      return [...facets.numbers.map((n) => `n:${n}`), ...facets.strings.map((s) => `s:${s}`)]
    })
  }
  return out
}
