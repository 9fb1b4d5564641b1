/** Validation of the `_vectors` field of a document (shapes in the spec: "Document vectors"). */
import { TesseraError } from '../errors/index.js'
import type { Document } from '../payload/documents.js'
import { serdeInvalidType } from '../json/serde-errors.js'

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
      throw invalid(id, e.regenerate === undefined
        ? `Missing field \`._vectors.${name}.regenerate\`\n  - note: \`._vectors.${name}\` must be an array of floats, an array of arrays of floats, or an object with field \`regenerate\``
        : `Could not parse \`._vectors.${name}.regenerate\`: ${notABoolean(e)}`)
    }
    const problem = embeddingsProblem(e.embeddings, `._vectors.${name}.embeddings`)
    if (problem !== null) throw invalid(id, problem)
  }
}

/** How Meilisearch names a JSON value's kind, with its article ("a boolean", "an array"). */
function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'number': return 'a number'
    case 'string': return 'a string'
    case 'boolean': return 'a boolean'
    default: return 'an object'
  }
}

function wrongType(path: string, expected: string, found: unknown): string {
  return `Invalid value type at \`${path}\`: expected ${expected}, but found ${kind(found)}: \`${JSON.stringify(found)}\``
}

/**
 * What is wrong with `embeddings` (null when nothing is), first problem first, depth first: one vector or an array
 * of vectors, the first element deciding which, every element of a vector a number.
 */
function embeddingsProblem(embeddings: unknown, path: string): string | null {
  if (embeddings === undefined || embeddings === null) return null
  if (!Array.isArray(embeddings)) return wrongType(path, 'null or an array', embeddings)
  if (embeddings.length === 0) return null
  const nested = Array.isArray(embeddings[0])
  if (!nested && !isNumber(embeddings[0])) return wrongType(`${path}[0]`, 'a number or an array', embeddings[0])
  for (const [i, item] of embeddings.entries()) {
    if (!nested) {
      if (!isNumber(item)) return wrongType(`${path}[${i}]`, 'a number', item)
      continue
    }
    if (!Array.isArray(item)) return wrongType(`${path}[${i}]`, 'an array', item)
    const j = item.findIndex((x) => !isNumber(x))
    if (j >= 0) return wrongType(`${path}[${i}][${j}]`, 'a number', item[j])
  }
  return null
}

const isNumber = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x)

/**
 * serde_json's complaint about a `regenerate` that is not a boolean, as Meilisearch passes it on, its column counted
 * in the entry as the client sent it (compact JSON, keys in their order).
 */
function notABoolean(entry: Record<string, unknown>): string {
  let prefix = '{'
  for (const [key, v] of Object.entries(entry)) {
    prefix += `${JSON.stringify(key)}:`
    if (key === 'regenerate') break
    prefix += `${JSON.stringify(v)},`
  }
  return serdeInvalidType(entry.regenerate, 'a boolean', prefix.length)
}
