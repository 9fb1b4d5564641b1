/**
 * The documents benchmark (issue 3): how fast the service accepts a document payload (MB/s until the 202) and
 * indexes it (documents/s until the task `succeeded`), for JSON, NDJSON and CSV, and how much memory the server
 * process needs meanwhile.
 *
 * Runs (each against its own fresh server, uws adapter, with a fresh data directory):
 * - `json`, `ndjson`, `csv`: the generated corpus (100,000 documents by default) in one payload;
 * - `ndjson-10x`: the same corpus as 10 NDJSON payloads sent concurrently (autobatching), end to end;
 * - `ndjson-large` (with `--large`): a larger NDJSON corpus (500,000 documents, ~180 MB, by default), to see
 *   whether the server's memory stays bounded relative to the payload. It is generated piece by piece into a
 *   scratch file and streamed from there, so the bench never holds it whole (generating it while sending would
 *   cap the upload at the generator's ~45 MB/s, below what the service accepts).
 * After each run, `GET /indexes/{uid}/stats` must count every document and a few sampled documents must read back
 * exactly as sent; otherwise the run fails.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { createReadStream, createWriteStream, readFileSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import {
  CONTENT_TYPES, buildNdjsonParts, buildPayload, expectedDocument, generateDocuments, serialize,
  type BenchDocument, type PayloadFormat,
} from './corpus.js'
import { elapsed, otherCpuPercent, processCpuMs, systemBusyMs, type BenchServer } from './server.js'

export type DocumentsRunKind = 'json' | 'ndjson' | 'csv' | 'ndjson-10x' | 'ndjson-large'

export interface MemoryUsage {
  /** VmRSS of the idle server just before the first request, MiB. */
  idleMiB: number | null
  /** Highest VmRSS sampled (every `sampleMs`) from the first byte sent until the last 202, MiB. */
  peakUploadMiB: number | null
  /** Highest VmRSS sampled from the last 202 until every task finished, MiB. */
  peakIndexingMiB: number | null
  /** VmHWM at the end: the kernel's own peak RSS of the process over its lifetime (start-up included), MiB. */
  hwmMiB: number | null
  samples: number
  sampleMs: number
  /** Every sample: [ms since the first byte sent, VmRSS MiB]. */
  timeline: [number, number][]
}

export interface DocumentsRunResult {
  id: DocumentsRunKind
  format: PayloadFormat
  indexUid: string
  documents: number
  payloads: number
  /** Bytes sent over all payloads. */
  bytes: number
  /** Whether the payload was streamed from a scratch file (never held whole in the bench's memory). */
  streamed: boolean
  ok: boolean
  /** Why the run failed (a non-202, a failed task, a wrong document count, a document read back wrong, a timeout). */
  error?: string
  /** First byte sent → last 202 received, seconds. */
  acceptSeconds: number | null
  /** bytes / acceptSeconds, in MB/s (10^6 bytes). */
  acceptMBps: number | null
  /** Last 202 → every task `succeeded` (seen by polling every `pollMs`), seconds. */
  indexSeconds: number | null
  indexDocsPerSecond: number | null
  /** First byte sent → every task `succeeded`, seconds. */
  endToEndSeconds: number | null
  endToEndDocsPerSecond: number | null
  /** The service's own processing time: earliest `startedAt` → latest `finishedAt` of the run's tasks, seconds. */
  taskSpanSeconds: number | null
  /** Queue wait: earliest `enqueuedAt` → earliest `startedAt`, seconds. */
  taskWaitSeconds: number | null
  /**
   * Latest `finishedAt` → the poll that saw every task `succeeded` (wall clock, ±pollMs), seconds: the service sets
   * `finishedAt` before the batch's final commit, so this is mostly that commit (and the fsync) and publishing.
   */
  commitLagSeconds: number | null
  /** Task uids and the distinct batches that processed them. */
  taskUids: number[]
  batchUids: number[]
  /** `numberOfDocuments` of `GET /indexes/{uid}/stats` afterwards. */
  numberOfDocuments: number | null
  /** Sampled documents read back with `GET /indexes/{uid}/documents/{id}`: how many matched what was sent. */
  samplesChecked: number
  samplesMatched: number
  memory: MemoryUsage
  /** Server CPU in % of one core during the upload (until the last 202) and the indexing (after it). */
  serverCpuUploadPercent: number | null
  serverCpuIndexingPercent: number | null
  /** Every other process of the machine (not server, not this bench) over the whole run, % of one core. */
  otherCpuPercent: number | null
  serverLogTail?: string
}

