import type { Engine } from '../engine.js'
import type { JsonObject } from '../json/value.js'
import { similarDocuments, type SimilarQuery } from '../search/similar.js'
import { searchSource } from './search-source.js'

/** `POST`/`GET /indexes/{uid}/similar`. */
export async function similar(engine: Engine, uid: string, query: SimilarQuery): Promise<JsonObject> {
  const source = await searchSource(engine, uid)
  const docid = engine.documents.docidOf(engine.index(uid).id, query.id)
  return similarDocuments(source, query, docid)
}
