/**
 * Test harness: start the real service (compiled, as `npm start` runs it) on a free port with a fresh data
 * directory, and talk to it over HTTP. `npm test` builds dist/ first (pretest).
 */
import { spawnSync, type ChildProcess, type SpawnSyncOptionsWithStringEncoding, type SpawnSyncReturns } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Meilisearch } from 'meilisearch'
import { launch, nodeCommand, ROOT, MAIN } from '../../bench/harness/server.js'

export { ROOT, MAIN, nodeCommand }

export interface TestServer {
  url: string
  port: number
  dbPath: string
  proc: ChildProcess
  client: Meilisearch
  /** Everything the server wrote to stderr (logs). */
  logs(): string
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>
  /** SIGKILL (kill -9) and wait for exit. */
  kill9(): Promise<void>
}

export interface StartOptions {
  dbPath?: string
  args?: string[]
  env?: Record<string, string>
  adapter?: 'uws' | 'node'
}

/**
 * The official client as tests use it: `waitTask()` waits up to 60 s (the client's own default, 5 s, is a timing
 * assumption a busy machine overruns: an embedding task behind a cancelation took longer under `chaos load`).
 */
export function clientFor(host: string, apiKey?: string): Meilisearch {
  return new Meilisearch({ host, ...(apiKey === undefined ? {} : { apiKey }), defaultWaitOptions: { timeout: 60_000 } })
}

/** `node args` run to its end, without tap's process tracker (see nodeCommand): the CLI's runs that exit at once. */
export function nodeSync(args: string[], options: Partial<SpawnSyncOptionsWithStringEncoding> = {}): SpawnSyncReturns<string> {
  const node = nodeCommand(args)
  return spawnSync(node.command, node.args, { ...options, encoding: 'utf8' })
}

/** Directories made by tempDir, removed when the test process exits (whether or not a test removed them first). */
const made = new Set<string>()

/** A fresh temporary directory, gone once the test file's process exits. */
export function tempDir(prefix = 'tessera-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  if (made.size === 0) process.once('exit', () => { for (const d of made) rmSync(d, { recursive: true, force: true }) })
  made.add(dir)
  return dir
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dbPath = options.dbPath ?? tempDir()
  const args = ['--db-path', dbPath, '--max-indexing-threads', '2', ...(options.adapter ? ['--http-adapter', options.adapter] : []), ...(options.args ?? [])]
  // Dumps and snapshots go inside the test's data directory (removed with it), not into the working directory;
  // a test that wants them elsewhere passes --dump-dir / --snapshot-dir, which win over these variables.
  const places = { TESSERA_DUMP_DIR: join(dbPath, 'dumps'), TESSERA_SNAPSHOT_DIR: join(dbPath, 'snapshots') }
  const { proc, port, logs, exited, isRunning } = await launch(args, { TESSERA_LOG_LEVEL: 'WARN', ...places, ...options.env })
  const url = `http://127.0.0.1:${port}`
  return {
    url, port, dbPath, proc,
    client: clientFor(url),
    logs,
    async stop() {
      if (isRunning()) proc.kill('SIGTERM')
      return exited
    },
    async kill9() {
      if (isRunning()) proc.kill('SIGKILL')
      await exited
    },
  }
}

/** Start a server for the duration of a tap test (stopped and its data removed at teardown). */
export async function serverFor(t: { teardown(fn: () => unknown): void }, options: StartOptions = {}): Promise<TestServer> {
  const server = await startServer(options)
  t.teardown(async () => {
    await server.stop()
    if (!options.dbPath) rmSync(server.dbPath, { recursive: true, force: true })
  })
  return server
}

export interface FetchResult {
  status: number
  headers: Headers
  text: string
  body: any
}

/** fetch, with the body read and parsed as JSON when it is JSON. */
export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<FetchResult> {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const res = await fetch(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body })
  const text = await res.text()
  let body: unknown = undefined
  try { body = text ? JSON.parse(text) : undefined } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, text, body }
}

/** Poll a task until it is finished. */
export async function waitTask(url: string, uid: number, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const { body } = await call(`${url}/tasks/${uid}`)
    if (body && ['succeeded', 'failed', 'canceled'].includes(body.status)) return body
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`task ${uid} did not finish in ${timeoutMs} ms`)
}

/** Wait until task `uid` has `status` (e.g. `processing`, while a batch gate holds it); resolves with the task. */
export async function waitStatus(url: string, uid: number, status: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const { body } = await call(`${url}/tasks/${uid}`)
    if (body?.status === status) return body
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`task ${uid} never reached ${status} in ${timeoutMs} ms`)
}

/** `PATCH /indexes/{uid}/settings` (when `settings` has fields); resolves with the task uid, or null. */
async function patchSettingsTask(url: string, uid: string, settings: Record<string, unknown>): Promise<number | null> {
  if (Object.keys(settings).length === 0) return null
  const r = await call(`${url}/indexes/${uid}/settings`, { method: 'PATCH', json: settings })
  if (r.status !== 202) throw new Error(`settings: ${r.status} ${r.text}`)
  return r.body.taskUid
}

async function expectSucceeded(url: string, uids: (number | null)[]): Promise<void> {
  for (const uid of uids) {
    if (uid === null) continue
    const task = await waitTask(url, uid)
    if (task.status !== 'succeeded') throw new Error(`task ${uid} ${task.status}: ${JSON.stringify(task.error)}`)
  }
}

/** Update an index's settings and wait until the task succeeded. */
export async function updateSettings(url: string, uid: string, settings: Record<string, unknown>): Promise<void> {
  await expectSucceeded(url, [await patchSettingsTask(url, uid, settings)])
}

/** Create an index with these settings (may be empty) and documents (primary key `id`); waits until both succeeded. */
export async function seedIndex(url: string, uid: string, settings: Record<string, unknown>, docs: unknown[]): Promise<void> {
  const settingsTask = await patchSettingsTask(url, uid, settings)
  const r = await call(`${url}/indexes/${uid}/documents?primaryKey=id`, { method: 'POST', json: docs })
  if (r.status !== 202) throw new Error(`documents: ${r.status} ${r.text}`)
  await expectSucceeded(url, [settingsTask, r.body.taskUid])
}
