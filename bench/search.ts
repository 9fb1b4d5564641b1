/**
 * The search benchmark (issue 4): indexing throughput, index size and server memory for a searchable corpus, then
 * keyword-search latency (server-side `processingTimeMs`, client round trip, in-process `Engine.search`) and
 * throughput (QPS with concurrent clients) for a fixed, seeded mix of queries drawn from the corpus.
 *
 * Datasets:
 * - the generated corpus of the documents benchmark (corpus.ts: `title`, `description`, `tags` searchable);
 * - `--dataset FILE`, a real corpus: a JSON array, NDJSON (.ndjson/.jsonl), CSV or TSV, optionally gzipped (.gz).
 *   CSV and TSV have a header line; CSV may annotate columns (`price:number`) as Meilisearch does, other columns
 *   are numbers when every non-empty value is one. Documents without an `id` get `id` = their row number (0-based).
 *   The searchable attributes are `--searchable` or, by default, the string fields whose values mostly contain
 *   letters (for the npm package list: `name`, `summary`, not `version`).
 *
 * Steps, against one fresh server (uws adapter) and data directory:
 * 1. create the index (primary key `id`) and set its searchableAttributes; wait for both tasks;
 * 2. POST the documents as NDJSON (one payload, or a few sent concurrently for very large corpora), measure docs/s
 *    from the first byte sent until polling sees every task `succeeded`, the data directory's size on disk, and the
 *    server's RSS (sampled; VmHWM at the end of the run);
 * 3. every query once (warm-up), then `rounds` × every query with one client: `processingTimeMs` from the replies
 *    and the client-side round trip;
 * 4. QPS with 1, 4, 16 and 64 concurrent clients (`qpsClients`; 16 is the headline `connections`), `qpsSeconds`
 *    each, bodies cycling through the mix (load.ts);
 * 5. stop the server; open the data directory in process with `Engine.open` and time `Engine.search` per query;
 * 6. the peers (peers.ts) on the same documents and queries, each in its own process.
 */
import { readdirSync, lstatSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gunzipSync } from 'node:zlib'
import { generateDocuments, mulberry32 } from './corpus.js'
import {
  DEFAULT_DOCUMENTS_OPTIONS, DOCUMENTS_SERVER_ARGS, RssSampler, getJson, postPayload, readStatus, taskTimings, waitForTasks,
  type DocumentsOptions, type MemoryUsage,
} from './documents.js'
import { runLoad, summarize, type LatencySummary, type LoadResult, type Reply } from './load.js'
import { elapsed, otherCpuPercent, processCpuMs, remoteServer, startServer, systemBusyMs, type BenchServer } from './server.js'
import { PEERS, runPeers, type PeerName, type PeerRun } from './peers.js'
import { progress } from './progress.js'

export type DatasetFormat = 'generated' | 'json' | 'ndjson' | 'csv' | 'tsv'
export type QueryKind = 'plain' | 'typo' | 'prefix'

