/**
 * A chunk of a payload made ready to store, in a worker: each document's external id, stored encoding, top-level
 * fields and searchable words. The thread that applies the batch then only assigns internal ids and stages writes;
 * it never parses or encodes a document of a plain addition.
 */
import { TesseraError } from '../errors/index.js'
import type { Document } from '../payload/documents.js'
import { extractWords, type ExtractedChunk, type ExtractionConfig } from '../inverted/extract.js'
import { documentId, inferPrimaryKey } from './ids.js'
import { validateVectors } from './vectors.js'

export interface PreparedChunk {
  /** The primary key the ids were read with: the one given, or the one inferred from the first document. */
  primaryKey: string | null
  /** External ids, in payload order. */
  ids: string[]
  /** The documents' stored encodings (see `encodeDocument`), back to back: document k ends at `ends[k]`. */
  bytes: Uint8Array
  ends: Uint32Array
  /** Top-level field names (`_vectors` aside), and per document a run `count, nameIndex × count`. */
  fieldNames: string[]
  fields: Uint32Array
  /** The searchable words of each document as it stands in the payload. */
  words: ExtractedChunk
  /** The first document that cannot be stored (its error; the chunk holds nothing else then). */
  error?: { code: string; message: string }
}

/** Documents are stored as JSON text: it round-trips every key (msgpackr renames `__proto__`). */
export const encodeDocument = (doc: Document): Buffer => Buffer.from(JSON.stringify(doc))
export const decodeDocument = (raw: Uint8Array): Document => JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as Document

/** The top-level fields a document counts in the field distribution. */
export function topLevelFields(doc: Document): string[] {
  return Object.keys(doc).filter((k) => k !== '_vectors')
}

const EMPTY: ExtractedChunk = { fields: [], words: { text: '', ends: new Uint32Array(0) }, records: new Uint32Array(0) }

/**
 * Prepare `docs` for storage under `primaryKey` (null: inferred from the first document, as the first chunk of a
 * payload does when the index has none). A document whose id or vectors are invalid stops the chunk with its error.
 */
export function prepareDocuments(docs: readonly Document[], primaryKey: string | null, extraction: ExtractionConfig, raw?: { bytes: Buffer; lines: Uint32Array }): PreparedChunk {
  const ids: string[] = new Array(docs.length)
  const ends = new Uint32Array(docs.length)
  const fieldNames: string[] = []
  const fieldIndex = new Map<string, number>()
  const fieldRuns: number[] = []
  let bytes = Buffer.allocUnsafe(raw ? 0 : Math.max(1024, docs.length * 256))
  let length = 0
  try {
    for (let k = 0; k < docs.length; k++) {
      const doc = docs[k]!
      primaryKey ??= inferPrimaryKey(doc)
      const ext = documentId(doc, primaryKey)
      validateVectors(doc, ext)
      ids[k] = ext
      const countAt = fieldRuns.length
      fieldRuns.push(0)
      for (const key of Object.keys(doc)) {
        if (key === '_vectors') continue
        let f = fieldIndex.get(key)
        if (f === undefined) {
          f = fieldNames.length
          fieldNames.push(key)
          fieldIndex.set(key, f)
        }
        fieldRuns.push(f)
      }
      fieldRuns[countAt] = fieldRuns.length - countAt - 1
      // A document's own NDJSON line is its stored text already (with the newline before it, as whitespace).
      if (raw) continue
      const text = JSON.stringify(doc)
      // A UTF-16 unit takes at most 3 bytes in UTF-8.
      if (length + text.length * 3 > bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + text.length * 3))
        bytes.copy(grown, 0, 0, length)
        bytes = grown
      }
      length += bytes.write(text, length)
      ends[k] = length
    }
  } catch (err) {
    if (!(err instanceof TesseraError)) throw err
    return { primaryKey, ids: [], bytes: new Uint8Array(0), ends: new Uint32Array(0), fieldNames: [], fields: new Uint32Array(0), words: EMPTY, error: { code: err.code, message: err.message } }
  }
  return {
    primaryKey,
    ids,
    bytes: raw ? raw.bytes.subarray(0, raw.lines[raw.lines.length - 1] ?? 0) : bytes.subarray(0, length),
    ends: raw ? raw.lines : ends,
    fieldNames,
    fields: Uint32Array.from(fieldRuns),
    words: extractWords(docs, extraction),
  }
}
