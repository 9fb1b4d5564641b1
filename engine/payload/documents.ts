/**
 * Document payloads (JSON array or single object, NDJSON, CSV with `name:type` header annotations) are written to a
 * payload file as they arrive (a small one is held in memory instead: files.ts); then `validatePayloadFile` reads it
 * once, a block at a time (bounded memory; meant for a worker), checks every document with Meilisearch's errors and reports the count and the byte ranges
 * ("chunks", ~1 MB, at document boundaries) holding whole documents; processing later parses each range with
 * `parsePayloadChunk`, so neither step needs the whole payload in memory.
 *
 * Meilisearch's behaviours kept on purpose:
 * - only a 0-byte payload is `missing_payload`; a blank `json` payload is an EOF error, a blank `ndjson` or `csv`
 *   payload holds 0 documents;
 * - `json`: whatever follows a complete top-level array is not read (serde's sequence visitor stops at `]`);
 *   after a single object only whitespace may follow (`trailing characters`);
 * - `ndjson` values are separated by any whitespace (or nothing), as serde_json's stream deserializer reads them;
 * - nesting is limited as serde_json limits it (the 128th nested array/object: `recursion limit exceeded`), a number
 *   beyond f64 is `number out of range`, invalid UTF-8 in a string is `invalid unicode code point`.
 */
import type { PayloadFormat } from '../tasks/types.js'
import { parseCsvChunk, validateCsvFile, type CsvHeader } from './csv.js'
import { parseJsonChunk, parseNdjsonLines, validateJsonFile } from './json-stream.js'
import { DEFAULT_BLOCK_SIZE, inputSize, readRange } from './window.js'
import { isWs } from './json.js'

export type { CsvHeader } from './csv.js'

export type Document = Record<string, unknown>

export type PayloadValidation =
  | { ok: true; documents: number; chunks: [number, number][]; csvHeader?: unknown }
  | { ok: false; code: 'malformed_payload' | 'missing_payload' | 'invalid_document_csv_delimiter' | string; message: string }

export interface PayloadSource {
  /** The payload file (also named in messages). */
  path: string
  /** A small payload's bytes (files.ts keeps those in memory and in the database): read instead of the file. */
  bytes?: Uint8Array
  format: PayloadFormat
  /** CSV only: a single ASCII character, default `,`. */
  csvDelimiter: string
}

export interface PayloadValidationOptions {
  /** Target size of a chunk in bytes (a chunk ends at the first document boundary past it). Default 1 MiB. */
  chunkSize?: number
  /** Bytes read at a time. Default 1 MiB. */
  blockSize?: number
}

export const DEFAULT_CHUNK_SIZE = 1 << 20

export function missingPayloadMessage(format: PayloadFormat): string {
  return `A ${format} payload is missing.`
}

export async function validatePayloadFile(source: PayloadSource, options: PayloadValidationOptions = {}): Promise<PayloadValidation> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE)
  const blockSize = Math.max(1, options.blockSize ?? DEFAULT_BLOCK_SIZE)
  const input = source.bytes ?? source.path
  const size = await inputSize(input)
  if (size === 0) return { ok: false, code: 'missing_payload', message: missingPayloadMessage(source.format) }
  if (source.format === 'csv') {
    const r = await validateCsvFile(input, source.csvDelimiter || ',', chunkSize, blockSize)
    return r.ok ? r : { ok: false, code: 'malformed_payload', message: r.message }
  }
  const r = await validateJsonFile(input, source.format, chunkSize, blockSize)
  return r.ok ? r : { ok: false, code: 'malformed_payload', message: r.message }
}

export async function parsePayloadChunk(source: PayloadSource & { start: number; end: number; csvHeader?: unknown }): Promise<Document[]> {
  const bytes = await readRange(source.bytes ?? source.path, source.start, source.end)
  return parsePayloadBytes(bytes, source)
}

/**
 * `parsePayloadChunk`, plus, for NDJSON with one document per line (the usual case), each document's own text:
 * `lines[k]` is the end of document k in `bytes` (the next one starts a byte later). Null `lines` otherwise.
 */
export async function readPayloadChunk(source: PayloadSource & { start: number; end: number; csvHeader?: unknown }): Promise<{ docs: Document[]; bytes: Buffer; lines: Uint32Array | null }> {
  const bytes = await readRange(source.bytes ?? source.path, source.start, source.end)
  if (source.format === 'ndjson') {
    const docs = parseNdjsonLines(bytes) as Document[] | null
    if (docs) return { docs, bytes, lines: lineEnds(bytes, docs.length) }
  }
  return { docs: parsePayloadBytes(bytes, source), bytes, lines: null }
}

/** The ends of the first `count` lines of `bytes` (the last one ends at the last non-whitespace byte). */
function lineEnds(bytes: Buffer, count: number): Uint32Array | null {
  let end = bytes.length
  while (end > 0 && isWs(bytes[end - 1]!)) end--
  const lines = new Uint32Array(count)
  let from = 0
  for (let n = 0; n < count; n++) {
    let to = bytes.indexOf(0x0a, from)
    if (to < 0 || to > end) to = end
    lines[n] = to
    from = to + 1
  }
  return from >= end ? lines : null
}
/** `parsePayloadChunk` on bytes already in memory. */
export function parsePayloadBytes(bytes: Buffer, source: { format: PayloadFormat; csvDelimiter: string; csvHeader?: unknown }): Document[] {
  if (source.format === 'csv') {
    const header = source.csvHeader as CsvHeader | undefined
    if (!header || !Array.isArray(header.names) || !Array.isArray(header.types)) throw new Error('parsePayloadChunk: a csv chunk needs the csvHeader from validatePayloadFile')
    return parseCsvChunk(bytes, source.csvDelimiter || ',', header)
  }
  return parseJsonChunk(bytes, source.format) as Document[]
}
