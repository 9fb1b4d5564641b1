/** The documents scenario's runs and options (`--docs`, `--large`, `--large-docs`, `--quick`). */
import { STALL_DETECTION, type TaskWaitOptions } from '../../harness/task-wait.js'

export type DocumentsRunKind = 'json' | 'ndjson' | 'csv' | 'ndjson-10x' | 'ndjson-short' | 'ndjson-large'

export interface DocumentsOptions extends TaskWaitOptions {
  /** Documents in the corpus of the json/ndjson/csv/ndjson-10x runs. */
  documents: number
  /** Payloads of the ndjson-10x run. */
  concurrentPayloads: number
  /** Short documents of the ndjson-short run, and the NDJSON payloads they are cut into (sent one after another). */
  shortDocuments: number
  shortPayloads: number
  /** Whether SQLite FTS5 indexes the ndjson-short run's documents too, for comparison (better-sqlite3, installed by `npm run peers`). */
  compareFts5: boolean
  /** Documents of the ndjson-large run (only run when `large`). */
  large: boolean
  largeDocuments: number
  sampleMs: number
}

export const DEFAULT_DOCUMENTS_OPTIONS: DocumentsOptions = {
  documents: 100_000,
  concurrentPayloads: 10,
  large: false,
  largeDocuments: 500_000,
  pollMs: 20,
  sampleMs: 50,
  taskTimeoutMs: 180_000,
  ...STALL_DETECTION,
  shortDocuments: 100_000,
  shortPayloads: 10,
  compareFts5: true,
}

/** `--quick`: 10,000 documents in each run (the ndjson-short run still in ten payloads), unless `--docs` says. */
export function quickDocumentsOptions(o: DocumentsOptions, docsGiven: boolean): DocumentsOptions {
  return { ...o, documents: docsGiven ? o.documents : 10_000, shortDocuments: 10_000 }
}

export const DOCUMENTS_RUN_TITLES: Record<DocumentsRunKind, string> = {
  json: 'JSON array, 1 payload',
  ndjson: 'NDJSON, 1 payload',
  csv: 'CSV, 1 payload',
  'ndjson-10x': 'NDJSON, concurrent payloads',
  'ndjson-short': 'NDJSON, short documents, 10 payloads back to back',
  'ndjson-large': 'NDJSON, large (streamed from a file)',
}

export function documentsRunKinds(options: DocumentsOptions): DocumentsRunKind[] {
  return ['json', 'ndjson', 'csv', 'ndjson-10x', 'ndjson-short', ...(options.large ? (['ndjson-large'] as const) : [])]
}