export interface SearchOptions {
  /** A corpus file; null: the generated corpus. */
  dataset: string | null
  /** Documents of the generated corpus. */
  generatedDocuments: number
  /** Searchable attributes; null: chosen from the corpus (see the module comment). */
  searchable: string[] | null
  /** Largest number of documents per NDJSON payload (payloads are sent concurrently). */
  payloadDocuments: number
  queries: number
  querySeed: number
  /** Measured rounds over the whole mix, after one warm-up round. */
  rounds: number
  /** Concurrent clients of the headline QPS window (issue 6's target is at 16). */
  connections: number
  /** Every client count measured (QPS and latency under load), the headline one included. */
  qpsClients: number[]
  qpsSeconds: number
  qpsWarmupSeconds: number
  /** Rounds over the whole mix for the in-process measurement (after one warm-up round). */
  inProcessRounds: number
  pollMs: number
  sampleMs: number
  taskTimeoutMs: number
  /** Directory for the server's CPU profile (`--cpu-prof`); null: no profile. */
  serverCpuProfDir: string | null
  /** Peers measured on the same documents and queries (peers.ts); empty: none. */
  peers: PeerName[]
  /** An already running server to measure over HTTP (`--url`); null: a fresh server of this build. */
  url: string | null
  /** Its API key (`--api-key`), sent as `Authorization: Bearer …`. */
  apiKey: string | null
  quick: boolean
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = {
  dataset: null,
  generatedDocuments: 100_000,
  searchable: null,
  payloadDocuments: 250_000,
  queries: 500,
  querySeed: 0x5ea4c4,
  rounds: 5,
  connections: 16,
  qpsClients: [1, 4, 16, 64],
  qpsSeconds: 15,
  qpsWarmupSeconds: 1,
  inProcessRounds: 5,
  pollMs: 20,
  sampleMs: 50,
  taskTimeoutMs: 600_000,
  serverCpuProfDir: null,
  peers: [...PEERS],
  url: null,
  apiKey: null,
  quick: false,
}

/** `--quick`: a 20,000-document generated corpus (unless `--dataset`), 2 s QPS windows, fewer rounds. */
export function quickSearchOptions(options: SearchOptions): SearchOptions {
  return { ...options, generatedDocuments: 20_000, qpsSeconds: 2, qpsWarmupSeconds: 0.5, rounds: 2, inProcessRounds: 2, quick: true }
}

export interface BenchQuery {
  q: string
  kind: QueryKind
  words: number
  /** The words before the typo / truncation (plain queries: the same as q). */
  source: string
}

export interface QueryExample extends BenchQuery {
  /** `estimatedTotalHits` (or `totalHits`) of the warm-up reply; null when not measured. */
  hits: number | null
}

export interface DatasetInfo {
  source: 'generated' | 'file'
  /** The file as given; null for the generated corpus. */
  path: string | null
  name: string
  format: DatasetFormat
  gzip: boolean
  documents: number
  /** Fields of the first document. */
  fields: string[]
  primaryKey: string
  /** Whether `id` was added as the row number. */
  idsAdded: boolean
  searchableAttributes: string[]
  /** Reading and parsing the file (or generating the corpus), seconds. */
  loadSeconds: number
}

export interface SearchIndexing {
  ok: boolean
  error?: string
  payloads: number
  /** NDJSON bytes sent. */
  bytes: number
  /** First byte sent → last 202, seconds. */
  acceptSeconds: number | null
  /** First byte sent → every task `succeeded` (polled every `pollMs`), seconds. */
  seconds: number | null
  docsPerSecond: number | null
  /** The tasks' own processing time: earliest `startedAt` → latest `finishedAt`, seconds. */
  taskSpanSeconds: number | null
  taskUids: number[]
  batchUids: number[]
  numberOfDocuments: number | null
  /** Bytes allocated on disk (st_blocks × 512) by the data directory right after indexing, the server running. */
  diskBytes: number | null
  /** Apparent size (sum of file sizes) at that moment. */
  diskApparentBytes: number | null
  /** Apparent size without the payload staging directory (`payloads/`): the index, right after indexing. */
  indexBytes: number | null
  /** The same after the server's graceful shutdown. */
  indexBytesAfterShutdown: number | null
  /** Queue wait: earliest `enqueuedAt` → earliest `startedAt`, seconds. */
  taskWaitSeconds: number | null
  /** Latest `finishedAt` → the poll that saw every task `succeeded` (mostly the batch's final commit), seconds. */
  commitLagSeconds: number | null
  /** Apparent bytes by file kind (`.sst`, `.log`, `MANIFEST`, ...) right after indexing. */
  diskByKind: Record<string, number>
  /** Allocated bytes after the server's graceful shutdown (memtables flushed). */
  diskBytesAfterShutdown: number | null
  diskApparentBytesAfterShutdown: number | null
  memory: MemoryUsage
  serverCpuPercent: number | null
  otherCpuPercent: number | null
}

export interface SearchLatency {
  ok: boolean
  error?: string
  rounds: number
  /** Successful searches measured (rounds × queries unless some failed). */
  samples: number
  /** `processingTimeMs` of the replies (integer ms, as the service reports it). */
  serverMs: LatencySummary
  /** Client round trip, one keep-alive connection, write → last byte of the reply. */
  clientMs: LatencySummary
  /** Failures by kind over warm-up and rounds. */
  errorKinds: Record<string, number>
  /** Queries whose warm-up reply had no hit, by kind (typo and prefix queries should still find their source). */
  zeroHits: Record<QueryKind, number>
  queriesByKind: Record<QueryKind, number>
  /** Mean `estimatedTotalHits` over the mix. */
  meanHits: number | null
  /** Mean `hits.length` (at most the default limit, 20). */
  meanReturned: number | null
  /** Mean size of a reply body, bytes. */
  meanReplyBytes: number | null
  /** `processingTimeMs` by kind of query, and by number of words. */
  serverMsByKind: Record<QueryKind, LatencySummary>
  serverMsByWords: Record<string, LatencySummary>
  /** The 10 queries with the highest median `processingTimeMs` over the rounds. */
  slowest: { q: string; kind: QueryKind; hits: number | null; medianMs: number; maxMs: number }[]
  serverCpuPercent: number | null
}

export interface SearchInProcess {
  ok: boolean
  /** Why it was skipped or failed. */
  note?: string
  rounds: number
  samples: number
  /** performance.now() around `await search(uid, query)`. */
  ms: LatencySummary | null
  /** `processingTimeMs` of the results, if they carry it. */
  processingMs: LatencySummary | null
  /** Engine.open on the closed data directory, seconds. */
  openSeconds: number | null
}

export interface SearchMemory {
  /** VmHWM of the server at the end of the HTTP part (start-up, indexing and search load), MiB. */
  hwmMiB: number | null
  /** Highest VmRSS sampled during the upload and indexing, MiB. */
  indexingPeakMiB: number | null
  /** Highest VmRSS sampled during the latency rounds and the QPS window, MiB. */
  searchPeakMiB: number | null
  idleMiB: number | null
  /** VmRSS right after the QPS window, MiB. */
  afterSearchMiB: number | null
}

export interface SearchResult {
  options: SearchOptions
  serverArgs: string[]
  dataset: DatasetInfo
  indexUid: string
  indexing: SearchIndexing
  queries: {
    count: number
    seed: number
    byKind: Record<QueryKind, number>
    byWords: Record<string, number>
    /** The first 20 queries, with their warm-up hit counts. */
    examples: QueryExample[]
    /** Every query of the mix, in order. */
    all: string[]
  }
  latency: SearchLatency | null
  /** The QPS window at `options.connections` clients (also in `qpsSweep`). */
  qps: LoadResult | null
  /** One QPS window per client count of `options.qpsClients`, in increasing order. */
  qpsSweep: LoadResult[]
  inProcess: SearchInProcess
  memory: SearchMemory
  peers: PeerRun[]
  /** Where the server's CPU profile was written (with --server-cpu-prof). */
  serverCpuProfile?: string
  serverLogTail?: string
  notes: string[]
  totalSeconds: number
}

type Doc = Record<string, unknown>

// ---- datasets ------------------------------------------------------------------------------------------------------

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** Records of a delimited text: RFC 4180 quoting when `quoted` (CSV), none (TSV: fields never hold tabs or newlines). */
function parseDelimited(text: string, delimiter: string, quoted: boolean): string[][] {
  const rows: string[][] = []
  if (!quoted) {
    for (const line of text.split('\n')) {
      const l = line.endsWith('\r') ? line.slice(0, -1) : line
      if (l.length > 0) rows.push(l.split(delimiter))
    }
    return rows
  }
  let row: string[] = []
  let field = ''
  let i = 0
  let inQuotes = false
  let any = false
  while (i < text.length) {
    const c = text[i]!
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue }
        inQuotes = false; i++; continue
      }
      field += c; i++; continue
    }
    if (c === '"') { inQuotes = true; any = true; i++; continue }
    if (c === delimiter) { row.push(field); field = ''; any = true; i++; continue }
    if (c === '\r' || c === '\n') {
      if (any || field.length > 0) { row.push(field); rows.push(row) }
      row = []; field = ''; any = false
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
      continue
    }
    field += c; any = true; i++
  }
  if (any || field.length > 0) { row.push(field); rows.push(row) }
  return rows
}

