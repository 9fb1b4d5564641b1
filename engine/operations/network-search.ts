/**
 * `useNetwork` on `POST`/`GET /indexes/{uid}/search` (Meilisearch: `routes/indexes/search.rs`, `search`): the query
 * needs the `network` feature whenever it says `useNetwork`, even `false`; with `true` it becomes a federated search
 * of that index on every remote of the network (this instance included when it is one of them), each remote queried
 * once, and the merged answer is given in the shape of a single search, with `remoteErrors`. Pagination, `facets`
 * and `distinct` move to the federation, as Meilisearch moves them.
 */
import type { Engine } from '../engine.js'
import type { JsonObject } from '../json/value.js'
import { searchResponse } from '../search/format.js'
import { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_OFFSET, type Federation, type SearchQuery } from '../search/request.js'
import type { RemoteSearchOptions } from '../network/index.js'
import { multiSearch } from './multi-search.js'
import { search } from './search.js'

export async function networkSearch(engine: Engine, uid: string, query: SearchQuery, options: RemoteSearchOptions = {}): Promise<JsonObject> {
  engine.features.require('network', 'passing `useNetwork` in a search query')
  if (query.useNetwork !== true) return search(engine, uid, { ...query, useNetwork: null })
  const federation: Federation = {
    limit: query.limit, offset: query.offset, page: query.page, hitsPerPage: query.hitsPerPage,
    facetsByIndex: new Map(query.facets !== null && query.facets.length > 0 ? [[uid, query.facets]] : []),
    mergeFacets: null, distinct: query.distinct, showPerformanceDetails: query.showPerformanceDetails,
  }
  const federated: SearchQuery = {
    ...query, offset: DEFAULT_SEARCH_OFFSET, limit: DEFAULT_SEARCH_LIMIT, page: null, hitsPerPage: null, facets: null,
    distinct: null, showPerformanceDetails: false,
  }
  const result = await multiSearch(engine, { queries: [{ indexUid: uid, query: federated, present: new Set(), federationOptions: null }], federation }, options)
  const { hits, processingTimeMs, facetsByIndex, remoteErrors, performanceDetails, ...hitsInfo } = result
  const facets = (facetsByIndex as Record<string, { distribution: never; stats: never }> | undefined)?.[uid]
  return searchResponse({
    hits: hits as JsonObject[], query: query.q ?? '', processingTimeMs: processingTimeMs as number, hitsInfo,
    ...(facets ? { facetDistribution: facets.distribution, facetStats: facets.stats } : {}),
    ...(performanceDetails !== undefined ? { performanceDetails: performanceDetails as Record<string, string> } : {}),
    ...(remoteErrors !== undefined ? { remoteErrors: remoteErrors as Record<string, unknown> } : {}),
  })
}
