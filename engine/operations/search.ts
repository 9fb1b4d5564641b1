import type { Engine } from '../engine.js'
import type { JsonObject } from '../json/value.js'
import { resolveQueryVector, searchIndex } from '../search/dispatch.js'
import type { SearchQuery } from '../search/request.js'
import { searchSource } from './search-source.js'
import { threadedSearch } from './threaded-search.js'

/** `POST`/`GET /indexes/{uid}/search`: Meilisearch's response object (from a search thread when it can run there). */
export async function search(engine: Engine, uid: string, query: SearchQuery): Promise<JsonObject> {
  const threaded = await threadedSearch(engine, uid, { kind: 'search', query })
  if (threaded) return threaded
  const source = await searchSource(engine, uid)
  return searchIndex(source, query, await resolveQueryVector(source, query))
}