export interface DocumentsOptions {
  /** Documents in the corpus of the json/ndjson/csv/ndjson-10x runs. */
  documents: number
  /** Payloads of the ndjson-10x run. */
  concurrentPayloads: number
  /** Documents of the ndjson-large run (only run when `large`). */
  large: boolean
  largeDocuments: number
  pollMs: number
  sampleMs: number
  /** Longest wait for the tasks of a run to finish. */
  taskTimeoutMs: number
  /**
   * A run fails early as stalled when its tasks are still unfinished and the server used less than
   * `stallCpuPercent` % of a core over the last `stallMs` (answering the polls takes ~2 %; a batch being
   * computed takes 90 % or more, RocksDB's background compactions after it some tens of %).
   */
  stallMs: number
  stallCpuPercent: number
}

export const DEFAULT_DOCUMENTS_OPTIONS: DocumentsOptions = {
  documents: 100_000,
  concurrentPayloads: 10,
  large: false,
  largeDocuments: 500_000,
  pollMs: 20,
  sampleMs: 50,
  taskTimeoutMs: 180_000,
  stallMs: 10_000,
  stallCpuPercent: 15,
}

export const DOCUMENTS_RUN_TITLES: Record<DocumentsRunKind, string> = {
  json: 'JSON array, 1 payload',
  ndjson: 'NDJSON, 1 payload',
  csv: 'CSV, 1 payload',
  'ndjson-10x': 'NDJSON, concurrent payloads',
  'ndjson-large': 'NDJSON, large (streamed from a file)',
}

/** The server flags of every documents run: payloads above the default 100 MB limit are accepted. */
export const DOCUMENTS_SERVER_ARGS = ['--http-payload-size-limit', '2 GiB']

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
const MiB = 2 ** 20

/** Samples VmRSS of a process every `sampleMs`, with a peak per phase; VmHWM read at the end. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null
  private phase: 'upload' | 'indexing' = 'upload'
  private peaks = { upload: 0, indexing: 0 }
  private count = 0
  private t0 = 0
  private readonly timeline: [number, number][] = []
  readonly idleKiB: number | null

  constructor(private readonly pid: number, private readonly sampleMs: number) {
    this.idleKiB = readStatus(pid).rss
  }

  start(): void {
    this.t0 = performance.now()
    this.sample()
    this.timer = setInterval(() => this.sample(), this.sampleMs)
  }

  /** From now on samples count towards the indexing peak (the last sample of the upload is taken first). */
  indexing(): void {
    this.sample()
    this.phase = 'indexing'
  }

  stop(): MemoryUsage {
    this.sample()
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    const status = readStatus(this.pid)
    const mib = (kib: number | null) => (kib === null || kib === 0 ? null : kib / 1024)
    return {
      idleMiB: mib(this.idleKiB),
      peakUploadMiB: mib(this.peaks.upload),
      peakIndexingMiB: mib(this.peaks.indexing),
      hwmMiB: mib(status.hwm),
      samples: this.count,
      sampleMs: this.sampleMs,
      timeline: this.timeline,
    }
  }

  private sample(): void {
    const { rss } = readStatus(this.pid)
    if (rss === null) return
    this.count++
    this.timeline.push([Math.round(performance.now() - this.t0), Math.round(rss / 102.4) / 10])
    if (rss > this.peaks[this.phase]) this.peaks[this.phase] = rss
  }
}

/** VmRSS and VmHWM of a process in KiB, from /proc/<pid>/status (null where unavailable). */
export function readStatus(pid: number): { rss: number | null; hwm: number | null } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name: string) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)
      return m ? Number(m[1]) : null
    }
    return { rss: field('VmRSS'), hwm: field('VmHWM') }
  } catch {
    return { rss: null, hwm: null }
  }
}

export interface Posted {
  status: number
  text: string
  /** performance.now() when the whole reply was read. */
  at: number
}

/**
 * POST a payload with node:http (its own connection, an explicit Content-Length): `body` is a Buffer or a Readable
 * (piped, with backpressure). Resolves with the reply once it is read whole, even if the server answers before
 * it read the whole body (an error).
 */
