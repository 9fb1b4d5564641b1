import { performance } from 'node:perf_hooks'
import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import { checkFacetSearchable, searchFacetValues } from '../facets/search.js'
import { requireKeyword } from '../search/dispatch.js'
import { searchKind } from '../search/request.js'
import { rankQuery } from '../search/keyword.js'
import type { FacetSearchRequest } from '../search/request.js'
import { searchSource } from './search-source.js'

/** `POST /indexes/{uid}/facet-search`: the values of a facet among a search's matching documents. */
export async function facetSearch(engine: Engine, uid: string, request: FacetSearchRequest): Promise<Record<string, unknown>> {
  const start = performance.now()
  const source = await searchSource(engine, uid)
  requireKeyword(source, request.search)
  if (!source.settings.facetSearch) throw new TesseraError('facet_search_disabled', 'The facet search is disabled for this index')
  checkFacetSearchable(request.facetName, source.settings)
  // A semantic or hybrid search matches every document its filter keeps (the semantic side ranks them all).
  const semantic = searchKind(request.search) !== 'keyword'
  const outcome = rankQuery(source, { ...request.search, distinct: null, ...(semantic ? { q: null } : {}) }, { offset: 0, limit: 0 }, start)
  const facetHits = searchFacetValues(source.facets, request.facetName, request.facetQuery, outcome.all, source.settings)
  return { facetHits, facetQuery: request.facetQuery, processingTimeMs: Math.floor(performance.now() - start) }
}
