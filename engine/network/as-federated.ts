/**
 * `useNetwork: true` on a single search (Meilisearch: `routes/indexes/search.rs`, `search`, and
 * `search/federated/network.rs`, `fixup_query_federation`): the query becomes a federated search of its index whose
 * one query is sent to every remote of the network, its pagination, `facets` and `distinct` moved to the
 * federation; the federated answer is then given back in the shape of a single search, with `remoteErrors`.
 */
import type { JsonObject } from '../json/value.js'
import { searchResponse } from '../search/format.js'
import { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_OFFSET, type MultiSearchRequest, type SearchQuery } from '../search/request.js'

export function networkSearchRequest(uid: string, query: SearchQuery): MultiSearchRequest & { federation: NonNullable<MultiSearchRequest['federation']> } {
  const federation = {
    limit: query.limit, offset: query.offset, page: query.page, hitsPerPage: query.hitsPerPage,
    facetsByIndex: new Map(query.facets !== null && query.facets.length > 0 ? [[uid, query.facets]] : []),
    mergeFacets: null, distinct: query.distinct, showPerformanceDetails: query.showPerformanceDetails,
  }
  const federated: SearchQuery = {
    ...query, offset: DEFAULT_SEARCH_OFFSET, limit: DEFAULT_SEARCH_LIMIT, page: null, hitsPerPage: null, facets: null,
    distinct: null, showPerformanceDetails: false,
  }
  return { queries: [{ indexUid: uid, query: federated, present: new Set(), federationOptions: null }], federation }
}

/** The federated answer of `networkSearchRequest` as a single search's answer. */
export function asSearchResponse(uid: string, query: SearchQuery, result: JsonObject): JsonObject {
  const { hits, processingTimeMs, facetsByIndex, remoteErrors, performanceDetails, ...hitsInfo } = result
  const byIndex = (facetsByIndex ?? {}) as Record<string, { distribution: never; stats: never }>
  const facets = Object.hasOwn(byIndex, uid) ? byIndex[uid] : undefined
  return searchResponse({
    hits: hits as JsonObject[], query: query.q ?? '', processingTimeMs: processingTimeMs as number, hitsInfo,
    ...(facets ? { facetDistribution: facets.distribution, facetStats: facets.stats } : {}),
    ...(performanceDetails !== undefined ? { performanceDetails: performanceDetails as Record<string, string> } : {}),
    ...(remoteErrors !== undefined ? { remoteErrors: remoteErrors as Record<string, unknown> } : {}),
  })
}