export function postPayload(server: BenchServer, path: string, contentType: string, body: Buffer | Readable, length: number, timeoutMs: number): Promise<Posted> {
  return new Promise<Posted>((resolve, reject) => {
    const req = httpRequest({
      host: server.host, port: server.port, method: 'POST', path, agent: false,
      headers: { ...server.headers, 'content-type': contentType, 'content-length': String(length) },
    })
    const timer = setTimeout(() => req.destroy(new Error(`no reply within ${timeoutMs / 1000} s`)), timeoutMs)
    req.on('error', (err) => { clearTimeout(timer); reject(err) })
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), at: performance.now() })
        // An early reply (e.g. 413) may leave the body unsent: stop sending it.
        if (body instanceof Readable) { body.unpipe(req); body.destroy() }
        req.destroy()
      })
      res.on('error', (err) => { clearTimeout(timer); reject(err) })
    })
    if (Buffer.isBuffer(body)) req.end(body)
    else body.pipe(req)
  })
}

export async function getJson(server: BenchServer, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, { headers: server.headers ?? {}, signal: AbortSignal.timeout(30_000) })
  const text = await res.text()
  let body: unknown = text
  try { body = JSON.parse(text) } catch { /* not JSON: kept as text */ }
  return { status: res.status, body }
}

export interface TaskView {
  uid: number
  batchUid: number | null
  status: string
  enqueuedAt: string
  startedAt: string | null
  finishedAt: string | null
  error: { code?: string; message?: string } | null
  details?: Record<string, unknown>
}

/** Poll the tasks every `pollMs` until none is enqueued or processing; resolves with their final views. */
export async function waitForTasks(server: BenchServer, uids: number[], options: DocumentsOptions): Promise<{ tasks: TaskView[]; at: number; wallAt: number }> {
  const { pollMs, taskTimeoutMs: timeoutMs, stallMs, stallCpuPercent } = options
  const deadline = performance.now() + timeoutMs
  // Server CPU samples [time, cpu ms], to tell a slow batch from a hung one.
  const cpu: [number, number][] = []
  const path = uids.length === 1 ? `/tasks/${uids[0]}` : `/tasks?uids=${uids.join(',')}&limit=${uids.length}`
  let last: TaskView[] = []
  while (true) {
    const { status, body } = await getJson(server, path)
    const at = performance.now()
    const wallAt = Date.now()
    if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
    last = uids.length === 1 ? [body as TaskView] : ((body as { results: TaskView[] }).results)
    if (last.length === uids.length && last.every((t) => t.status !== 'enqueued' && t.status !== 'processing')) return { tasks: last, at, wallAt }
    const state = last.map((t) => `${t.uid} ${t.status}`).join(', ')
    if (at > deadline) throw new Error(`tasks not finished after ${timeoutMs / 1000} s: ${state}`)
    const used = processCpuMs(server.pid)
    if (used !== null) {
      cpu.push([at, used])
      while (cpu.length > 1 && at - cpu[1]![0] >= stallMs) cpu.shift()
      const [t0, c0] = cpu[0]!
      const percent = (100 * (used - c0)) / (at - t0)
      if (at - t0 >= stallMs && percent < stallCpuPercent) {
        throw new Error(`stalled: tasks ${state}, and the server used ${percent.toFixed(0)} % of a core over the last ${(stallMs / 1000).toFixed(0)} s (a hung batch? errors the scheduler logs below WARN are not shown: rerun the server with --log-level INFO)`)
      }
    }
    await sleep(pollMs)
  }
}

/** Stringify with sorted keys, to compare documents whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The ids whose documents are read back after a run: first, second, middle, last. */
function sampleIds(count: number): number[] {
  return [...new Set([0, 1, Math.floor(count / 2), count - 1])].filter((i) => i >= 0 && i < count)
}

interface Sent {
  format: PayloadFormat
  documents: number
  bytes: number
  streamed: boolean
  samples: BenchDocument[]
  /** Starts the POSTs; resolves with each reply. */
  send(server: BenchServer, path: string, timeoutMs: number): Promise<Posted[]>
  /** Removes what was prepared (a scratch file). */
  dispose(): void
}

