import { performance } from 'node:perf_hooks'
import type { Engine } from '../engine.js'
import { facetSearchOn } from '../search/facet-search.js'
import type { FacetSearchRequest } from '../search/request.js'
import { searchSource } from './search-source.js'
import { threadedSearch } from './threaded-search.js'

/** `POST /indexes/{uid}/facet-search`: the values of a facet among a search's matching documents (on a search thread when it can run there). */
export async function facetSearch(engine: Engine, uid: string, request: FacetSearchRequest): Promise<Record<string, unknown>> {
  const start = performance.now()
  const threaded = await threadedSearch(engine, uid, { kind: 'facetSearch', request })
  // Only searches are answered as bytes.
  if (threaded) return threaded as Record<string, unknown>
  return facetSearchOn(await searchSource(engine, uid), request, start)
}
