/** Primary keys and document ids: inference, extraction and validation, with Meilisearch's messages. */
import { TesseraError } from '../errors/index.js'
import type { Document } from '../payload/documents.js'

/** The value at a dotted path (`a.b` reads `{a: {b}}`, or a flattened `{"a.b"}` key). */
export function valueAt(doc: Document, path: string): unknown {
  if (path in doc) return doc[path]
  let current: unknown = doc
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined
    current = (current as Document)[part]
  }
  return current
}

/** Exactly one top-level field ending in `id` (any case) is the primary key. */
export function inferPrimaryKey(doc: Document): string {
  const candidates = Object.keys(doc).filter((k) => k.toLowerCase().endsWith('id'))
  if (candidates.length === 1) return candidates[0]!
  if (candidates.length === 0) {
    throw new TesseraError('index_primary_key_no_candidate_found', 'The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.')
  }
  throw new TesseraError('index_primary_key_multiple_candidates_found', `The primary key inference failed as the engine found ${candidates.length} fields ending with \`id\` in their names: '${candidates[0]}' and '${candidates[1]}'. Please specify the primary key manually using the \`primaryKey\` query parameter.`)
}

const MAX_ID_BYTES = 511

export function invalidDocumentId(value: unknown): TesseraError {
  return new TesseraError('invalid_document_id', `Document identifier \`${JSON.stringify(value)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`)
}

/** The canonical external id of a document id value (integers print in decimal), or throws. */
export function externalId(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value)
    throw invalidDocumentId(value)
  }
  if (typeof value === 'string' && value.length > 0 && Buffer.byteLength(value) <= MAX_ID_BYTES && /^[A-Za-z0-9_-]+$/.test(value)) return value
  throw invalidDocumentId(value)
}

/** The document's external id under `primaryKey`, or throws missing/invalid document id. */
export function documentId(doc: Document, primaryKey: string): string {
  const value = valueAt(doc, primaryKey)
  if (value === undefined) {
    throw new TesseraError('missing_document_id', `Document doesn't have a \`${primaryKey}\` attribute: \`${JSON.stringify(doc)}\`.`)
  }
  return externalId(value)
}
