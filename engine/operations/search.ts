import type { Engine } from '../engine.js'
import type { JsonObject } from '../json/value.js'
import { resolveQueryVector, searchIndex } from '../search/dispatch.js'
import type { SearchQuery } from '../search/request.js'
import { searchSource } from './search-source.js'
import { threadedSearch } from './threaded-search.js'
import { serializeResponse } from '../search/stored-hits.js'

/** `POST`/`GET /indexes/{uid}/search`: Meilisearch's response object (from a search thread when it can run there). */
export async function search(engine: Engine, uid: string, query: SearchQuery): Promise<JsonObject> {
  const threaded = await threadedSearch(engine, uid, { kind: 'search', query })
  if (threaded) return threaded as JsonObject
  const source = await searchSource(engine, uid)
  return searchIndex(source, query, await resolveQueryVector(source, query))
}

/**
 * The same search's response as JSON bytes, for a caller that only writes them (the HTTP route): hits showing whole
 * documents are written from their stored text, never decoded (search/stored-hits.ts).
 */
export async function searchSerialized(engine: Engine, uid: string, query: SearchQuery): Promise<Uint8Array> {
  const threaded = await threadedSearch(engine, uid, { kind: 'search', query, serialized: true })
  if (threaded) return threaded instanceof Uint8Array ? threaded : Buffer.from(JSON.stringify(threaded))
  const source = await searchSource(engine, uid)
  return serializeResponse(searchIndex(source, query, await resolveQueryVector(source, query), { storedHits: true }))
}