/** Documents of a CSV/TSV: header cells may be typed (`name:number`); other columns are numbers when all values are. */
function recordsToDocuments(rows: string[][]): Doc[] {
  const header = rows[0]
  if (!header) return []
  const columns = header.map((cell) => {
    const m = /^(.*):(string|number|boolean)$/.exec(cell)
    return m ? { name: m[1]!, type: m[2]! as 'string' | 'number' | 'boolean', typed: true } : { name: cell, type: 'string' as 'string' | 'number' | 'boolean', typed: false }
  })
  for (const [c, col] of columns.entries()) {
    if (col.typed) continue
    let numbers = 0
    let numeric = true
    for (let r = 1; r < rows.length && numeric; r++) {
      const v = rows[r]![c] ?? ''
      if (v === '') continue
      if (NUMBER.test(v)) numbers++
      else numeric = false
    }
    if (numeric && numbers > 0) col.type = 'number'
  }
  const docs: Doc[] = []
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!
    const doc: Doc = {}
    columns.forEach((col, c) => {
      const v = row[c] ?? ''
      if (v === '') doc[col.name] = null
      else if (col.type === 'number') doc[col.name] = Number(v)
      else if (col.type === 'boolean') doc[col.name] = v === 'true'
      else doc[col.name] = v
    })
    docs.push(doc)
  }
  return docs
}

function formatOf(path: string, text: string): Exclude<DatasetFormat, 'generated'> {
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
export function loadDatasetFile(path: string): { format: Exclude<DatasetFormat, 'generated'>; gzip: boolean; documents: Doc[] } {
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
    searchableAttributes, loadSeconds: (performance.now() - t0) / 1000,
  }
  return { info, documents }
}

// ---- the query mix -------------------------------------------------------------------------------------------------

const WORD = /[\p{L}\p{N}]+/gu

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ')
  return ''
}

/** One edit on a word of ≥ 5 letters, never on its first letter: a substitution or an adjacent transposition. */
function typo(word: string, rand: () => number): string {
  const chars = [...word]
  if (rand() < 0.5) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const i = 1 + Math.floor(rand() * (chars.length - 2))
      if (chars[i] === chars[i + 1]) continue
      ;[chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!]
      return chars.join('')
    }
  }
  const i = 1 + Math.floor(rand() * (chars.length - 1))
  const alphabet = 'abcdefghijklmnopqrstuvwxyz'
  let c = chars[i]!
  while (c === chars[i]) c = alphabet[Math.floor(rand() * alphabet.length)]!
  chars[i] = c
  return chars.join('')
}

/**
 * A deterministic mix of `count` queries: 1–3 consecutive words (30 / 40 / 30 %) of a random document's searchable
 * text, lowercased; of every 5 queries, 3 as is, 1 with one typo in a word of ≥ 5 letters, 1 with the last word cut to
 * a 3–5-letter prefix (a query that cannot take its modification is drawn again from another document).
 */
