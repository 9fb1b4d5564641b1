/**
 * The search scenario's corpus: the uniform generated one (`title`, `description`, `tags` searchable) or a file
 * (`--dataset FILE`, `--corpus NAME`; data/dataset-file.ts reads it). Documents without an `id` get `id` = their
 * row number (0-based). The searchable attributes are `--searchable` (or the corpus's own) or, by default, the
 * string fields whose values mostly contain letters (for the npm package list: `name`, `summary`, not `version`).
 */
import { basename } from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadDatasetFile } from '../../data/dataset-file.js'
import { generateDocuments } from '../../data/uniform-corpus.js'
import type { SearchOptions } from './options.js'
import { WORD, textOf } from './queries.js'
import type { DatasetFormat, DatasetInfo } from './types.js'

type Doc = Record<string, unknown>

/** String fields (of the first 2,000 documents) whose non-empty values mostly contain a letter; arrays of strings count. */
function inferSearchable(docs: Doc[], primaryKey: string): string[] {
  const stats = new Map<string, { strings: number; lettered: number; other: number }>()
  const letter = /\p{L}/u
  for (const doc of docs.slice(0, 2000)) {
    for (const [key, value] of Object.entries(doc)) {
      if (key === primaryKey || value === null || value === '') continue
      const s = stats.get(key) ?? { strings: 0, lettered: 0, other: 0 }
      stats.set(key, s)
      const text = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(' ') : null
      if (text === null) { s.other++; continue }
      s.strings++
      if (letter.test(text)) s.lettered++
    }
  }
  return [...stats].filter(([, s]) => s.strings > s.other && s.lettered >= 0.5 * s.strings).map(([k]) => k)
}

export function loadDataset(options: SearchOptions): { info: DatasetInfo; documents: Doc[] } {
  const t0 = performance.now()
  let documents: Doc[]
  let format: DatasetFormat = 'generated'
  let gzip = false
  let idsAdded = false
  if (options.dataset === null) {
    documents = [...generateDocuments(options.generatedDocuments)] as unknown as Doc[]
  } else {
    const loaded = loadDatasetFile(options.dataset)
    ;({ format, gzip, documents } = loaded)
    if (documents.length === 0) throw new Error(`${options.dataset}: no documents`)
    if (!('id' in documents[0]!)) {
      // The row number, first in each document.
      documents = documents.map((d, i) => ({ id: i, ...d }))
      idsAdded = true
    }
  }
  const primaryKey = 'id'
  const searchableAttributes = options.searchable ?? (options.dataset === null ? ['title', 'description', 'tags'] : inferSearchable(documents, primaryKey))
  if (searchableAttributes.length === 0) throw new Error('no searchable attribute: pass --searchable')
  const info: DatasetInfo = {
    source: options.dataset === null ? 'generated' : 'file',
    path: options.dataset,
    name: options.dataset === null ? `generated (${documents.length.toLocaleString('en-US')} docs)` : basename(options.dataset),
    format, gzip, documents: documents.length, fields: Object.keys(documents[0] ?? {}), primaryKey, idsAdded,
    searchableAttributes, loadSeconds: (performance.now() - t0) / 1000, meanSearchableWords: meanWords(documents, searchableAttributes),
  }
  return { info, documents }
}

/** Mean words per document in `fields`, over up to 5,000 documents spread over the corpus. */
function meanWords(docs: Doc[], fields: string[]): number {
  const step = Math.max(1, Math.floor(docs.length / 5000))
  let words = 0
  let counted = 0
  for (let i = 0; i < docs.length; i += step) {
    for (const f of fields) words += textOf(docs[i]![f]).match(WORD)?.length ?? 0
    counted++
  }
  return counted === 0 ? 0 : words / counted
}
