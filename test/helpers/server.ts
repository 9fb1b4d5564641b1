/**
 * Test harness: start the real service (compiled, as `npm start` runs it) on a free port with a fresh data
 * directory, and talk to it over HTTP. `npm test` builds dist/ first (pretest).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Meilisearch } from 'meilisearch'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const MAIN = join(ROOT, 'dist', 'src', 'main.js')

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

export function tempDir(prefix = 'tessera-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dbPath = options.dbPath ?? tempDir()
  const args = [MAIN, '--http-addr', '127.0.0.1:0', '--db-path', dbPath, '--max-indexing-threads', '2', ...(options.adapter ? ['--http-adapter', options.adapter] : []), ...(options.args ?? [])]
  const proc = spawn(process.execPath, args, { env: { ...process.env, TESSERA_LOG_LEVEL: 'WARN', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  proc.stderr!.on('data', (d) => (stderr += d))
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`server did not start in time: ${stderr}`)), 20_000)
    proc.stdout!.on('data', (d) => {
      out += d
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out)
      if (m) { clearTimeout(timer); resolve(Number(m[1])) }
    })
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${stderr}`)) })
  })
  const url = `http://127.0.0.1:${port}`
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  return {
    url, port, dbPath, proc,
    client: new Meilisearch({ host: url }),
    logs: () => stderr,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM')
      return exited
    },
    async kill9() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
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