async function prepare(kind: DocumentsRunKind, options: DocumentsOptions, scratchDir: string): Promise<Sent> {
  switch (kind) {
    case 'json': case 'ndjson': case 'csv': {
      const { body, samples } = buildPayload(kind, options.documents, sampleIds(options.documents))
      return {
        format: kind, documents: options.documents, bytes: body.length, streamed: false, samples, dispose: () => {},
        send: async (server, path, timeoutMs) => [await postPayload(server, path, CONTENT_TYPES[kind], body, body.length, timeoutMs)],
      }
    }
    case 'ndjson-10x': {
      const per = Math.ceil(options.documents / options.concurrentPayloads)
      const { bodies, samples } = buildNdjsonParts(options.documents, per, sampleIds(options.documents))
      return {
        format: 'ndjson', documents: options.documents, bytes: bodies.reduce((n, b) => n + b.length, 0), streamed: false, samples, dispose: () => {},
        send: (server, path, timeoutMs) => Promise.all(bodies.map((b) => postPayload(server, path, CONTENT_TYPES.ndjson, b, b.length, timeoutMs))),
      }
    }
    case 'ndjson-large': {
      const count = options.largeDocuments
      const wanted = new Set(sampleIds(count))
      const samples: BenchDocument[] = []
      const file = join(scratchDir, `payload-${process.pid}-${Date.now()}.ndjson`)
      const out = createWriteStream(file)
      let bytes = 0
      try {
        const docs = function* () {
          for (const doc of generateDocuments(count)) {
            if (wanted.has(doc.id)) samples.push(doc)
            yield doc
          }
        }
        for (const piece of serialize('ndjson', docs(), 1000)) {
          bytes += Buffer.byteLength(piece, 'utf8')
          if (!out.write(piece)) await once(out, 'drain')
        }
        out.end()
        await once(out, 'finish')
      } catch (err) {
        out.destroy()
        rmSync(file, { force: true })
        throw err
      }
      return {
        format: 'ndjson', documents: count, bytes, streamed: true, samples,
        dispose: () => rmSync(file, { force: true }),
        send: async (server, path, timeoutMs) => [await postPayload(server, path, CONTENT_TYPES.ndjson, createReadStream(file, { highWaterMark: 1 << 20 }), bytes, timeoutMs)],
      }
    }
  }
}

/**
 * One documents run against `server` (fresh, idle). Never throws for a failure of the service: the result says
 * `ok: false` and why.
 */
/** Batches and timings of finished tasks (seen succeeded at `wallAt`); throws when one did not succeed. */
export function taskTimings(tasks: TaskView[], wallAt: number): Pick<DocumentsRunResult, 'batchUids' | 'taskSpanSeconds' | 'taskWaitSeconds' | 'commitLagSeconds'> {
  const failed = tasks.filter((t) => t.status !== 'succeeded')
  if (failed.length > 0) throw new Error(`task(s) ${failed.map((t) => `${t.uid} ${t.status}${t.error ? ` (${t.error.code}: ${t.error.message})` : ''}`).join('; ')}`)
  const out: ReturnType<typeof taskTimings> = {
    batchUids: [...new Set(tasks.map((t) => t.batchUid).filter((b): b is number => b !== null))].sort((a, b) => a - b),
    taskSpanSeconds: null, taskWaitSeconds: null, commitLagSeconds: null,
  }
  const started = tasks.map((t) => (t.startedAt ? Date.parse(t.startedAt) : NaN))
  const finished = tasks.map((t) => (t.finishedAt ? Date.parse(t.finishedAt) : NaN))
  const enqueued = tasks.map((t) => Date.parse(t.enqueuedAt))
  if ([...started, ...finished, ...enqueued].every(Number.isFinite)) {
    out.taskSpanSeconds = (Math.max(...finished) - Math.min(...started)) / 1000
    out.taskWaitSeconds = (Math.min(...started) - Math.min(...enqueued)) / 1000
    out.commitLagSeconds = (wallAt - Math.max(...finished)) / 1000
  }
  return out
}

export async function runDocuments(kind: DocumentsRunKind, server: BenchServer, options: DocumentsOptions, scratchDir: string): Promise<DocumentsRunResult> {
  const sent = await prepare(kind, options, scratchDir)
  try {
    return await measure(kind, sent, server, options)
  } finally {
    sent.dispose()
  }
}

