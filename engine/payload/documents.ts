/**
 * STUB — to be replaced by the payload helper. Contract:
 *
 * Document payloads (JSON array or single object, NDJSON, CSV with `name:type` header annotations) are written to a
 * payload file as they arrive; then `validatePayloadFile` reads the file once (in a worker), checks every document
 * and reports the count and byte ranges holding whole documents; processing later parses each range with
 * `parsePayloadChunk` (in a worker), so neither step needs the whole payload in memory.
 */
import type { PayloadFormat } from '../tasks/types.js'

export type Document = Record<string, unknown>

export type PayloadValidation =
  | { ok: true; documents: number; chunks: [number, number][]; csvHeader?: unknown }
  | { ok: false; code: 'malformed_payload' | 'missing_payload' | 'invalid_document_csv_delimiter' | string; message: string }

export interface PayloadSource {
  path: string
  format: PayloadFormat
  /** CSV only: a single ASCII character, default `,`. */
  csvDelimiter: string
}

export async function validatePayloadFile(source: PayloadSource): Promise<PayloadValidation> {
  void source
  throw new Error('not implemented')
}

export async function parsePayloadChunk(source: PayloadSource & { start: number; end: number; csvHeader?: unknown }): Promise<Document[]> {
  void source
  throw new Error('not implemented')
}
