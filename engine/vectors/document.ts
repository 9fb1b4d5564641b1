/**
 * The user-provided part of a document's vectors, read from its `_vectors` field (shapes already checked by
 * documents/vectors.ts): per configured embedder, a shorthand array (one vector or several; user-provided, never
 * regenerated), `{embeddings, regenerate}`, or null (no vectors: the document is opted out). Names that are not
 * configured embedders are left in the document, as Meilisearch leaves them. Dimensions are checked here, so a
 * wrong vector fails the task before anything is applied.
 */
import { TesseraError } from '../errors/index.js'
import type { Document } from '../payload/documents.js'
import type { EmbedderSettings } from '../settings/index.js'
import type { DocumentVectors, EmbedderVectors } from './types.js'

/** Meilisearch's cap on the vectors of one document for one embedder. */
export const MAX_VECTORS_PER_DOCUMENT = 256

/** One vector or several, as `_vectors` gives them. */
function matrix(value: unknown): number[][] {
  if (!Array.isArray(value) || value.length === 0) return []
  return Array.isArray(value[0]) ? (value as number[][]) : [value as number[]]
}

export function invalidDimensions(expected: number, found: number): TesseraError {
  return new TesseraError('invalid_vector_dimensions', `Invalid vector dimensions: expected: \`${expected}\`, found: \`${found}\`.`)
}

/** A document's vector of the wrong size: Meilisearch names the document, the embedder and which embedding. */
function invalidDocumentDimensions(id: string, embedder: string, position: number, expected: number, found: number): TesseraError {
  return new TesseraError('invalid_vector_dimensions',
    `Invalid vector dimensions in document with id \`${id}\` in \`._vectors.${embedder}\`.\n` +
    `  - note: embedding #${position} has dimensions ${found}\n  - note: embedder \`${embedder}\` requires ${expected}`)
}

/**
 * The vectors `doc` provides for the configured `embedders`. `dimsOf` gives the dimensions an embedder's vectors
 * must have (its settings', else those already stored; undefined: not known yet, the first vector decides).
 */
export function providedVectors(doc: Document, id: string, embedders: Record<string, EmbedderSettings>, dimsOf: (name: string) => number | undefined): DocumentVectors {
  const raw = doc._vectors
  const out: DocumentVectors = {}
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (embedders[name] === undefined) continue
    let entry: EmbedderVectors
    if (value === null) entry = { embeddings: [], userProvided: true, regenerate: false }
    else if (Array.isArray(value)) entry = { embeddings: toFloats(matrix(value)), userProvided: true, regenerate: false }
    else {
      const v = value as { embeddings?: unknown; regenerate: boolean }
      const embeddings = v.embeddings == null ? [] : toFloats(matrix(v.embeddings))
      // `regenerate: true` with embeddings: stored now, replaced by the embedder at the next change.
      entry = { embeddings, userProvided: !v.regenerate, regenerate: v.regenerate }
    }
    if (entry.embeddings.length > MAX_VECTORS_PER_DOCUMENT) {
      throw new TesseraError('too_many_vectors', `Too many vectors for document with id ${id}: found ${entry.embeddings.length}, but limited to ${MAX_VECTORS_PER_DOCUMENT}.`)
    }
    let dims = embedders[name]!.dimensions ?? dimsOf(name)
    for (const [position, e] of entry.embeddings.entries()) {
      dims ??= e.length
      if (e.length !== dims) throw invalidDocumentDimensions(id, name, position, dims, e.length)
    }
    out[name] = entry
  }
  return out
}

function toFloats(vectors: number[][]): Float32Array[] {
  return vectors.map((v) => Float32Array.from(v))
}

/** Whether a document mentions `_vectors` for any configured embedder (a cheap test before parsing). */
export function mentionsVectors(doc: Document): boolean {
  const raw = doc._vectors
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length > 0
}

/**
 * The document as it is stored: without the `_vectors` entries of configured embedders (the vector store holds
 * those), `_vectors` itself gone when nothing is left, as milli stores documents. Entries of names that are not
 * embedders stay as sent. The same object when there is nothing to take out.
 */
export function withoutEmbedderVectors(doc: Document, embedders: Record<string, unknown>): Document {
  const raw = doc._vectors
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return doc
  const entries = Object.entries(raw as Record<string, unknown>)
  if (!entries.some(([name]) => embedders[name] !== undefined)) return doc
  const { _vectors: _, ...rest } = doc
  const kept = entries.filter(([name]) => embedders[name] === undefined)
  return kept.length === 0 ? rest : { ...rest, _vectors: Object.fromEntries(kept) }
}
