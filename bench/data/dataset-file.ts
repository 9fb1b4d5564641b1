/**
 * A corpus file given with `--dataset` (or built by `npm run corpora`): a JSON array, NDJSON (.ndjson/.jsonl), CSV
 * or TSV, optionally gzipped (.gz, recognized by its magic bytes). CSV and TSV have a header line; CSV may annotate
 * columns (`price:number`) as Meilisearch does, other columns are numbers when every non-empty value is one.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { parseDelimited, recordsToDocuments } from './delimited.js'

export type DatasetFileFormat = 'json' | 'ndjson' | 'csv' | 'tsv'

type Doc = Record<string, unknown>

function formatOf(path: string, text: string): DatasetFileFormat {
  const name = basename(path).toLowerCase().replace(/\.gz$/, '')
  if (name.endsWith('.json')) return 'json'
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson'
  if (name.endsWith('.csv')) return 'csv'
  if (name.endsWith('.tsv') || name.endsWith('.tab')) return 'tsv'
  const first = text.trimStart()[0]
  if (first === '[') return 'json'
  if (first === '{') return 'ndjson'
  return text.slice(0, text.indexOf('\n')).includes('\t') ? 'tsv' : 'csv'
}

/** Read a corpus file (gunzipped when it starts with the gzip magic bytes). */
export function loadDatasetFile(path: string): { format: DatasetFileFormat; gzip: boolean; documents: Doc[] } {
  let bytes: Buffer = readFileSync(path)
  const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
  if (gzip) bytes = gunzipSync(bytes)
  let text = bytes.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const format = formatOf(path, text)
  let documents: Doc[]
  switch (format) {
    case 'json': {
      const value = JSON.parse(text) as unknown
      documents = (Array.isArray(value) ? value : [value]) as Doc[]
      break
    }
    case 'ndjson':
      documents = text.split('\n').filter((l) => l.trim().length > 0).map((l) => JSON.parse(l) as Doc)
      break
    case 'csv': documents = recordsToDocuments(parseDelimited(text, ',', true)); break
    case 'tsv': documents = recordsToDocuments(parseDelimited(text, '\t', false)); break
  }
  const bad = documents.findIndex((d) => d === null || typeof d !== 'object' || Array.isArray(d))
  if (bad >= 0) throw new Error(`${path}: document ${bad} is not an object`)
  return { format, gzip, documents }
}
