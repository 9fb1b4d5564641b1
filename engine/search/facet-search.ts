/** A facet search over a source (on the HTTP thread or a search thread): see facets/search.ts. */
import { performance } from 'node:perf_hooks'
import { TesseraError } from '../errors/index.js'
import { checkFacetSearchable, searchFacetValues } from '../facets/search.js'
import { requireKeyword } from './dispatch.js'
import { rankQuery } from './keyword.js'
import { searchKind, type FacetSearchRequest } from './request.js'
import type { SearchSource } from './source.js'

/** `POST /indexes/{uid}/facet-search`'s response; `start`: when the request began (performance clock). */
export function facetSearchOn(source: SearchSource, request: FacetSearchRequest, start = performance.now()): Record<string, unknown> {
  requireKeyword(source, request.search)
  if (!source.settings.facetSearch) throw new TesseraError('facet_search_disabled', 'The facet search is disabled for this index')
  checkFacetSearchable(request.facetName, source.settings)
  // A semantic or hybrid search matches every document its filter keeps (the semantic side ranks them all).
  const semantic = searchKind(request.search) !== 'keyword'
  const outcome = rankQuery(source, { ...request.search, distinct: null, ...(semantic ? { q: null } : {}) }, { offset: 0, limit: 0 }, start)
  const facetHits = searchFacetValues(source.facets, request.facetName, request.facetQuery, outcome.all, source.settings)
  return { facetHits, facetQuery: request.facetQuery, processingTimeMs: Math.floor(performance.now() - start) }
}
