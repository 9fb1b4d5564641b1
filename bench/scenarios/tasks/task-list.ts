/**
 * The tasks scenario's view of the task queue: waiting until an index has no unfinished task, reading its tasks
 * back in pages, and what they tell (the service's own span, the batches autobatching made, failures).
 */
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Progress } from '../../harness/progress.js'
import { call } from '../../harness/requests.js'
import type { Target } from '../../harness/target.js'
import { POLL_MS, REQUEST_TIMEOUT_MS, WAIT_ALL_TIMEOUT_MS } from './options.js'
import type { BatchSizes } from './types.js'

/** A task as `GET /tasks` lists it (the fields used here). */
export interface TaskRow {
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

/**
 * Poll the index's unfinished tasks (`statuses=enqueued,processing`, read from `total`) until there are none;
 * resolves with performance.now() of the poll that saw none. Throws after `timeoutMs`.
 */
export async function waitAllEnded(target: Target, indexUid: string, expected: number, bar: Progress, timeoutMs = WAIT_ALL_TIMEOUT_MS): Promise<number> {
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
export async function readTasks(target: Target, indexUid: string, uids: number[]): Promise<TaskRow[]> {
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

export interface BatchInfo {
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
export function taskFigures(rows: TaskRow[]): TaskFigures {
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

export function batchSizes(batches: BatchInfo[]): BatchSizes | null {
  if (batches.length === 0) return null
  const sizes = batches.map((b) => b.tasks)
  return { min: Math.min(...sizes), mean: sizes.reduce((a, b) => a + b, 0) / sizes.length, max: Math.max(...sizes) }
}
