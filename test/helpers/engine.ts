/** The in-process engine in tests: a data directory removed at teardown, a pool, waiting for tasks, payloads. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addDocuments, getTask, type Engine } from '../../engine/index.js'
import type { EnqueuedTask, TaskView } from '../../engine/tasks/types.js'
import type { WorkerPool } from '../../engine/pool/index.js'
import { createWorkerPool } from '../../workers/pool.js'

interface Teardown { teardown(fn: () => unknown): void }

/** A fresh data directory, removed when the test ends. */
export function dataDir(t: Teardown, prefix = 'tessera-engine-'): string {
  const path = mkdtempSync(join(tmpdir(), prefix))
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  return path
}

/** A worker pool as the service has, closed when the test ends (inline indexing is several times slower). */
export function pooled(t: Teardown, threads = 2): WorkerPool {
  const pool = createWorkerPool(threads)
  t.teardown(() => pool.close())
  return pool
}

const FINISHED = ['succeeded', 'failed', 'canceled']

/** Wait until the task is finished; fail after `timeoutMs` (generous: tests run on busy machines). */
export async function settle(engine: Engine, uid: number, timeoutMs = 120_000): Promise<TaskView> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const task = getTask(engine, uid)
    if (FINISHED.includes(task.status)) return task
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`task ${uid} did not finish in ${timeoutMs} ms`)
}

/** Wait until `cond()` holds. */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5))
}

/** A one-chunk payload stream. */
export function payload(body: object[] | string): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
  return (async function* () { yield bytes })()
}

/** Add (replace) JSON documents to an index, primary key `id`, creating it if needed. */
export function addJson(engine: Engine, uid: string, body: object[] | string): Promise<EnqueuedTask> {
  return addDocuments(engine, uid, payload(body), { method: 'replace', format: 'json', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true })
}
