/**
 * `/indexes/{uid}/search` (POST body or GET query parameters), `/indexes/{uid}/facet-search`, `/multi-search`.
 * These take tenant tokens: a token's rule filter for the index is ANDed with the request's own filter, and in a
 * multi-search each query's index must be allowed by the key and the token (``Inside `.queries[N]`: `` otherwise).
 */
import { TesseraError, facetSearch, multiSearch, networkSearch, searchSerialized, similar, type Engine } from '../../engine/index.js'
import { PROXY_SEARCH_HEADER } from '../../engine/network/index.js'
import type { MultiSearchRequest, SearchQuery } from '../../engine/search/request.js'
import type { JsonObject } from '../../engine/json/value.js'
import { json, jsonBytes } from '../http/json.js'
import type { Response } from '../http/types.js'
import { route, searchKey } from '../http/router.js'
import { parseFacetSearchBody, parseSearchBody, parseSearchParams } from '../api/search.js'
import { parseMultiSearchRequest } from '../api/multi-search.js'
import { parseSimilarBody, parseSimilarParams } from '../api/similar.js'
import { indexUidFromPath } from '../api/index-uid.js'
import type { Grant } from '../keys/grant.js'
import { fuseFilters } from '../keys/search-rules.js'
import type { AppContext, AppRoute } from './context.js'

/** The query with the tenant token's filter for `uid` ANDed to its own. */
function withRules(query: SearchQuery, auth: Grant, uid: string): SearchQuery {
  const rule = auth.searchFilter(uid)
  return rule === undefined ? query : { ...query, filter: fuseFilters(query.filter, rule) }
}

/**
 * Every query's index must be allowed, checked in query order (without federation, up to the first query the
 * engine refuses for its `federationOptions`, as Meilisearch checks both in one pass); then the rules applied.
 */
function authorizedQueries(request: MultiSearchRequest, auth: Grant): MultiSearchRequest {
  for (let n = 0; n < request.queries.length; n++) {
    const { indexUid, federationOptions } = request.queries[n]!
    if (request.federation === null && federationOptions !== null) break
    if (!auth.isIndexAuthorized(indexUid)) throw new TesseraError('invalid_api_key', `Inside \`.queries[${n}]\`: The provided API key is invalid.`)
  }
  return { ...request, queries: request.queries.map((q) => ({ ...q, query: withRules(q.query, auth, q.indexUid) })) }
}

/**
 * A search of one index, its response serialized by the engine (hits written from their stored text); with
 * `useNetwork`, of that index on every remote of the network (`networkSearch`, engine/operations/multi-search.ts).
 */
async function searchOne(engine: Engine, uid: string, query: SearchQuery, timeoutMs: number): Promise<Response> {
  if (query.useNetwork === null) return jsonBytes(200, await searchSerialized(engine, uid, query))
  return json(200, await networkSearch(engine, uid, query, { timeoutMs }))
}

export const searchRoutes: AppRoute[] = [
  route<AppContext>('POST', '/indexes/:uid/search', searchKey, async ({ engine, params, body, auth, config }) => {
    const query = parseSearchBody(await body())
    const uid = indexUidFromPath(params.uid!)
    return searchOne(engine, uid, withRules(query, auth, uid), config.remoteSearchTimeoutMs)
  }),
  route<AppContext>('GET', '/indexes/:uid/search', searchKey, async ({ engine, params, req, auth, config }) => {
    const query = parseSearchParams(req.rawQuery)
    const uid = indexUidFromPath(params.uid!)
    return searchOne(engine, uid, withRules(query, auth, uid), config.remoteSearchTimeoutMs)
  }),
  route<AppContext>('POST', '/indexes/:uid/facet-search', searchKey, async ({ engine, params, body, auth }) => {
    const request = parseFacetSearchBody(await body())
    const uid = indexUidFromPath(params.uid!)
    return json(200, await facetSearch(engine, uid, { ...request, search: withRules(request.search, auth, uid) }))
  }),
  route<AppContext>('POST', '/indexes/:uid/similar', searchKey, async ({ engine, params, body, auth }) => {
    const query = parseSimilarBody(await body())
    const uid = indexUidFromPath(params.uid!)
    return json(200, await similar(engine, uid, { ...query, filter: withRules({ filter: query.filter } as SearchQuery, auth, uid).filter }))
  }),
  route<AppContext>('GET', '/indexes/:uid/similar', searchKey, async ({ engine, params, req, auth }) => {
    const query = parseSimilarParams(req.rawQuery)
    const uid = indexUidFromPath(params.uid!)
    return json(200, await similar(engine, uid, { ...query, filter: withRules({ filter: query.filter } as SearchQuery, auth, uid).filter }))
  }),
  route<AppContext>('POST', '/multi-search', searchKey, async ({ engine, body, auth, req, config }) => {
    const request = parseMultiSearchRequest(await body())
    const remote = { proxied: req.headers.get(PROXY_SEARCH_HEADER) === 'true', timeoutMs: config.remoteSearchTimeoutMs }
    return json(200, await multiSearch(engine, authorizedQueries(request, auth), remote))
  }),
]
