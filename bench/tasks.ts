/**
 * The task throughput benchmark: how fast the service takes tasks in and works through them when they are many and
 * small, and how long a settings change takes to reindex an index. Issue text: "task throughput (registration
 * rate; small-task processing rate with autobatching, e.g. 10,000 one-document tasks; mixed document and settings
 * tasks); settings-driven reindex time", with the target "10,000 one-document tasks processed in ≤ 5 s".
 *
 * Three parts, each against its own fresh target (`open(part)`: a fresh local server and data directory, or an
 * index of its own on a remote server); an error in one part is recorded in its result (`ok: false`) and the next
 * part still runs:
 * 1. `one-doc`: `oneDocTasks` POSTs of a one-document JSON array to one index, from `clients` concurrent keep-alive
 *    clients (global fetch), each sending the next document as soon as its previous one is answered.
 *    - registration: first send → last 202 (tasks/s, and each POST's round trip);
 *    - processing: first send → every task seen ended (polled), the figure the target is checked on (scaled:
 *      ≥ 2,000 tasks/s); and the service's own span, earliest `startedAt` → latest `finishedAt` of the tasks;
 *    - the batches: how many, how many tasks each (autobatching merges the queued one-document tasks of the index,
 *      so a fast service needs few batches), and how long they ran in sum (the span less that sum is time the
 *      scheduler spent between batches);
 *    - every task must succeed and `numberOfDocuments` must equal the count.
 * 2. `mixed`: `mixedTasks` tasks to one index, every `settingsEvery`-th a settings update (rotating through
 *    filterableAttributes, stopWords, rankingRules order, typoTolerance.minWordSizeForTypos, synonyms), the others
 *    additions of 10 documents, from the same clients. A settings task cannot be batched with document tasks, so
 *    each one cuts the stream of additions into batches; settings changes on a growing index also reindex it.
 *    Measured: first send → every task ended, tasks/s, batches (and how many held settings), the time the settings
 *    batches and the document batches took, failures, `numberOfDocuments`.
 * 3. `reindex`: `reindexDocuments` generated documents in one NDJSON POST (searchableAttributes title, description,
 *    tags set first), then one settings change at a time, each timed from the PATCH to its task seen `succeeded`
 *    (wall clock, and the task's own `duration`), with documents/s on the wall clock; then the server's peak RSS.
 *
 * Every wait has a deadline (a stuck service fails the part instead of hanging the bench), and every target is
 * closed when its part ends.
 */
import { performance } from 'node:perf_hooks'
import { generateDocuments, type BenchDocument } from './corpus.js'
import { rawConnection, summarize, type Connection, type LatencySummary, type RequestSpec } from './load.js'
import { progress, tracked, type Progress } from './progress.js'
import { otherCpuPercent, processCpuMs, systemBusyMs } from './server.js'
import { call, expectTask, memoryOf, type Target } from './target.js'

export interface TasksOptions {
  /** One-document tasks of part 1. */
  oneDocTasks: number
  /** Concurrent keep-alive clients registering the tasks of parts 1 and 2. */
  clients: number
  /** Tasks of part 2 (settings and 10-document additions). */
  mixedTasks: number
  /** Every `settingsEvery`-th task of part 2 is a settings update. */
  settingsEvery: number
  /** Documents of the index part 3 reindexes. */
  reindexDocuments: number
  seed: number
}

export const DEFAULT_TASKS_OPTIONS: TasksOptions = {
  oneDocTasks: 10_000, clients: 16, mixedTasks: 2_000, settingsEvery: 50, reindexDocuments: 50_000, seed: 0x7a5c5,
}

/** `--quick`: 2,000 one-document tasks, 500 mixed tasks, 10,000 documents to reindex. */
export function quickTasksOptions(o: TasksOptions): TasksOptions {
  return { ...o, oneDocTasks: 2_000, mixedTasks: 500, reindexDocuments: 10_000 }
}

/** The issue's target: 10,000 one-document tasks processed in ≤ 5 s, i.e. ≥ 2,000 tasks/s at any count. */
export const ONE_DOC_TARGET = { tasks: 10_000, seconds: 5, tasksPerSecond: 2_000 }

/** Documents in each addition task of the mixed part. */
export const MIXED_DOCUMENTS_PER_TASK = 10

/** Poll interval of the waits, and their deadlines. */
const POLL_MS = 25
const WAIT_ALL_TIMEOUT_MS = 300_000
const SETTINGS_TIMEOUT_MS = 300_000
const REQUEST_TIMEOUT_MS = 30_000
/** Registration stops (and the part fails) after this many failed POSTs. */
const MAX_REGISTRATION_ERRORS = 50

/** Tasks per batch. */
export interface BatchSizes {
  min: number
  mean: number
  max: number
}

