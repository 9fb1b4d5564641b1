import type { Engine } from '../engine.js'
import { canonicalId, documentNotFound, shape } from '../documents/read.js'
import type { Document } from '../payload/documents.js'

/** `GET /indexes/{uid}/documents/{id}`. */
export function getDocument(engine: Engine, uid: string, id: string, fields: string[] | null, retrieveVectors: boolean): Document {
  const meta = engine.index(uid)
  const ext = canonicalId(id)
  const doc = ext === null ? undefined : engine.documents.get(meta.id, ext)
  if (!doc) throw documentNotFound(id)
  return shape(doc, fields, retrieveVectors)
}
