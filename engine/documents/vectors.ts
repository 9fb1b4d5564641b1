/** Validation of the `_vectors` field of a document (shapes in the spec: "Document vectors"). */
import { TesseraError } from '../errors/index.js'
import type { Document } from '../payload/documents.js'

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x))
const isMatrix = (v: unknown): boolean => Array.isArray(v) && (isNumbers(v) || v.every(isNumbers))

function invalid(name: string, message: string): TesseraError {
  return new TesseraError('invalid_vectors_type', `Bad embedder configuration in the document with id: \`${name}\`. ${message}`)
}

/**
 * Each key of `_vectors` is an embedder name; its value is null, an array of numbers or of arrays of numbers
 * (shorthand), or `{embeddings?: ..., regenerate: boolean}`.
 */
export function validateVectors(doc: Document, id: string): void {
  if (!('_vectors' in doc)) return
  const vectors = doc._vectors
  if (vectors === null) return
  if (typeof vectors !== 'object' || Array.isArray(vectors)) {
    throw new TesseraError('invalid_vectors_type', `The \`_vectors\` field in the document with id: \`${id}\` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got \`${JSON.stringify(vectors)}\``)
  }
  for (const [name, entry] of Object.entries(vectors as Record<string, unknown>)) {
    if (entry === null || isMatrix(entry)) continue
    if (typeof entry !== 'object' || Array.isArray(entry)) {
      throw invalid(id, `Invalid value type at \`._vectors.${name}\`: expected an array of floats, an array of arrays of floats, or an object with \`embeddings\` and \`regenerate\`, but found \`${JSON.stringify(entry)}\``)
    }
    const e = entry as Record<string, unknown>
    for (const key of Object.keys(e)) {
      if (key !== 'embeddings' && key !== 'regenerate') throw invalid(id, `Unknown field \`${key}\` inside \`._vectors.${name}\`: expected one of \`embeddings\`, \`regenerate\``)
    }
    if (typeof e.regenerate !== 'boolean') {
      throw invalid(id, e.regenerate === undefined ? `Missing field \`._vectors.${name}.regenerate\`` : `Invalid value type at \`._vectors.${name}.regenerate\`: expected a boolean, but found \`${JSON.stringify(e.regenerate)}\``)
    }
    if (e.embeddings !== undefined && e.embeddings !== null && !isMatrix(e.embeddings)) {
      throw invalid(id, `Invalid value type at \`._vectors.${name}.embeddings\`: expected null or an array of floats or an array of arrays of floats, but found \`${JSON.stringify(e.embeddings)}\``)
    }
  }
}