export function buildQueryMix(docs: Doc[], searchable: string[], count: number, seed: number): BenchQuery[] {
  const rand = mulberry32(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  const queries: BenchQuery[] = []
  let attempts = 0
  const r = rand()
  let words = r < 0.3 ? 1 : r < 0.7 ? 2 : 3
  while (queries.length < count && attempts < count * 200) {
    attempts++
    const slot = queries.length % 5
    const kind: QueryKind = slot === 1 ? 'typo' : slot === 3 ? 'prefix' : 'plain'
    const doc = pick(docs)
    const tokens = (textOf(doc[pick(searchable)]).toLowerCase().match(WORD) ?? []).filter((t) => t.length >= 2)
    if (tokens.length < words) continue
    const start = Math.floor(rand() * (tokens.length - words + 1))
    const chosen = tokens.slice(start, start + words)
    const source = chosen.join(' ')
    if (kind === 'typo') {
      const candidates = chosen.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{5,}$/u.test(w))
      if (candidates.length === 0) continue
      const [w, i] = pick(candidates)
      chosen[i] = typo(w, rand)
    } else if (kind === 'prefix') {
      const last = [...chosen[chosen.length - 1]!]
      const length = 3 + Math.floor(rand() * 3)
      if (last.length <= length) continue
      chosen[chosen.length - 1] = last.slice(0, length).join('')
    }
    const q = chosen.join(' ')
    queries.push({ q, kind, words, source })
    const next = rand()
    words = next < 0.3 ? 1 : next < 0.7 ? 2 : 3
  }
  if (queries.length < count) throw new Error(`could only draw ${queries.length} of ${count} queries from the corpus`)
  return queries
}

// ---- measurement helpers -------------------------------------------------------------------------------------------

/** A file's kind for the disk breakdown: `<dir>/*.sst`, `<dir>/*.log` (RocksDB's write-ahead log), `<dir>/MANIFEST*`, .... */
function fileKind(dir: string, name: string): string {
  const ext = /\.([a-z]+)$/i.exec(name)
  const base = /^[A-Z]+/.exec(name)
  return `${dir || '.'}/${ext ? `*.${ext[1]!.toLowerCase()}` : base ? `${base[0]}*` : '*'}`
}

/** The service's upload staging directory: payloads waiting for (or kept after) their task, not the index. */
const PAYLOADS_DIR = 'payloads'

/**
 * Bytes allocated (st_blocks × 512) and apparent size of everything under `dir`; apparent bytes by file kind; and
 * `index`, the apparent size without the payload staging directory.
 */
export function diskUsage(dir: string): { allocated: number; apparent: number; index: number; byKind: Record<string, number> } {
  let allocated = 0
  let apparent = 0
  let index = 0
  const byKind: Record<string, number> = {}
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name
      const st = lstatSync(join(dir, r))
      if (st.isDirectory()) walk(r)
      else {
        allocated += st.blocks * 512
        apparent += st.size
        if (r.split('/')[0] !== PAYLOADS_DIR) index += st.size
        const kind = fileKind(rel, name)
        byKind[kind] = (byKind[kind] ?? 0) + st.size
      }
    }
  }
  try { walk('') } catch { /* vanished files: partial */ }
  return { allocated, apparent, index, byKind }
}

const mib = (kib: number | null) => (kib === null ? null : kib / 1024)

