import type { Engine } from '../engine.js'
import { readPage, type DocumentPage, type DocumentQuery } from '../documents/read.js'
import { publishedIndex } from './published-index.js'

/** `GET /indexes/{uid}/documents` and `POST .../documents/fetch`: filters evaluated as search evaluates them. */
export async function listDocuments(engine: Engine, uid: string, query: DocumentQuery): Promise<DocumentPage> {
  const index = publishedIndex(engine, uid)
  return readPage(engine.documents, index.meta, () => index.settings, engine.features, (expr) => index.filter(expr), query)
}
