import type { Engine } from '../engine.js'
import { canonicalId, documentNotFound, shape } from '../documents/read.js'
import type { Document } from '../payload/documents.js'
import { storedVectors } from '../vectors/output.js'

/** `GET /indexes/{uid}/documents/{id}`. */
export async function getDocument(engine: Engine, uid: string, id: string, fields: string[] | null, retrieveVectors: boolean): Promise<Document> {
  const meta = engine.index(uid)
  const ext = canonicalId(id)
  const vectors = retrieveVectors ? await engine.vectors.get(meta.id) : null
  const doc = ext === null ? undefined : engine.documents.get(meta.id, ext)
  if (!doc) throw documentNotFound(id)
  const docid = vectors ? engine.documents.docidOf(meta.id, ext!) : undefined
  const stored = vectors && docid !== undefined ? storedVectors(vectors, engine.settings.of(meta.id).embedders, docid) : undefined
  return shape(doc, fields, retrieveVectors, stored)
}