export interface OneDocResult {
  ok: boolean
  /** Why the part failed (a POST refused, a timeout, a wrong document count, a task that did not succeed). */
  error?: string
  indexUid: string
  tasks: number
  clients: number
  /** First send → last 202, seconds. */
  registrationSeconds: number | null
  registrationTasksPerSecond: number | null
  /** Round trip of each POST, ms. */
  registrationLatencyMs: LatencySummary | null
  /** POSTs not answered 202 (or not answered). */
  registrationErrors: number
  /** First send → every task seen ended (polled every 25 ms), seconds: the figure the target is checked on. */
  processingSeconds: number | null
  processingTasksPerSecond: number | null
  /** Last 202 → every task seen ended, seconds: what processing took beyond the registration. */
  drainSeconds: number | null
  /** The service's own span: earliest `startedAt` → latest `finishedAt` of the tasks, seconds. */
  serverSpanSeconds: number | null
  serverTasksPerSecond: number | null
  /** Earliest `enqueuedAt` → earliest `startedAt`: how long the first task waited, seconds. */
  queueWaitSeconds: number | null
  /** Distinct `batchUid`s of the tasks. */
  batches: number | null
  tasksPerBatch: BatchSizes | null
  /** The first 40 batches, in order: their tasks and seconds (earliest `startedAt` → latest `finishedAt`). */
  firstBatches: Array<{ tasks: number; seconds: number }>
  /** Sum over the batches of their seconds; the service span less this is time spent between batches. */
  batchBusySeconds: number | null
  succeeded: number | null
  failed: number | null
  canceled: number | null
  firstFailure?: string
  /** `numberOfDocuments` of `GET /indexes/{uid}/stats` afterwards (must equal `tasks`). */
  numberOfDocuments: number | null
  /** Server CPU, % of one core, during the registration and after it until every task ended. */
  serverCpuRegistrationPercent: number | null
  serverCpuDrainPercent: number | null
  /** This bench process (the clients), % of one core, first send → every task ended. */
  benchCpuPercent: number | null
  /** Every other process of the machine over the same window, % of one core. */
  otherCpuPercent: number | null
  /** The target, scaled to the count: processingTasksPerSecond ≥ 2,000 (null when not measured). */
  targetTasksPerSecond: number
  targetMet: boolean | null
  peakRssMiB: number | null
  /** The part's whole time (set-up and checks included), seconds. */
  totalSeconds: number
}

export interface MixedResult {
  ok: boolean
  error?: string
  indexUid: string
  tasks: number
  clients: number
  documentTasks: number
  settingsTasks: number
  documentsPerTask: number
  documents: number
  registrationSeconds: number | null
  registrationTasksPerSecond: number | null
  registrationErrors: number
  /** First send → every task seen ended, seconds. */
  wallSeconds: number | null
  tasksPerSecond: number | null
  documentsPerSecond: number | null
  serverSpanSeconds: number | null
  batches: number | null
  /** Batches that held a settings task, and those that held only additions. */
  settingsBatches: number | null
  documentBatches: number | null
  /** Tasks per document batch. */
  tasksPerDocumentBatch: BatchSizes | null
  /** Sum of the durations of the settings batches and of the document batches, seconds. */
  settingsBatchSeconds: number | null
  documentBatchSeconds: number | null
  succeeded: number | null
  failed: number | null
  canceled: number | null
  firstFailure?: string
  numberOfDocuments: number | null
  peakRssMiB: number | null
  totalSeconds: number
}

export interface ReindexChange {
  change: string
  /** The body of the PATCH. */
  settings: Record<string, unknown>
  ok: boolean
  error?: string
  /** PATCH sent → task seen `succeeded`, seconds. */
  wallSeconds: number | null
  /** The task's own `duration`, seconds. */
  taskSeconds: number | null
  /** documents / wallSeconds. */
  documentsPerSecond: number | null
}

export interface ReindexResult {
  ok: boolean
  error?: string
  indexUid: string
  documents: number
  payloadBytes: number | null
  /** The NDJSON POST → its task seen `succeeded`, seconds, and documents/s on it. */
  indexingSeconds: number | null
  indexingDocumentsPerSecond: number | null
  changes: ReindexChange[]
  numberOfDocuments: number | null
  /** VmHWM of the server after the part (peak RSS over its lifetime), and VmRSS then, MiB. */
  peakRssMiB: number | null
  rssMiB: number | null
  totalSeconds: number
}

export interface TasksResult {
  options: TasksOptions
  oneDoc: OneDocResult
  mixed: MixedResult
  reindex: ReindexResult
  totalSeconds: number
}

/** A task as `GET /tasks` lists it (the fields used here). */
interface TaskRow {
  uid: number
  batchUid: number | null
  status: string
  type: string
  enqueuedAt: string
  startedAt: string | null
  finishedAt: string | null
  duration: string | null
  error: { code?: string; message?: string } | null
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** An RFC 3339 timestamp in microseconds since the epoch (Date.parse keeps only milliseconds), NaN if unreadable. */
export function timestampMicros(text: string | null): number {
  if (!text) return NaN
  const m = /^(.+?)(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/.exec(text)
  if (!m) return NaN
  const base = Date.parse(`${m[1]}${m[3]}`)
  return base * 1000 + Number(((m[2] ?? '') + '000000').slice(0, 6))
}

/** An ISO 8601 duration as the tasks print it (`PT1.234S`, `P1DT3.5S`, also with H and M), in seconds. */
export function durationSeconds(text: string | null): number | null {
  if (!text) return null
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text)
  if (!m) return null
  return Number(m[1] ?? 0) * 86_400 + Number(m[2] ?? 0) * 3_600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0)
}

/** Create the index (primary key `id`) and wait for it. */
async function createIndex(target: Target, uid: string): Promise<void> {
  await expectTask(target, 'POST', '/indexes', { uid, primaryKey: 'id' }, 60_000, 'index creation', POLL_MS)
}

/** PATCH settings and wait for the task; throws unless it succeeded. Returns the task. */
function patchSettings(target: Target, indexUid: string, settings: Record<string, unknown>, what: string): Promise<Record<string, any>> {
  return expectTask(target, 'PATCH', `/indexes/${indexUid}/settings`, settings, SETTINGS_TIMEOUT_MS, what, POLL_MS)
}