async function measure(kind: DocumentsRunKind, sent: Sent, server: BenchServer, options: DocumentsOptions): Promise<DocumentsRunResult> {
  const indexUid = `bench_${kind.replace(/-/g, '_')}`
  const result: DocumentsRunResult = {
    id: kind, format: sent.format, indexUid, documents: sent.documents, payloads: kind === 'ndjson-10x' ? options.concurrentPayloads : 1,
    bytes: sent.bytes, streamed: sent.streamed, ok: false,
    acceptSeconds: null, acceptMBps: null, indexSeconds: null, indexDocsPerSecond: null, endToEndSeconds: null, endToEndDocsPerSecond: null,
    taskSpanSeconds: null, taskWaitSeconds: null, commitLagSeconds: null, taskUids: [], batchUids: [], numberOfDocuments: null, samplesChecked: 0, samplesMatched: 0,
    memory: { idleMiB: null, peakUploadMiB: null, peakIndexingMiB: null, hwmMiB: null, samples: 0, sampleMs: options.sampleMs, timeline: [] },
    serverCpuUploadPercent: null, serverCpuIndexingPercent: null, otherCpuPercent: null,
  }
  const sampler = new RssSampler(server.pid, options.sampleMs)
  const cpu0 = processCpuMs(server.pid)
  const busy0 = systemBusyMs()
  const client0 = process.cpuUsage()
  const t0 = performance.now()
  let t202: number | null = null
  let cpu202: number | null = null
  sampler.start()
  try {
    const replies = await sent.send(server, `/indexes/${indexUid}/documents`, options.taskTimeoutMs)
    t202 = Math.max(...replies.map((r) => r.at))
    cpu202 = processCpuMs(server.pid)
    sampler.indexing()
    const bad = replies.filter((r) => r.status !== 202)
    if (bad.length > 0) throw new Error(`POST /indexes/${indexUid}/documents answered ${bad.map((r) => `${r.status} ${r.text.slice(0, 300)}`).join('; ')}`)
    result.acceptSeconds = (t202 - t0) / 1000
    result.acceptMBps = sent.bytes / 1e6 / result.acceptSeconds
    result.taskUids = replies.map((r) => (JSON.parse(r.text) as { taskUid: number }).taskUid)

    const { tasks, at, wallAt } = await waitForTasks(server, result.taskUids, options)
    Object.assign(result, taskTimings(tasks, wallAt))
    result.indexSeconds = (at - t202) / 1000
    result.indexDocsPerSecond = sent.documents / result.indexSeconds
    result.endToEndSeconds = (at - t0) / 1000
    result.endToEndDocsPerSecond = sent.documents / result.endToEndSeconds
  } catch (err) {
    result.error = (err as Error).message
  } finally {
    result.memory = sampler.stop()
    const t1 = performance.now()
    const cpu1 = processCpuMs(server.pid)
    const busy1 = systemBusyMs()
    const client = process.cpuUsage(client0)
    const clientMs = (client.user + client.system) / 1000
    if (cpu0 !== null && cpu202 !== null && t202 !== null && t202 > t0) result.serverCpuUploadPercent = (100 * (cpu202 - cpu0)) / (t202 - t0)
    if (cpu202 !== null && cpu1 !== null && t202 !== null && t1 > t202) result.serverCpuIndexingPercent = (100 * (cpu1 - cpu202)) / (t1 - t202)
    result.otherCpuPercent = otherCpuPercent(elapsed(busy0, busy1), elapsed(cpu0, cpu1), clientMs, t1 - t0)
  }
  if (result.error) return result

  // The index must hold every document, and sampled documents must read back as sent.
  try {
    const stats = await getJson(server, `/indexes/${indexUid}/stats`)
    if (stats.status !== 200) throw new Error(`GET /indexes/${indexUid}/stats answered ${stats.status}: ${JSON.stringify(stats.body).slice(0, 300)}`)
    const counted = (stats.body as { numberOfDocuments?: unknown } | null)?.numberOfDocuments
    result.numberOfDocuments = typeof counted === 'number' ? counted : null
    if (result.numberOfDocuments !== sent.documents) {
      throw new Error(`GET /indexes/${indexUid}/stats counts ${result.numberOfDocuments} documents, expected ${sent.documents}`)
    }
    const mismatches: string[] = []
    for (const doc of sent.samples) {
      result.samplesChecked++
      const got = await getJson(server, `/indexes/${indexUid}/documents/${doc.id}`)
      const want = expectedDocument(doc, sent.format)
      if (got.status === 200 && canonical(got.body) === canonical(want)) result.samplesMatched++
      else mismatches.push(`document ${doc.id}: ${got.status} ${JSON.stringify(got.body).slice(0, 400)} ≠ sent ${JSON.stringify(want).slice(0, 400)}`)
    }
    if (mismatches.length > 0) throw new Error(`documents read back differ from what was sent: ${mismatches.join('; ')}`)
    result.ok = true
  } catch (err) {
    result.error = (err as Error).message
  }
  return result
}

export function documentsRunKinds(options: DocumentsOptions): DocumentsRunKind[] {
  return ['json', 'ndjson', 'csv', 'ndjson-10x', ...(options.large ? (['ndjson-large'] as const) : [])]
}
