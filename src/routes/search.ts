/** `/indexes/{uid}/search` (POST body or GET query parameters), `/indexes/{uid}/facet-search`, `/multi-search`. */
import { facetSearch, multiSearch, search } from '../../engine/index.js'
import { json } from '../http/json.js'
import { route, searchKey } from '../http/router.js'
import { parseFacetSearchBody, parseSearchBody, parseSearchParams } from '../api/search.js'
import { parseMultiSearchRequest } from '../api/multi-search.js'
import { indexUidFromPath } from '../api/index-uid.js'
import type { AppContext, AppRoute } from './context.js'

export const searchRoutes: AppRoute[] = [
  route<AppContext>('POST', '/indexes/:uid/search', searchKey, async ({ engine, params, body }) => {
    const query = parseSearchBody(await body())
    return json(200, await search(engine, indexUidFromPath(params.uid!), query))
  }),
  route<AppContext>('GET', '/indexes/:uid/search', searchKey, async ({ engine, params, req }) => {
    const query = parseSearchParams(req.rawQuery)
    return json(200, await search(engine, indexUidFromPath(params.uid!), query))
  }),
  route<AppContext>('POST', '/indexes/:uid/facet-search', searchKey, async ({ engine, params, body }) => {
    const request = parseFacetSearchBody(await body())
    return json(200, await facetSearch(engine, indexUidFromPath(params.uid!), request))
  }),
  route<AppContext>('POST', '/multi-search', searchKey, async ({ engine, body }) => json(200, await multiSearch(engine, parseMultiSearchRequest(await body())))),
]
