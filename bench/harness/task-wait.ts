/**
 * Waiting for tasks, the way a client of the API would: poll `GET /tasks/{uid}` (one task) or `GET /tasks?uids=…`
 * (a run's tasks, with the moments they were seen ended, for throughput figures), every wait with a deadline so
 * that a stuck service fails the step instead of hanging the bench.
 */
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { processCpuMs, systemIdleMs } from './cpu.js'
import { call, type Endpoint } from './requests.js'

/**
 * Wait until task `uid` has ended (succeeded, failed or canceled), polling every `pollMs`; throws after
 * `timeoutMs`. Returns the task object.
 */
export async function waitTask(endpoint: Endpoint, uid: number, timeoutMs = 600_000, pollMs = 20): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { status, body } = await call(endpoint, 'GET', `/tasks/${uid}`)
    if (status === 200 && ['succeeded', 'failed', 'canceled'].includes(body?.status)) return body
    if (status !== 200 && status !== 404) throw new Error(`GET /tasks/${uid} answered ${status}: ${JSON.stringify(body)}`)
    if (Date.now() > deadline) throw new Error(`task ${uid} did not end within ${timeoutMs / 1000} s`)
    await sleep(pollMs)
  }
}

/**
 * A write that registers a task (`body` JSON, or a Buffer sent as NDJSON): expect its 202, wait for the task, and
 * throw unless it succeeded (`what` names it in the error). Returns the ended task.
 */
export async function expectTask(endpoint: Endpoint, method: string, path: string, body: unknown, timeoutMs: number, what = `${method} ${path}`, pollMs = 20): Promise<Record<string, any>> {
  const { status, body: reply } = await call(endpoint, method, path, body, Math.min(timeoutMs, 300_000))
  if (status !== 202 || typeof reply?.taskUid !== 'number') throw new Error(`${what}: ${method} ${path} answered ${status}: ${JSON.stringify(reply).slice(0, 300)}`)
  const task = await waitTask(endpoint, reply.taskUid, timeoutMs, pollMs)
  if (task.status !== 'succeeded') throw new Error(`${what}: task ${reply.taskUid} ${task.status}${task.error ? ` (${task.error.code}: ${task.error.message})` : ''}`)
  return task
}

/** A task as `GET /tasks` shows it (the fields the throughput figures use). */
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

export interface TaskWaitOptions {
  pollMs: number
  /** Longest wait for the tasks to finish. */
  taskTimeoutMs: number
  /**
   * The wait fails early as stalled when the tasks are still unfinished and the server used less than
   * `stallCpuPercent` % of a core over the last `stallMs` (answering the polls takes ~2 %; a batch being
   * computed takes 90 % or more, RocksDB's background compactions after it some tens of %) while the machine had
   * at least half a core idle: a server starved of CPU on a saturated machine (a load average of 17 on 2 cores gave
   * a batch 15 % of a core) or waiting on a busy disk (its fsync: iowait, not idle) is slow, not hung, and is left
   * to `taskTimeoutMs`.
   */
  stallMs: number
  stallCpuPercent: number
}

/**
 * Whether a server that used `serverPercent` % of a core over a window, while the machine had `idleCores` cores
 * idle with nothing waiting on a disk (null: unknown), looks hung rather than starved or waiting on I/O.
 */
export function looksHung(serverPercent: number, idleCores: number | null, stallCpuPercent: number): boolean {
  return serverPercent < stallCpuPercent && (idleCores === null || idleCores >= 0.5)
}

/** The stall detection every indexing wait uses. */
export const STALL_DETECTION: Pick<TaskWaitOptions, 'stallMs' | 'stallCpuPercent'> = { stallMs: 10_000, stallCpuPercent: 15 }

/**
 * Poll the tasks every `pollMs` until none is enqueued or processing; resolves with their final views, the
 * performance.now() and the wall clock of the poll that saw them ended. `pid` (null: not ours) is watched for stalls.
 */
export async function waitForTasks(server: Endpoint & { pid: number | null }, uids: number[], options: TaskWaitOptions): Promise<{ tasks: TaskView[]; at: number; wallAt: number }> {
  const { pollMs, taskTimeoutMs: timeoutMs, stallMs, stallCpuPercent } = options
  const deadline = performance.now() + timeoutMs
  // Server CPU and machine idle samples [time, server cpu ms, machine idle ms], to tell a slow batch from a hung one.
  const cpu: [number, number, number | null][] = []
  const path = uids.length === 1 ? `/tasks/${uids[0]}` : `/tasks?uids=${uids.join(',')}&limit=${uids.length}`
  let last: TaskView[] = []
  while (true) {
    const { status, body } = await call(server, 'GET', path, undefined, 30_000)
    const at = performance.now()
    const wallAt = Date.now()
    if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
    last = uids.length === 1 ? [body as TaskView] : ((body as { results: TaskView[] }).results)
    if (last.length === uids.length && last.every((t) => t.status !== 'enqueued' && t.status !== 'processing')) return { tasks: last, at, wallAt }
    const state = last.map((t) => `${t.uid} ${t.status}`).join(', ')
    if (at > deadline) throw new Error(`tasks not finished after ${timeoutMs / 1000} s: ${state}`)
    const used = server.pid === null ? null : processCpuMs(server.pid)
    if (used !== null) {
      const idle = systemIdleMs()
      cpu.push([at, used, idle])
      while (cpu.length > 1 && at - cpu[1]![0] >= stallMs) cpu.shift()
      const [t0, c0, idle0] = cpu[0]!
      const percent = (100 * (used - c0)) / (at - t0)
      const idleCores = idle === null || idle0 === null ? null : (idle - idle0) / (at - t0)
      if (at - t0 >= stallMs && looksHung(percent, idleCores, stallCpuPercent)) {
        throw new Error(`stalled: tasks ${state}, and the server used ${percent.toFixed(0)} % of a core over the last ${(stallMs / 1000).toFixed(0)} s while ${idleCores === null ? 'the machine' : `${idleCores.toFixed(1)} cores`} sat idle (a hung batch? errors the scheduler logs below WARN are not shown: rerun the server with --log-level INFO)`)
      }
    }
    await sleep(pollMs)
  }
}

/** The timings of a run's tasks, from their own dates. */
export interface TaskTimings {
  batchUids: number[]
  /** The service's own processing time: earliest `startedAt` → latest `finishedAt`, seconds. */
  taskSpanSeconds: number | null
  /** Queue wait: earliest `enqueuedAt` → earliest `startedAt`, seconds. */
  taskWaitSeconds: number | null
  /**
   * Latest `finishedAt` → the poll that saw every task `succeeded` (wall clock, ±pollMs), seconds: the service sets
   * `finishedAt` before the batch's final commit, so this is mostly that commit (and the fsync) and publishing.
   */
  commitLagSeconds: number | null
}

/** Batches and timings of finished tasks (seen succeeded at `wallAt`); throws when one did not succeed. */
export function taskTimings(tasks: TaskView[], wallAt: number): TaskTimings {
  const failed = tasks.filter((t) => t.status !== 'succeeded')
  if (failed.length > 0) throw new Error(`task(s) ${failed.map((t) => `${t.uid} ${t.status}${t.error ? ` (${t.error.code}: ${t.error.message})` : ''}`).join('; ')}`)
  const out: TaskTimings = {
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
