/** `/indexes/{uid}/search` (POST body or GET query parameters). */
import { parseFacetSearchBody, parseSearchBody, parseSearchParams, type SearchQuery } from '../../engine/search/query.js'
import { json } from '../http/json.js'
import { indexUidFromPath } from '../validation/index-uid.js'
import type { AppRouter, Ctx } from './context.js'

async function runSearch(ctx: Ctx, query: SearchQuery) {
  return json(200, await ctx.engine.search(indexUidFromPath(ctx.params.uid!), query))
}

export function searchRoutes(router: AppRouter): void {
  router
    .on('POST', '/indexes/:uid/search', async (ctx) => runSearch(ctx, parseSearchBody(await ctx.body())))
    .on('GET', '/indexes/:uid/search', (ctx) => runSearch(ctx, parseSearchParams(ctx.req.rawQuery)))
    .on('POST', '/indexes/:uid/facet-search', async (ctx) => {
      const request = parseFacetSearchBody(await ctx.body())
      return json(200, await ctx.engine.facetSearch(indexUidFromPath(ctx.params.uid!), request))
    })
}