/** Send a request that registers a task, and wait for the task to succeed (thrown otherwise). */
export async function expectTask(server: BenchServer, method: string, path: string, body: unknown, options: DocumentsOptions): Promise<void> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { ...server.headers, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) })
  const text = await res.text()
  if (res.status !== 202) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`)
  const { taskUid } = JSON.parse(text) as { taskUid: number }
  const { tasks } = await waitForTasks(server, [taskUid], options)
  const t = tasks[0]!
  if (t.status !== 'succeeded') throw new Error(`${method} ${path}: task ${t.uid} ${t.status}${t.error ? ` (${t.error.code}: ${t.error.message})` : ''}`)
}

/** What indexing a corpus over HTTP needs of a scenario's options. */
export type IndexingOptions = Pick<SearchOptions, 'payloadDocuments' | 'pollMs' | 'sampleMs' | 'taskTimeoutMs'>

export function documentsOptions(options: IndexingOptions): DocumentsOptions {
  return { ...DEFAULT_DOCUMENTS_OPTIONS, pollMs: options.pollMs, sampleMs: options.sampleMs, taskTimeoutMs: options.taskTimeoutMs }
}

/** An indexing result with nothing measured yet (and why, when given). */
export function notIndexed(sampleMs: number, error?: string): SearchIndexing {
  return {
    ok: false, ...(error ? { error } : {}), payloads: 0, bytes: 0, acceptSeconds: null, seconds: null, docsPerSecond: null, taskSpanSeconds: null,
    taskUids: [], batchUids: [], numberOfDocuments: null, diskBytes: null, diskApparentBytes: null, indexBytes: null, indexBytesAfterShutdown: null,
    taskWaitSeconds: null, commitLagSeconds: null, diskByKind: {}, diskBytesAfterShutdown: null, diskApparentBytesAfterShutdown: null,
    memory: { idleMiB: null, peakUploadMiB: null, peakIndexingMiB: null, hwmMiB: null, samples: 0, sampleMs, timeline: [] },
    serverCpuPercent: null, otherCpuPercent: null,
  }
}

/** POST the documents as NDJSON payloads and wait for their tasks: throughput, disk, memory and CPU. */
export async function indexDocuments(server: BenchServer, uid: string, docs: Doc[], options: IndexingOptions): Promise<SearchIndexing> {
  const dopts = documentsOptions(options)
  const per = Math.max(1, options.payloadDocuments)
  const bodies: Buffer[] = []
  for (let i = 0; i < docs.length; i += per) {
    bodies.push(Buffer.from(docs.slice(i, i + per).map((d) => JSON.stringify(d)).join('\n') + '\n', 'utf8'))
  }
  const result: SearchIndexing = { ...notIndexed(options.sampleMs), payloads: bodies.length, bytes: bodies.reduce((n, b) => n + b.length, 0) }
  const sampler = new RssSampler(server.pid, options.sampleMs)
  const cpu0 = processCpuMs(server.pid)
  const busy0 = systemBusyMs()
  const client0 = process.cpuUsage()
  const t0 = performance.now()
  sampler.start()
  try {
    const replies = await Promise.all(bodies.map((b) => postPayload(server, `/indexes/${uid}/documents`, 'application/x-ndjson', b, b.length, options.taskTimeoutMs)))
    sampler.indexing()
    const bad = replies.filter((r) => r.status !== 202)
    if (bad.length > 0) throw new Error(`POST /indexes/${uid}/documents answered ${bad.map((r) => `${r.status} ${r.text.slice(0, 300)}`).join('; ')}`)
    result.acceptSeconds = (Math.max(...replies.map((r) => r.at)) - t0) / 1000
    result.taskUids = replies.map((r) => (JSON.parse(r.text) as { taskUid: number }).taskUid)
    const { tasks, at, wallAt } = await waitForTasks(server, result.taskUids, dopts)
    Object.assign(result, taskTimings(tasks, wallAt))
    result.seconds = (at - t0) / 1000
    result.docsPerSecond = docs.length / result.seconds
    result.ok = true
  } catch (err) {
    result.error = (err as Error).message
  } finally {
    result.memory = sampler.stop()
    const t1 = performance.now()
    const cpu1 = processCpuMs(server.pid)
    const busy1 = systemBusyMs()
    const c = process.cpuUsage(client0)
    if (cpu0 !== null && cpu1 !== null) result.serverCpuPercent = (100 * (cpu1 - cpu0)) / (t1 - t0)
    result.otherCpuPercent = otherCpuPercent(elapsed(busy0, busy1), elapsed(cpu0, cpu1), (c.user + c.system) / 1000, t1 - t0)
  }
  if (!server.remote) {
    const disk = diskUsage(server.dbPath)
    result.diskBytes = disk.allocated
    result.diskApparentBytes = disk.apparent
    result.diskByKind = disk.byKind
    result.indexBytes = disk.index
  }
  if (result.ok) {
    const stats = await getJson(server, `/indexes/${uid}/stats`)
    const n = (stats.body as { numberOfDocuments?: unknown } | null)?.numberOfDocuments
    result.numberOfDocuments = typeof n === 'number' ? n : null
  }
  return result
}

interface ParsedReply { processingTimeMs: number | null; hits: number | null; returned: number | null; query: string | null }

function parseReply(body: string): ParsedReply {
  try {
    const v = JSON.parse(body) as { processingTimeMs?: unknown; estimatedTotalHits?: unknown; totalHits?: unknown; hits?: unknown; query?: unknown }
    const hits = typeof v.estimatedTotalHits === 'number' ? v.estimatedTotalHits : typeof v.totalHits === 'number' ? v.totalHits : null
    return {
      processingTimeMs: typeof v.processingTimeMs === 'number' ? v.processingTimeMs : null,
      hits,
      returned: Array.isArray(v.hits) ? v.hits.length : null,
      query: typeof v.query === 'string' ? v.query : null,
    }
  } catch {
    return { processingTimeMs: null, hits: null, returned: null, query: null }
  }
}

const KINDS: QueryKind[] = ['plain', 'typo', 'prefix']
const byKind = <T>(f: (k: QueryKind) => T): Record<QueryKind, T> => ({ plain: f('plain'), typo: f('typo'), prefix: f('prefix') })

/** Warm-up (every query once) then `rounds` × every query, one keep-alive connection, in order. */
async function measureLatency(server: BenchServer, uid: string, mix: BenchQuery[], bodies: string[], options: SearchOptions, hitsByQuery: Map<string, number>, tick: () => void = () => {}): Promise<SearchLatency> {
  const path = `/indexes/${uid}/search`
  const errorKinds: Record<string, number> = {}
  const returned: number[] = []
  const replyBytes: number[] = []
  const warm = await runLoad({
    host: server.host, port: server.port, headers: server.headers, connections: 1, warmupMs: 0, durationMs: 3_600_000, maxRequests: mix.length, client: 'raw',
    request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (reply: Reply) => {
      tick()
      if (reply.status !== 200) return false
      const p = parseReply(reply.body)
      if (p.query !== null && p.hits !== null) hitsByQuery.set(p.query, p.hits)
      if (p.returned !== null) returned.push(p.returned)
      replyBytes.push(Buffer.byteLength(reply.body))
      return true
    },
  })
  for (const [k, v] of Object.entries(warm.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + v
  const server0 = processCpuMs(server.pid)
  const t0 = performance.now()
  const processing: number[] = []
  const perQuery = new Map<string, number[]>()
  const rounds = await runLoad({
    host: server.host, port: server.port, headers: server.headers, connections: 1, warmupMs: 0, durationMs: 3_600_000, maxRequests: mix.length * options.rounds, client: 'raw',
    request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (reply: Reply) => {
      tick()
      if (reply.status !== 200) return false
      const p = parseReply(reply.body)
      if (p.processingTimeMs !== null) {
        processing.push(p.processingTimeMs)
        if (p.query !== null) {
          const list = perQuery.get(p.query) ?? []
          list.push(p.processingTimeMs)
          perQuery.set(p.query, list)
        }
      }
      return true
    },
  })
  const server1 = processCpuMs(server.pid)
  for (const [k, v] of Object.entries(rounds.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + v
  // A query drawn twice into the mix is counted once per draw: its times divided among its draws.
  const draws = new Map<string, number>()
  for (const q of mix) draws.set(q.q, (draws.get(q.q) ?? 0) + 1)
  const perQueryOnce = (q: string) => {
    const times = perQuery.get(q) ?? []
    const n = draws.get(q) ?? 1
    return times.filter((_, i) => i % n === 0)
  }
  const hitCounts = mix.map((q) => hitsByQuery.get(q.q)).filter((h): h is number => h !== undefined)
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length)
  const failures = Object.values(errorKinds).reduce((a, b) => a + b, 0)
  return {
    ok: rounds.ok > 0 && failures === 0,
    ...(failures > 0 ? { error: `failed searches: ${Object.entries(errorKinds).map(([k, v]) => `${k} × ${v}`).join(', ')}` } : {}),
    rounds: options.rounds,
    samples: rounds.ok,
    serverMs: summarize(processing),
    clientMs: rounds.latencyMs,
    errorKinds,
    zeroHits: byKind((k) => mix.filter((q) => q.kind === k && hitsByQuery.get(q.q) === 0).length),
    queriesByKind: byKind((k) => mix.filter((q) => q.kind === k).length),
    meanHits: mean(hitCounts),
    meanReturned: mean(returned),
    meanReplyBytes: mean(replyBytes),
    serverMsByKind: byKind((k) => summarize(mix.filter((q) => q.kind === k).flatMap((q) => perQueryOnce(q.q)))),
    serverMsByWords: Object.fromEntries([1, 2, 3].map((w) => [String(w), summarize(mix.filter((q) => q.words === w).flatMap((q) => perQueryOnce(q.q)))])),
    slowest: mix.flatMap((q) => {
      const times = perQuery.get(q.q)
      if (!times || times.length === 0) return []
      const sorted = [...times].sort((a, b) => a - b)
      return [{ q: q.q, kind: q.kind, hits: hitsByQuery.get(q.q) ?? null, medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!, maxMs: sorted[sorted.length - 1]! }]
    }).filter((e, i, all) => all.findIndex((o) => o.q === e.q) === i).sort((a, b) => b.medianMs - a.medianMs).slice(0, 10),
    serverCpuPercent: server0 !== null && server1 !== null ? (100 * (server1 - server0)) / (performance.now() - t0) : null,
  }
}

/**
 * The engine opened in this process on a stopped server's data directory, with the request parser, for timing
 * the `search` operation without HTTP. Loaded here, so that the rest of the bench does not depend on the engine's modules.
 */
export async function openInProcess(dbPath: string): Promise<{
  search: (uid: string, query: import('../engine/search/request.js').SearchQuery) => Promise<Record<string, unknown>>
  parseSearchBody: typeof import('../src/api/search.js').parseSearchBody
  openSeconds: number
  close(): Promise<void>
}> {
  const { Engine, search } = await import('../engine/index.js')
  const { parseSearchBody } = await import('../src/api/search.js')
  const { createWorkerPool } = await import('../workers/pool.js')
  const pool = createWorkerPool(2)
  const t0 = performance.now()
  try {
    const engine = await Engine.open({ path: dbPath, pool })
    return { search: (uid, query) => search(engine, uid, query), parseSearchBody, openSeconds: (performance.now() - t0) / 1000, close: async () => { await engine.close(); await pool.close() } }
  } catch (err) {
    await pool.close()
    throw err
  }
}

async function measureInProcess(dbPath: string, uid: string, mix: BenchQuery[], options: SearchOptions): Promise<SearchInProcess> {
  const result: SearchInProcess = { ok: false, rounds: options.inProcessRounds, samples: 0, ms: null, processingMs: null, openSeconds: null }
  let opened: Awaited<ReturnType<typeof openInProcess>> | null = null
  try {
    opened = await openInProcess(dbPath)
    const { search, parseSearchBody } = opened
    result.openSeconds = opened.openSeconds
    const queries = mix.map((q) => parseSearchBody({ q: q.q }))
    for (const query of queries) await search(uid, query)
    const times: number[] = []
    const processing: number[] = []
    for (let round = 0; round < options.inProcessRounds; round++) {
      for (const query of queries) {
        const t = performance.now()
        const res = await search(uid, query)
        times.push(performance.now() - t)
        if (typeof res.processingTimeMs === 'number') processing.push(res.processingTimeMs)
      }
    }
    result.samples = times.length
    result.ms = summarize(times)
    result.processingMs = processing.length > 0 ? summarize(processing) : null
    result.ok = true
  } catch (err) {
    result.note = `failed: ${(err as Error).message}`
  } finally {
    await opened?.close()
  }
  return result
}

/** The server's stderr minus the expected start-up warning, last 20 lines. */
export function unexpectedLogs(logs: string): string | undefined {
  const lines = logs.split('\n').filter((l) => l.trim() && !l.includes('no master key is set'))
  return lines.length > 0 ? lines.slice(-20).join('\n') : undefined
}

const log = (text: string) => process.stderr.write(text)

/** The client counts of the QPS windows: `qpsClients` and the headline `connections`, increasing. */
export function qpsClientCounts(options: SearchOptions): number[] {
  return [...new Set([...options.qpsClients, options.connections])].sort((a, b) => a - b)
}

/** The whole search scenario; failures of the service are reported in the result, not thrown. */
export async function runSearch(options: SearchOptions, dbPath: string): Promise<SearchResult> {
  const started = performance.now()
  const notes: string[] = []
  log(`bench: search, loading ${options.dataset ?? `a generated corpus of ${options.generatedDocuments} documents`} …`)
  const { info, documents } = loadDataset(options)
  log(` ${info.documents.toLocaleString('en-US')} documents (${info.format}${info.gzip ? ', gzip' : ''}) in ${info.loadSeconds.toFixed(1)} s; searchable: ${info.searchableAttributes.join(', ')}\n`)
  const mix = buildQueryMix(documents, info.searchableAttributes, options.queries, options.querySeed)
  const bodies = mix.map((q) => JSON.stringify({ q: q.q }))
  // On a server of its own the index is `bench_search`; on a remote one, a uid of its own, deleted at the end.
  const uid = options.url === null ? 'bench_search' : `bench_search_${Date.now().toString(36)}`
  // --cpu-prof is not allowed in NODE_OPTIONS: a node flag. Worker threads write their own profiles too.
  const nodeArgs = options.serverCpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.serverCpuProfDir}`] : []
  const serverCpuProfile = options.serverCpuProfDir ?? undefined
  const server = options.url === null ? await startServer({ adapter: 'uws', dbPath, args: DOCUMENTS_SERVER_ARGS, nodeArgs }) : remoteServer(options.url, options.apiKey)
  if (server.remote) notes.push(`Measured over HTTP on ${options.url} (--url): the bench sees neither its process (no CPU or memory figures) nor its data directory (no size on disk, no in-process figures); index \`${uid}\` was deleted afterwards.`)
  const hitsByQuery = new Map<string, number>()
  let indexing = notIndexed(options.sampleMs, 'not run')
  let latency: SearchLatency | null = null
  let qps: LoadResult | null = null
  const qpsSweep: LoadResult[] = []
  const memory: SearchMemory = { hwmMiB: null, indexingPeakMiB: null, searchPeakMiB: null, idleMiB: null, afterSearchMiB: null }
  let serverLogTail: string | undefined
  try {
    memory.idleMiB = mib(readStatus(server.pid).rss)
    const dopts = documentsOptions(options)
    let setup: string | null = null
    try {
      await expectTask(server, 'POST', '/indexes', { uid, primaryKey: info.primaryKey }, dopts)
      await expectTask(server, 'PATCH', `/indexes/${uid}/settings`, { searchableAttributes: info.searchableAttributes }, dopts)
    } catch (err) {
      setup = `index set-up failed: ${(err as Error).message}`
    }
    log(`bench: search, indexing ${info.documents.toLocaleString('en-US')} documents as NDJSON …`)
    indexing = setup === null ? await indexDocuments(server, uid, documents, options) : { ...indexing, error: setup }
    memory.indexingPeakMiB = Math.max(indexing.memory.peakUploadMiB ?? 0, indexing.memory.peakIndexingMiB ?? 0) || null
    if (indexing.ok) {
      log(` ${indexing.seconds!.toFixed(2)} s, ${Math.round(indexing.docsPerSecond!)} docs/s${indexing.indexBytes === null ? '' : `, ${(indexing.indexBytes / 1e6).toFixed(1)} MB on disk`}${memory.indexingPeakMiB === null ? '' : `, peak RSS ${memory.indexingPeakMiB.toFixed(0)} MiB`}\n`)
      if (indexing.numberOfDocuments !== info.documents) notes.push(`The index counts ${indexing.numberOfDocuments} documents, ${info.documents} were sent (duplicate ids?).`)
    } else {
      log(` FAILED: ${indexing.error}\n`)
    }

    if (indexing.ok) {
      const probe = await fetch(`${server.url}/indexes/${uid}/search`, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: bodies[0], signal: AbortSignal.timeout(60_000) })
      const probeText = await probe.text()
      if (probe.status !== 200) {
        notes.push(`HTTP search skipped: POST /indexes/${uid}/search answered ${probe.status}${probeText ? `: ${probeText.slice(0, 300)}` : ' with an empty body (no search route yet)'}.`)
        log(`bench: search, POST /indexes/${uid}/search answered ${probe.status}: HTTP latency and QPS skipped\n`)
      } else {
        const sampler = new RssSampler(server.pid, options.sampleMs)
        sampler.start()
        try {
          const bar = progress(`search, ${mix.length} queries: warm-up + ${options.rounds} rounds, one client`, mix.length * (options.rounds + 1))
          let replies = 0
          latency = await measureLatency(server, uid, mix, bodies, options, hitsByQuery, () => bar.update(++replies))
          bar.done(`processingTimeMs p50 ${latency.serverMs.p50} / p95 ${latency.serverMs.p95} / p99 ${latency.serverMs.p99}; round trip p50 ${latency.clientMs.p50.toFixed(2)} / p95 ${latency.clientMs.p95.toFixed(2)} / p99 ${latency.clientMs.p99.toFixed(2)} ms${latency.error ? `; ${latency.error}` : ''}`)
          for (const clients of qpsClientCounts(options)) {
            const bar = progress(`search, QPS with ${clients} client${clients === 1 ? '' : 's'}`, options.qpsWarmupSeconds + options.qpsSeconds)
            const t = performance.now()
            const timer = setInterval(() => bar.update((performance.now() - t) / 1000), 250)
            let window: LoadResult
            try {
              window = await runLoad({
                host: server.host, port: server.port, headers: server.headers, connections: clients,
                warmupMs: options.qpsWarmupSeconds * 1000, durationMs: options.qpsSeconds * 1000, maxRequests: 100_000_000, client: 'raw',
                request: (seq) => ({ method: 'POST', path: `/indexes/${uid}/search`, body: bodies[seq % bodies.length]! }),
                ok: (reply: Reply) => reply.status === 200,
                serverPid: server.pid,
              })
            } finally {
              clearInterval(timer)
            }
            bar.done(`${Math.round(window.requestsPerSecond)} queries/s, p50 ${window.latencyMs.p50.toFixed(1)} ms, p99 ${window.latencyMs.p99.toFixed(1)} ms, ${window.serverCpuPercent === null ? '' : `server CPU ${Math.round(window.serverCpuPercent)} %, `}${window.errors} errors`)
            qpsSweep.push(window)
            if (clients === options.connections) qps = window
          }
        } finally {
          const m = sampler.stop()
          memory.searchPeakMiB = Math.max(m.peakUploadMiB ?? 0, m.peakIndexingMiB ?? 0) || null
          memory.afterSearchMiB = mib(readStatus(server.pid).rss)
        }
      }
    }
    memory.hwmMiB = mib(readStatus(server.pid).hwm)
    serverLogTail = unexpectedLogs(server.logs())
    if (!server.isRunning()) notes.push('The server exited during the run.')
  } finally {
    if (server.remote) {
      // Deleted, and waited for: the run leaves the server as it found it (best effort if it went away).
      try {
        const res = await fetch(`${server.url}/indexes/${uid}`, { method: 'DELETE', headers: server.headers ?? {}, signal: AbortSignal.timeout(30_000) })
        const { taskUid } = (await res.json()) as { taskUid?: number }
        if (res.status === 202 && typeof taskUid === 'number') await waitForTasks(server, [taskUid], documentsOptions(options))
      } catch { /* kept */ }
    }
    await server.stop({ keepData: true })
  }
  const closed = server.remote ? { allocated: null, apparent: null, index: null } : diskUsage(dbPath)
  indexing.diskBytesAfterShutdown = closed.allocated
  indexing.diskApparentBytesAfterShutdown = closed.apparent
  indexing.indexBytesAfterShutdown = closed.index

  let inProcess: SearchInProcess = { ok: false, rounds: options.inProcessRounds, samples: 0, ms: null, processingMs: null, openSeconds: null, note: 'skipped: indexing failed' }
  if (server.remote) {
    inProcess = { ...inProcess, note: 'skipped: a remote server (--url)' }
  } else if (indexing.ok) {
    log('bench: search, in process (Engine.open + Engine.search) …')
    inProcess = await measureInProcess(dbPath, uid, mix, options)
    log(inProcess.ok && inProcess.ms ? ` p50 ${inProcess.ms.p50.toFixed(3)} / p95 ${inProcess.ms.p95.toFixed(3)} / p99 ${inProcess.ms.p99.toFixed(3)} ms\n` : ` ${inProcess.note}\n`)
  }

  const peers = options.peers.length === 0 ? [] : await runPeers({
    peers: options.peers, documents, searchable: info.searchableAttributes, primaryKey: info.primaryKey, queries: mix.map((q) => q.q),
    rounds: options.inProcessRounds, scratchParent: dirname(dbPath), timeoutMs: options.taskTimeoutMs, log,
  })

  if (options.dataset === null) {
    notes.push('The generated corpus draws its words uniformly from a vocabulary of about 420 words: each word occurs in about 10 % of the documents, so nearly every query has thousands of candidates to rank. A worst case for ranking, not a realistic corpus: use --dataset for realistic figures.')
  }
  const byWords: Record<string, number> = {}
  for (const q of mix) byWords[String(q.words)] = (byWords[String(q.words)] ?? 0) + 1
  return {
    options, serverArgs: DOCUMENTS_SERVER_ARGS, dataset: info, indexUid: uid, indexing,
    queries: {
      count: mix.length, seed: options.querySeed, byKind: byKind((k) => mix.filter((q) => q.kind === k).length), byWords,
      examples: mix.slice(0, 20).map((q) => ({ ...q, hits: hitsByQuery.get(q.q) ?? null })),
      all: mix.map((q) => q.q),
    },
    latency, qps, qpsSweep, inProcess, memory, peers,
    ...(serverCpuProfile ? { serverCpuProfile } : {}),
    ...(serverLogTail ? { serverLogTail } : {}),
    notes, totalSeconds: (performance.now() - started) / 1000,
  }
}

export { KINDS as QUERY_KINDS }
