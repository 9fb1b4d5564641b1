/**
 * The documents scenario's payloads: the generated documents serialized as a JSON array, NDJSON or CSV (typed
 * columns, RFC 4180 quoting), whole in memory or in pieces that can be written to a file, with a few documents kept
 * to check what the service stored.
 */
import { DEFAULT_SEED, generateDocuments, type BenchDocument } from '../../data/uniform-corpus.js'

export type PayloadFormat = 'json' | 'ndjson' | 'csv'

export const CONTENT_TYPES: Record<PayloadFormat, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
}

export const CSV_HEADER = 'id,title,description,price:number,stock:number,tags,published:boolean'

/** A CSV field, quoted per RFC 4180 when it holds the delimiter, a double quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

export function csvRow(doc: BenchDocument): string {
  return [String(doc.id), csvField(doc.title), csvField(doc.description), String(doc.price), String(doc.stock), csvField(doc.tags.join(' ')), String(doc.published)].join(',')
}

/** The document as the service should return it after ingesting it in `format` (CSV: typed columns only). */
export function expectedDocument(doc: BenchDocument, format: PayloadFormat): Record<string, unknown> {
  if (format !== 'csv') return { ...doc }
  return { ...doc, id: String(doc.id), tags: doc.tags.join(' ') }
}

/**
 * The serialization of `count` documents in `format`, as text pieces of about `docsPerPiece` documents each:
 * concatenated they form one valid payload. A JSON array is `[` + documents joined by `,` + `]`; NDJSON one
 * document per line; CSV the header line then one row per document (lines end with `\n`).
 */
export function* serialize(format: PayloadFormat, docs: Iterable<BenchDocument>, docsPerPiece = 2000): Generator<string> {
  let parts: string[] = []
  let first = true
  if (format === 'json') parts.push('[')
  if (format === 'csv') parts.push(CSV_HEADER + '\n')
  for (const doc of docs) {
    switch (format) {
      case 'json': parts.push((first ? '' : ',') + JSON.stringify(doc)); break
      case 'ndjson': parts.push(JSON.stringify(doc) + '\n'); break
      case 'csv': parts.push(csvRow(doc) + '\n'); break
    }
    first = false
    if (parts.length >= docsPerPiece) {
      yield parts.join('')
      parts = []
    }
  }
  if (format === 'json') parts.push(']')
  if (parts.length > 0) yield parts.join('')
}

/** A whole payload in memory, with a few of its documents kept to check what the service stored. */
export function buildPayload(format: PayloadFormat, count: number, sampleIds: number[], seed = DEFAULT_SEED): { body: Buffer; samples: BenchDocument[] } {
  const samples: BenchDocument[] = []
  const wanted = new Set(sampleIds)
  const docs = function* () {
    for (const doc of generateDocuments(count, seed)) {
      if (wanted.has(doc.id)) samples.push(doc)
      yield doc
    }
  }
  const pieces = [...serialize(format, docs())].map((p) => Buffer.from(p, 'utf8'))
  return { body: Buffer.concat(pieces), samples }
}

/** NDJSON payloads of `perPayload` consecutive documents each, covering `docs`, with the documents of `sampleIds`. */
export function buildNdjsonParts<D extends { id: number }>(docs: Iterable<D>, perPayload: number, sampleIds: number[]): { bodies: Buffer[]; samples: D[] } {
  const samples: D[] = []
  const wanted = new Set(sampleIds)
  const bodies: Buffer[] = []
  let lines: string[] = []
  for (const doc of docs) {
    if (wanted.has(doc.id)) samples.push(doc)
    lines.push(JSON.stringify(doc) + '\n')
    if (lines.length === perPayload) { bodies.push(Buffer.from(lines.join(''), 'utf8')); lines = [] }
  }
  if (lines.length > 0) bodies.push(Buffer.from(lines.join(''), 'utf8'))
  return { bodies, samples }
}