async function numberOfDocuments(target: Target, indexUid: string): Promise<number | null> {
  const { status, body } = await call(target, 'GET', `/indexes/${indexUid}/stats`)
  return status === 200 && typeof body?.numberOfDocuments === 'number' ? body.numberOfDocuments : null
}

interface Registered {
  /** performance.now() of the first send and of the last 202. */
  firstSendAt: number
  lastAcceptedAt: number
  taskUids: number[]
  latenciesMs: number[]
  errors: number
  firstError?: string
}

/**
 * Send `requests` (method, path, JSON body already serialized) from `clients` concurrent keep-alive connections of
 * the raw client (load.ts; fetch would cost the client more CPU than the server spends): each connection takes the
 * next request as soon as its previous one is answered. Throws after MAX_REGISTRATION_ERRORS failed POSTs (the
 * service refuses or is gone).
 */
async function register(target: Target, requests: Array<{ method: RequestSpec['method']; path: string; body: string }>, clients: number, bar: Progress): Promise<Registered> {
  const out: Registered = { firstSendAt: performance.now(), lastAcceptedAt: 0, taskUids: [], latenciesMs: [], errors: 0 }
  const { hostname, port } = new URL(target.url)
  let next = 0
  let accepted = 0
  let stop = false
  const client = async () => {
    let connection: Connection | null = null
    try {
      while (!stop) {
        const i = next++
        if (i >= requests.length) return
        const { method, path, body } = requests[i]!
        const t = performance.now()
        try {
          connection ??= rawConnection(hostname.replace(/^\[|\]$/g, ''), Number(port || 80), target.headers)
          const reply = await withTimeout(connection.send({ method, path, body }), REQUEST_TIMEOUT_MS)
          const now = performance.now()
          if (reply.status !== 202) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.body.slice(0, 300)}`)
          out.latenciesMs.push(now - t)
          out.taskUids.push((JSON.parse(reply.body) as { taskUid: number }).taskUid)
          out.lastAcceptedAt = Math.max(out.lastAcceptedAt, now)
          bar.update(++accepted)
        } catch (err) {
          // A broken connection is replaced for the next request.
          connection?.close()
          connection = null
          out.errors++
          out.firstError ??= message(err)
          if (out.errors >= MAX_REGISTRATION_ERRORS) stop = true
        }
      }
    } finally {
      connection?.close()
    }
  }
  out.firstSendAt = performance.now()
  await Promise.all(Array.from({ length: Math.max(1, clients) }, client))
  if (stop) throw new Error(`registration stopped after ${out.errors} failed requests; first: ${out.firstError}`)
  return out
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms) }),
  ])
}

/**
 * Poll the index's unfinished tasks (`statuses=enqueued,processing`, read from `total`) until there are none;
 * resolves with performance.now() of the poll that saw none. Throws after `timeoutMs`.
 */
async function waitAllEnded(target: Target, indexUid: string, expected: number, bar: Progress, timeoutMs = WAIT_ALL_TIMEOUT_MS): Promise<number> {
  const deadline = performance.now() + timeoutMs
  const path = `/tasks?indexUids=${encodeURIComponent(indexUid)}&statuses=enqueued,processing&limit=1`
  for (;;) {
    const { status, body } = await call(target, 'GET', path, undefined, REQUEST_TIMEOUT_MS)
    const at = performance.now()
    if (status !== 200 || typeof body?.total !== 'number') throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
    bar.update(Math.max(0, expected - body.total), `${body.total} left`)
    if (body.total === 0) return at
    if (at > deadline) throw new Error(`${body.total} of ${expected} tasks still unfinished after ${timeoutMs / 1000} s`)
    await sleep(POLL_MS)
  }
}

/** Every task of the index with one of `uids`, read in pages of 1,000 (`from`/`next`). */
async function readTasks(target: Target, indexUid: string, uids: number[]): Promise<TaskRow[]> {
  const wanted = new Set(uids)
  const rows: TaskRow[] = []
  let from: number | null = null
  for (let pages = 0; ; pages++) {
    if (pages > 10_000) throw new Error('GET /tasks: too many pages')
    const path: string = `/tasks?indexUids=${encodeURIComponent(indexUid)}&limit=1000${from !== null ? `&from=${from}` : ''}`
    const { status, body } = await call(target, 'GET', path, undefined, REQUEST_TIMEOUT_MS)
    if (status !== 200 || !Array.isArray(body?.results)) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
    for (const row of body.results as TaskRow[]) if (wanted.has(row.uid)) rows.push(row)
    if (typeof body.next !== 'number') break
    from = body.next
  }
  if (rows.length !== wanted.size) throw new Error(`GET /tasks listed ${rows.length} of the ${wanted.size} tasks`)
  return rows
}

interface BatchInfo {
  uid: number
  tasks: number
  /** Any task of the batch was a settings update. */
  settings: boolean
  /** Earliest startedAt → latest finishedAt of its tasks, seconds. */
  seconds: number
}

interface TaskFigures {
  spanSeconds: number | null
  queueWaitSeconds: number | null
  batches: BatchInfo[]
  succeeded: number
  failed: number
  canceled: number
  firstFailure?: string
}

/** Timings, batches and outcomes of finished tasks. */
function taskFigures(rows: TaskRow[]): TaskFigures {
  const started = rows.map((t) => timestampMicros(t.startedAt)).filter(Number.isFinite)
  const finished = rows.map((t) => timestampMicros(t.finishedAt)).filter(Number.isFinite)
  const enqueued = rows.map((t) => timestampMicros(t.enqueuedAt)).filter(Number.isFinite)
  const min = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a), Infinity)
  const max = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity)
  const complete = started.length === rows.length && finished.length === rows.length && rows.length > 0
  const byBatch = new Map<number, { tasks: number; settings: boolean; start: number; end: number }>()
  for (const t of rows) {
    if (t.batchUid === null) continue
    const b = byBatch.get(t.batchUid) ?? { tasks: 0, settings: false, start: Infinity, end: -Infinity }
    b.tasks++
    b.settings ||= t.type === 'settingsUpdate'
    b.start = Math.min(b.start, timestampMicros(t.startedAt))
    b.end = Math.max(b.end, timestampMicros(t.finishedAt))
    byBatch.set(t.batchUid, b)
  }
  const failures = rows.filter((t) => t.status !== 'succeeded')
  const first = failures[0]
  return {
    spanSeconds: complete ? (max(finished) - min(started)) / 1e6 : null,
    queueWaitSeconds: complete && enqueued.length === rows.length ? (min(started) - min(enqueued)) / 1e6 : null,
    batches: [...byBatch.entries()].sort((a, b) => a[0] - b[0]).map(([uid, b]) => ({
      uid, tasks: b.tasks, settings: b.settings, seconds: Number.isFinite(b.end - b.start) ? (b.end - b.start) / 1e6 : 0,
    })),
    succeeded: rows.length - failures.length,
    failed: failures.filter((t) => t.status === 'failed').length,
    canceled: failures.filter((t) => t.status === 'canceled').length,
    ...(first ? { firstFailure: `task ${first.uid} ${first.status}${first.error ? ` (${first.error.code}: ${first.error.message})` : ''}` } : {}),
  }
}

function batchSizes(batches: BatchInfo[]): BatchSizes | null {
  if (batches.length === 0) return null
  const sizes = batches.map((b) => b.tasks)
  return { min: Math.min(...sizes), mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, max: Math.max(...sizes) }
}

const cpuPercent = (from: number | null, to: number | null, wallMs: number) => (from === null || to === null || wallMs <= 0 ? null : (100 * (to - from)) / wallMs)
const benchCpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/** Part 1: one-document tasks. */
async function runOneDoc(options: TasksOptions, target: Target, r: OneDocResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_one_doc')
  await createIndex(target, uid)
  const path = `/indexes/${encodeURIComponent(uid)}/documents`
  const requests = [...generateDocuments(options.oneDocTasks, options.seed)].map((doc) => ({ method: 'POST' as const, path, body: JSON.stringify([doc]) }))
  const pid = target.pid
  const cpu0 = pid === null ? null : processCpuMs(pid)
  const sys0 = systemBusyMs()
  const bench0 = benchCpuMs()

  const regBar = progress(`tasks, registering ${options.oneDocTasks.toLocaleString('en-US')} one-document tasks (${options.clients} clients)`, options.oneDocTasks)
  const reg = await tracked(regBar, () => register(target, requests, options.clients, regBar))
  const cpu1 = pid === null ? null : processCpuMs(pid)
  r.registrationErrors = reg.errors
  const regMs = reg.lastAcceptedAt - reg.firstSendAt
  r.registrationSeconds = regMs / 1000
  r.registrationTasksPerSecond = reg.taskUids.length / r.registrationSeconds
  r.registrationLatencyMs = summarize(reg.latenciesMs)
  regBar.done(`${Math.round(r.registrationTasksPerSecond)} tasks/s, round trip p50 ${r.registrationLatencyMs.p50.toFixed(2)} / p99 ${r.registrationLatencyMs.p99.toFixed(2)} ms${reg.errors ? `, ${reg.errors} errors` : ''}`)

  const procBar = progress('tasks, processing the one-document tasks', reg.taskUids.length)
  const endedAt = await tracked(procBar, () => waitAllEnded(target, uid, reg.taskUids.length, procBar))
  const cpu2 = pid === null ? null : processCpuMs(pid)
  const sys2 = systemBusyMs()
  const bench2 = benchCpuMs()
  const wallMs = endedAt - reg.firstSendAt
  r.processingSeconds = wallMs / 1000
  r.processingTasksPerSecond = reg.taskUids.length / r.processingSeconds
  r.drainSeconds = (endedAt - reg.lastAcceptedAt) / 1000
  r.serverCpuRegistrationPercent = cpuPercent(cpu0, cpu1, regMs)
  r.serverCpuDrainPercent = cpuPercent(cpu1, cpu2, endedAt - reg.lastAcceptedAt)
  r.benchCpuPercent = (100 * (bench2 - bench0)) / wallMs
  r.otherCpuPercent = otherCpuPercent(sys0 === null || sys2 === null ? null : sys2 - sys0, cpu0 === null || cpu2 === null ? null : cpu2 - cpu0, bench2 - bench0, wallMs)
  r.targetMet = reg.errors === 0 ? r.processingTasksPerSecond >= r.targetTasksPerSecond : false

  const rows = await readTasks(target, uid, reg.taskUids)
  const f = taskFigures(rows)
  r.serverSpanSeconds = f.spanSeconds
  r.serverTasksPerSecond = f.spanSeconds ? rows.length / f.spanSeconds : null
  r.queueWaitSeconds = f.queueWaitSeconds
  r.batches = f.batches.length
  r.tasksPerBatch = batchSizes(f.batches)
  r.firstBatches = f.batches.slice(0, 40).map((b) => ({ tasks: b.tasks, seconds: b.seconds }))
  r.batchBusySeconds = f.batches.reduce((s, b) => s + b.seconds, 0)
  r.succeeded = f.succeeded
  r.failed = f.failed
  r.canceled = f.canceled
  if (f.firstFailure) r.firstFailure = f.firstFailure
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  r.peakRssMiB = memoryOf(pid).hwmMiB
  procBar.done(`${r.processingSeconds.toFixed(2)} s (${Math.round(r.processingTasksPerSecond)} tasks/s) in ${r.batches} batches, service span ${f.spanSeconds?.toFixed(2) ?? '?'} s`)

  const problems = [
    ...(reg.errors > 0 ? [`${reg.errors} POSTs failed (first: ${reg.firstError})`] : []),
    ...(f.succeeded !== rows.length ? [`${rows.length - f.succeeded} tasks did not succeed (first: ${f.firstFailure})`] : []),
    ...(r.numberOfDocuments !== options.oneDocTasks ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${options.oneDocTasks}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}

/** The settings update of the `n`-th settings task of the mixed part: five kinds in turn, each a change from the last of its kind. */
export function mixedSettings(n: number): { kind: string; settings: Record<string, unknown> } {
  const v = Math.floor(n / 5)
  switch (n % 5) {
    case 0: return { kind: 'filterableAttributes', settings: { filterableAttributes: [['price'], ['price', 'tags'], ['tags', 'published']][v % 3] } }
    case 1: return { kind: 'stopWords', settings: { stopWords: [['the', 'a'], ['of', 'and', 'the'], ['with']][v % 3] } }
    case 2: {
      const orders = [
        ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
        ['typo', 'words', 'proximity', 'attribute', 'sort', 'exactness'],
        ['words', 'proximity', 'typo', 'attribute', 'exactness', 'sort'],
      ]
      return { kind: 'rankingRules', settings: { rankingRules: orders[v % 3] } }
    }
    case 3: return { kind: 'typoTolerance', settings: { typoTolerance: { minWordSizeForTypos: { oneTypo: 4 + (v % 3), twoTypos: 9 + (v % 3) } } } }
    default: {
      const sets = [{ cold: ['chill'], fast: ['quick'] }, { boat: ['ship'], road: ['path', 'lane'] }, { gold: ['amber'] }]
      return { kind: 'synonyms', settings: { synonyms: sets[v % 3] } }
    }
  }
}

/** Part 2: document additions with a settings update every `settingsEvery` tasks. */
async function runMixed(options: TasksOptions, target: Target, r: MixedResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_mixed')
  await createIndex(target, uid)
  const enc = encodeURIComponent(uid)
  const docs = generateDocuments(r.documents, options.seed ^ 0x31d)
  const requests: Array<{ method: RequestSpec['method']; path: string; body: string }> = []
  let settingsN = 0
  for (let i = 0; i < options.mixedTasks; i++) {
    if (options.settingsEvery > 0 && (i + 1) % options.settingsEvery === 0) {
      requests.push({ method: 'PATCH', path: `/indexes/${enc}/settings`, body: JSON.stringify(mixedSettings(settingsN++).settings) })
      continue
    }
    const batch: BenchDocument[] = []
    for (let k = 0; k < MIXED_DOCUMENTS_PER_TASK; k++) batch.push(docs.next().value as BenchDocument)
    requests.push({ method: 'POST', path: `/indexes/${enc}/documents`, body: JSON.stringify(batch) })
  }

  const regBar = progress(`tasks, registering ${options.mixedTasks.toLocaleString('en-US')} mixed tasks (${r.settingsTasks} settings)`, options.mixedTasks)
  const reg = await tracked(regBar, () => register(target, requests, options.clients, regBar))
  r.registrationErrors = reg.errors
  r.registrationSeconds = (reg.lastAcceptedAt - reg.firstSendAt) / 1000
  r.registrationTasksPerSecond = reg.taskUids.length / r.registrationSeconds
  regBar.done(`${Math.round(r.registrationTasksPerSecond)} tasks/s${reg.errors ? `, ${reg.errors} errors` : ''}`)

  const procBar = progress('tasks, processing the mixed tasks', reg.taskUids.length)
  const endedAt = await tracked(procBar, () => waitAllEnded(target, uid, reg.taskUids.length, procBar))
  r.wallSeconds = (endedAt - reg.firstSendAt) / 1000
  r.tasksPerSecond = reg.taskUids.length / r.wallSeconds
  r.documentsPerSecond = r.documents / r.wallSeconds

  const rows = await readTasks(target, uid, reg.taskUids)
  const f = taskFigures(rows)
  const settingsBatches = f.batches.filter((b) => b.settings)
  const documentBatches = f.batches.filter((b) => !b.settings)
  r.serverSpanSeconds = f.spanSeconds
  r.batches = f.batches.length
  r.settingsBatches = settingsBatches.length
  r.documentBatches = documentBatches.length
  r.tasksPerDocumentBatch = batchSizes(documentBatches)
  r.settingsBatchSeconds = settingsBatches.reduce((s, b) => s + b.seconds, 0)
  r.documentBatchSeconds = documentBatches.reduce((s, b) => s + b.seconds, 0)
  r.succeeded = f.succeeded
  r.failed = f.failed
  r.canceled = f.canceled
  if (f.firstFailure) r.firstFailure = f.firstFailure
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  r.peakRssMiB = memoryOf(target.pid).hwmMiB
  procBar.done(`${r.wallSeconds.toFixed(2)} s (${Math.round(r.tasksPerSecond)} tasks/s) in ${r.batches} batches (${r.settingsBatches} with settings: ${r.settingsBatchSeconds.toFixed(2)} s)`)

  const problems = [
    ...(reg.errors > 0 ? [`${reg.errors} requests failed (first: ${reg.firstError})`] : []),
    ...(f.succeeded !== rows.length ? [`${rows.length - f.succeeded} tasks did not succeed (first: ${f.firstFailure})`] : []),
    ...(r.numberOfDocuments !== r.documents ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${r.documents}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}

/** The settings changes of part 3, applied in this order, each to the index as the previous ones left it. */
export const REINDEX_CHANGES: Array<{ change: string; settings: Record<string, unknown> }> = [
  { change: 'searchableAttributes reordered', settings: { searchableAttributes: ['description', 'title', 'tags'] } },
  { change: 'stopWords', settings: { stopWords: ['the', 'and', 'of'] } },
  { change: 'synonyms', settings: { synonyms: { cold: ['chill', 'freezing'], fast: ['quick', 'rapid'], boat: ['ship'], road: ['path', 'lane'] } } },
  { change: 'typoTolerance.minWordSizeForTypos', settings: { typoTolerance: { minWordSizeForTypos: { oneTypo: 4, twoTypos: 8 } } } },
  { change: 'filterableAttributes', settings: { filterableAttributes: ['price', 'tags', 'published'] } },
  { change: 'sortableAttributes', settings: { sortableAttributes: ['price'] } },
  { change: 'proximityPrecision byAttribute', settings: { proximityPrecision: 'byAttribute' } },
  { change: 'separatorTokens', settings: { separatorTokens: ['|', '+'] } },
  { change: 'dictionary', settings: { dictionary: ['amber cobalt', 'crimson velvet', 'sea salt'] } },
]

/** Part 3: index a corpus, then time each settings change. */
async function runReindex(options: TasksOptions, target: Target, r: ReindexResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_reindex')
  await createIndex(target, uid)
  await patchSettings(target, uid, { searchableAttributes: ['title', 'description', 'tags'] }, 'searchableAttributes')
  const lines: string[] = []
  for (const doc of generateDocuments(options.reindexDocuments, options.seed ^ 0x2e1)) lines.push(JSON.stringify(doc))
  const payload = Buffer.from(lines.join('\n') + '\n')
  r.payloadBytes = payload.length

  const indexBar = progress(`tasks, indexing ${options.reindexDocuments.toLocaleString('en-US')} documents for the reindex part`, 1)
  await tracked(indexBar, async () => {
    const t0 = performance.now()
    await expectTask(target, 'POST', `/indexes/${encodeURIComponent(uid)}/documents`, payload, SETTINGS_TIMEOUT_MS, 'indexing', POLL_MS)
    r.indexingSeconds = (performance.now() - t0) / 1000
    r.indexingDocumentsPerSecond = options.reindexDocuments / r.indexingSeconds
  })
  indexBar.done(`${r.indexingSeconds!.toFixed(2)} s, ${Math.round(r.indexingDocumentsPerSecond!)} docs/s`)

  const bar = progress('tasks, settings changes', REINDEX_CHANGES.length)
  for (const [i, { change, settings }] of REINDEX_CHANGES.entries()) {
    bar.update(i, change)
    const c: ReindexChange = { change, settings, ok: false, wallSeconds: null, taskSeconds: null, documentsPerSecond: null }
    r.changes.push(c)
    try {
      const t0 = performance.now()
      const task = await patchSettings(target, uid, settings, change)
      c.wallSeconds = (performance.now() - t0) / 1000
      c.taskSeconds = durationSeconds(task.duration ?? null)
      c.documentsPerSecond = options.reindexDocuments / c.wallSeconds
      c.ok = true
    } catch (err) {
      c.error = message(err)
    }
  }
  const failed = r.changes.filter((c) => !c.ok)
  bar.done(failed.length === 0
    ? r.changes.map((c) => `${c.change} ${c.wallSeconds!.toFixed(2)} s`).join(', ')
    : `${failed.length} FAILED: ${failed.map((c) => `${c.change}: ${c.error}`).join('; ')}`)
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  const memory = memoryOf(target.pid)
  r.peakRssMiB = memory.hwmMiB
  r.rssMiB = memory.rssMiB
  const problems = [
    ...failed.map((c) => `${c.change}: ${c.error}`),
    ...(r.numberOfDocuments !== options.reindexDocuments ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${options.reindexDocuments}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}

/** Run one part against its own target; its failure is recorded in `r`, never thrown. */
async function runPart<R extends { ok: boolean; error?: string; totalSeconds: number }>(
  part: string, open: (part: string) => Promise<Target>, r: R, body: (target: Target, r: R) => Promise<void>,
): Promise<R> {
  const t0 = performance.now()
  let target: Target | null = null
  try {
    target = await open(part)
    await body(target, r)
    r.ok = true
  } catch (err) {
    r.ok = false
    r.error = message(err)
    process.stderr.write(`bench: tasks, ${part} FAILED: ${r.error}\n`)
  } finally {
    if (target) await target.close().catch((err) => process.stderr.write(`bench: tasks, ${part}: closing the target failed: ${message(err)}\n`))
  }
  r.totalSeconds = (performance.now() - t0) / 1000
  return r
}

/** The whole scenario; failures of the service are reported in the result, not thrown. */
export async function runTasks(options: TasksOptions, open: (part: string) => Promise<Target>): Promise<TasksResult> {
  const started = performance.now()
  const settingsTasks = options.settingsEvery > 0 ? Math.floor(options.mixedTasks / options.settingsEvery) : 0
  const documentTasks = options.mixedTasks - settingsTasks
  const oneDoc: OneDocResult = {
    ok: false, indexUid: '', tasks: options.oneDocTasks, clients: options.clients,
    registrationSeconds: null, registrationTasksPerSecond: null, registrationLatencyMs: null, registrationErrors: 0,
    processingSeconds: null, processingTasksPerSecond: null, drainSeconds: null, serverSpanSeconds: null, serverTasksPerSecond: null,
    queueWaitSeconds: null, batches: null, tasksPerBatch: null, firstBatches: [], batchBusySeconds: null,
    succeeded: null, failed: null, canceled: null, numberOfDocuments: null,
    serverCpuRegistrationPercent: null, serverCpuDrainPercent: null, benchCpuPercent: null, otherCpuPercent: null,
    targetTasksPerSecond: ONE_DOC_TARGET.tasksPerSecond, targetMet: null, peakRssMiB: null, totalSeconds: 0,
  }
  const mixed: MixedResult = {
    ok: false, indexUid: '', tasks: options.mixedTasks, clients: options.clients, documentTasks, settingsTasks,
    documentsPerTask: MIXED_DOCUMENTS_PER_TASK, documents: documentTasks * MIXED_DOCUMENTS_PER_TASK,
    registrationSeconds: null, registrationTasksPerSecond: null, registrationErrors: 0,
    wallSeconds: null, tasksPerSecond: null, documentsPerSecond: null, serverSpanSeconds: null,
    batches: null, settingsBatches: null, documentBatches: null, tasksPerDocumentBatch: null, settingsBatchSeconds: null, documentBatchSeconds: null,
    succeeded: null, failed: null, canceled: null, numberOfDocuments: null, peakRssMiB: null, totalSeconds: 0,
  }
  const reindex: ReindexResult = {
    ok: false, indexUid: '', documents: options.reindexDocuments, payloadBytes: null, indexingSeconds: null, indexingDocumentsPerSecond: null,
    changes: [], numberOfDocuments: null, peakRssMiB: null, rssMiB: null, totalSeconds: 0,
  }
  await runPart('one-doc', open, oneDoc, (t, r) => runOneDoc(options, t, r))
  await runPart('mixed', open, mixed, (t, r) => runMixed(options, t, r))
  await runPart('reindex', open, reindex, (t, r) => runReindex(options, t, r))
  return { options, oneDoc, mixed, reindex, totalSeconds: (performance.now() - started) / 1000 }
}

/** Failures of the service (not misses of the target): a part that errored, a task that failed, a wrong count. */
export function tasksFailures(r: TasksResult): string[] {
  const out: string[] = []
  if (!r.oneDoc.ok) out.push(`one-document tasks: ${r.oneDoc.error ?? 'failed'}`)
  if (!r.mixed.ok) out.push(`mixed tasks: ${r.mixed.error ?? 'failed'}`)
  if (!r.reindex.ok) out.push(`settings-driven reindex: ${r.reindex.error ?? 'failed'}`)
  return out
}

/** Rows for a bar chart: the wall time of each settings change of the reindex part. */
export function tasksSeries(r: TasksResult): { reindex: Array<{ change: string; seconds: number }> } {
  return { reindex: r.reindex.changes.filter((c) => c.ok && c.wallSeconds !== null).map((c) => ({ change: c.change, seconds: c.wallSeconds! })) }
}

const num = (n: number | null | undefined, digits = 2) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits))
const int = (n: number | null | undefined) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US'))
const pct = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${Math.round(n)} %`)

export function renderTasksMarkdown(r: TasksResult): string {
  const o = r.oneDoc
  const m = r.mixed
  const x = r.reindex
  const lines: string[] = [
    '## Task throughput',
    '',
    `How fast the service registers many small tasks and works through them (autobatching), and how long settings changes take to reindex an index. Each part ran against its own fresh server; whole scenario ${num(r.totalSeconds, 1)} s.`,
    '',
    `### One-document tasks (${int(o.tasks)} tasks, ${o.clients} clients)`,
    '',
    `${int(o.tasks)} POSTs of a one-document JSON array to one index, from ${o.clients} concurrent keep-alive clients. Registration: first send → last 202. Processing: first send → every task seen ended (polled every ${POLL_MS} ms); service span: earliest \`startedAt\` → latest \`finishedAt\`. Target: ${int(ONE_DOC_TARGET.tasks)} tasks in ≤ ${ONE_DOC_TARGET.seconds} s, i.e. ≥ ${int(ONE_DOC_TARGET.tasksPerSecond)} tasks/s on the processing time.`,
    '',
  ]
  if (!o.ok) lines.push(`**Failed:** ${o.error}`, '')
  lines.push(
    '| Figure | Value |',
    '|---|---:|',
    `| Registration, s | ${num(o.registrationSeconds)} |`,
    `| Registration, tasks/s | ${int(o.registrationTasksPerSecond)} |`,
    `| POST round trip p50 / p95 / p99, ms | ${num(o.registrationLatencyMs?.p50)} / ${num(o.registrationLatencyMs?.p95)} / ${num(o.registrationLatencyMs?.p99)} |`,
    `| Processing (first send → all ended), s | ${num(o.processingSeconds)} |`,
    `| Processing, tasks/s | ${int(o.processingTasksPerSecond)} |`,
    `| Drain (last 202 → all ended), s | ${num(o.drainSeconds)} |`,
    `| Service span (first start → last finish), s | ${num(o.serverSpanSeconds)} |`,
    `| Service span, tasks/s | ${int(o.serverTasksPerSecond)} |`,
    `| Batches | ${int(o.batches)} |`,
    `| Tasks per batch, min / mean / max | ${o.tasksPerBatch ? `${o.tasksPerBatch.min} / ${num(o.tasksPerBatch.mean, 1)} / ${o.tasksPerBatch.max}` : '–'} |`,
    `| Time inside batches (sum) / between them, s | ${num(o.batchBusySeconds)} / ${num(o.serverSpanSeconds === null || o.batchBusySeconds === null ? null : o.serverSpanSeconds - o.batchBusySeconds)} |`,
    `| Failed / canceled tasks | ${o.failed ?? '–'} / ${o.canceled ?? '–'} |`,
    `| numberOfDocuments | ${int(o.numberOfDocuments)} |`,
    `| Server CPU, registration / drain | ${pct(o.serverCpuRegistrationPercent)} / ${pct(o.serverCpuDrainPercent)} |`,
    `| Bench clients CPU / other processes | ${pct(o.benchCpuPercent)} / ${pct(o.otherCpuPercent)} |`,
    `| Peak RSS, MiB | ${num(o.peakRssMiB, 0)} |`,
    `| Target ≥ ${int(o.targetTasksPerSecond)} tasks/s | ${o.targetMet === null ? '–' : o.targetMet ? 'met' : '**missed**'} |`,
    '',
  )
  if (o.firstBatches.length > 0) {
    const shown = o.firstBatches.map((b) => `${b.tasks} (${num(b.seconds)} s)`).join(', ')
    lines.push(`Batches in order, tasks (seconds): ${shown}${(o.batches ?? 0) > o.firstBatches.length ? ', …' : ''}. CPU figures are % of one core.`, '')
  }
  lines.push(
    `### Mixed document and settings tasks (${int(m.tasks)} tasks)`,
    '',
    `${int(m.documentTasks)} additions of ${m.documentsPerTask} documents and ${int(m.settingsTasks)} settings updates (every ${r.options.settingsEvery}th task; filterableAttributes, stopWords, rankingRules, typoTolerance, synonyms in turn) to one index from ${m.clients} clients. A settings task is never batched with additions, so each one ends a batch; those that change what is indexed (filterable attributes, stop words) also reindex the documents already there.`,
    '',
  )
  if (!m.ok) lines.push(`**Failed:** ${m.error}`, '')
  lines.push(
    '| Figure | Value |',
    '|---|---:|',
    `| Registration, s (tasks/s) | ${num(m.registrationSeconds)} (${int(m.registrationTasksPerSecond)}) |`,
    `| First send → all ended, s | ${num(m.wallSeconds)} |`,
    `| Tasks/s | ${int(m.tasksPerSecond)} |`,
    `| Documents/s | ${int(m.documentsPerSecond)} |`,
    `| Service span, s | ${num(m.serverSpanSeconds)} |`,
    `| Batches: with settings / additions only | ${int(m.settingsBatches)} / ${int(m.documentBatches)} |`,
    `| Tasks per addition batch, min / mean / max | ${m.tasksPerDocumentBatch ? `${m.tasksPerDocumentBatch.min} / ${num(m.tasksPerDocumentBatch.mean, 1)} / ${m.tasksPerDocumentBatch.max}` : '–'} |`,
    `| Time in settings batches / addition batches, s | ${num(m.settingsBatchSeconds)} / ${num(m.documentBatchSeconds)} |`,
    `| Failed / canceled tasks | ${m.failed ?? '–'} / ${m.canceled ?? '–'} |`,
    `| numberOfDocuments (expected ${int(m.documents)}) | ${int(m.numberOfDocuments)} |`,
    `| Peak RSS, MiB | ${num(m.peakRssMiB, 0)} |`,
    '',
    `### Settings-driven reindex (${int(x.documents)} documents)`,
    '',
    `The documents indexed in one NDJSON payload (${x.payloadBytes === null ? '–' : `${num(x.payloadBytes / 1e6, 1)} MB`}) with searchableAttributes title, description, tags: ${num(x.indexingSeconds)} s, ${int(x.indexingDocumentsPerSecond)} documents/s. Then each change below in turn, timed from the PATCH to its task seen \`succeeded\` (wall) and by the task's own \`duration\`; documents/s on the wall time.`,
    '',
  )
  if (!x.ok) lines.push(`**Failed:** ${x.error}`, '')
  lines.push('| Change | Wall, s | Task duration, s | Documents/s |', '|---|---:|---:|---:|')
  for (const c of x.changes) lines.push(`| ${c.change} | ${c.ok ? num(c.wallSeconds) : `failed: ${c.error}`} | ${num(c.taskSeconds)} | ${int(c.documentsPerSecond)} |`)
  lines.push('', `Server peak RSS (VmHWM) after the part: ${num(x.peakRssMiB, 0)} MiB (current ${num(x.rssMiB, 0)} MiB).`, '')
  return lines.join('\n')
}
