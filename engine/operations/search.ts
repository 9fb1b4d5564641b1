import type { Engine } from '../engine.js'
import type { JsonObject } from '../json/value.js'
import { resolveQueryVector, searchIndex } from '../search/dispatch.js'
import type { SearchQuery } from '../search/request.js'
import { searchSource } from './search-source.js'

/** `POST`/`GET /indexes/{uid}/search`: Meilisearch's response object. */
export async function search(engine: Engine, uid: string, query: SearchQuery): Promise<JsonObject> {
  const source = await searchSource(engine, uid)
  return searchIndex(source, query, await resolveQueryVector(source, query))
}
