/**
 * Where the HTTP scenarios send their requests: a Tessera server the bench starts for the scenario (its own process
 * and fresh data directory, so its CPU and memory can be read from /proc), or an already running server given with
 * `--url` (Tessera or any Meilisearch-compatible engine), whose process the bench cannot see.
 *
 * On a remote target every index a scenario creates has a unique uid (`bench-<scenario>-<time>-<n>`) and is
 * deleted when the scenario closes the target, so a run never touches the server's other indexes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startServer, type StartOptions } from './server.js'
import { readStatus } from './documents.js'

export interface Remote {
  url: string
  /** Sent as `Authorization: Bearer …` when set (`--api-key`). */
  apiKey: string | null
}

export interface Target {
  /** Base URL without a trailing slash. */
  url: string
  /** The server's pid when the bench started it (RSS and CPU readable), null for `--url`. */
  pid: number | null
  remote: boolean
  /** Request headers every call must carry (authorization on a remote target). */
  headers: Record<string, string>
  /** A uid for a new index of this scenario: `name` on a fresh local server, unique on a remote one. */
  indexUid(name: string): string
  /** Stop the local server and remove its data (or delete the scenario's indexes on a remote one). */
  close(): Promise<void>
}

let uidCounter = 0

/**
 * A fresh local server (in a new directory under `dataParent`), or the remote server. `start` passes extra options
 * (server flags, environment) to a local server.
 */
export async function openTarget(remote: Remote | null, dataParent: string, scenario: string, start: Partial<StartOptions> = {}): Promise<Target> {
  if (remote) {
    const url = remote.url.replace(/\/+$/, '')
    const headers: Record<string, string> = remote.apiKey ? { authorization: `Bearer ${remote.apiKey}` } : {}
    const created: string[] = []
    const target: Target = {
      url, pid: null, remote: true, headers,
      indexUid(name) {
        const uid = `bench-${scenario}-${name}-${Date.now().toString(36)}-${++uidCounter}`.replace(/[^A-Za-z0-9_-]/g, '_')
        created.push(uid)
        return uid
      },
      async close() {
        // Deleted, and waited for: the scenario leaves the server as it found it.
        for (const uid of created) {
          try {
            const { status, body } = await call(target, 'DELETE', `/indexes/${uid}`, undefined, 10_000)
            if (status === 202 && typeof body?.taskUid === 'number') await waitTask(target, body.taskUid, 60_000)
          } catch {
            // Best effort: a server that went away keeps the index.
          }
        }
      },
    }
    return target
  }
  const dbPath = mkdtempSync(join(dataParent, `${scenario}-`))
  const server = await startServer({ adapter: 'uws', ...start, dbPath })
  return {
    url: server.url, pid: server.pid, remote: false, headers: {},
    indexUid: (name) => name,
    async close() {
      await server.stop({ keepData: true })
      rmSync(dbPath, { recursive: true, force: true })
    },
  }
}

/** A JSON request to the target; throws on a network error, returns the status and parsed body otherwise. */
export async function call<T = any>(target: Target, method: string, path: string, body?: unknown, timeoutMs = 60_000): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { ...target.headers }
  let payload: string | Buffer | undefined
  if (body !== undefined) {
    payload = Buffer.isBuffer(body) ? body : JSON.stringify(body)
    headers['content-type'] = Buffer.isBuffer(body) ? 'application/x-ndjson' : 'application/json'
  }
  const res = await fetch(`${target.url}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) })
  const text = await res.text()
  let parsed: unknown = null
  try { parsed = text.length > 0 ? JSON.parse(text) : null } catch { parsed = text }
  return { status: res.status, body: parsed as T }
}

/**
 * Wait until task `uid` has ended (succeeded, failed or canceled), polling every `pollMs`; throws after
 * `timeoutMs`. Returns the task object.
 */
export async function waitTask(target: Target, uid: number, timeoutMs = 600_000, pollMs = 20): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { status, body } = await call(target, 'GET', `/tasks/${uid}`)
    if (status === 200 && ['succeeded', 'failed', 'canceled'].includes(body?.status)) return body
    if (status !== 200 && status !== 404) throw new Error(`GET /tasks/${uid} answered ${status}: ${JSON.stringify(body)}`)
    if (Date.now() > deadline) throw new Error(`task ${uid} did not end within ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, pollMs))
  }
}

/**
 * A write that registers a task (`body` JSON, or a Buffer sent as NDJSON): expect its 202, wait for the task, and
 * throw unless it succeeded (`what` names it in the error). Returns the ended task.
 */
export async function expectTask(target: Target, method: string, path: string, body: unknown, timeoutMs: number, what = `${method} ${path}`, pollMs = 20): Promise<Record<string, any>> {
  const { status, body: reply } = await call(target, method, path, body, Math.min(timeoutMs, 300_000))
  if (status !== 202 || typeof reply?.taskUid !== 'number') throw new Error(`${what}: ${method} ${path} answered ${status}: ${JSON.stringify(reply).slice(0, 300)}`)
  const task = await waitTask(target, reply.taskUid, timeoutMs, pollMs)
  if (task.status !== 'succeeded') throw new Error(`${what}: task ${reply.taskUid} ${task.status}${task.error ? ` (${task.error.code}: ${task.error.message})` : ''}`)
  return task
}

/** The process's peak and current resident memory in MiB (VmHWM, VmRSS), or nulls (a remote target, or no /proc). */
export function memoryOf(pid: number | null): { hwmMiB: number | null; rssMiB: number | null } {
  if (pid === null) return { hwmMiB: null, rssMiB: null }
  const { hwm, rss } = readStatus(pid)
  return { hwmMiB: hwm === null ? null : hwm / 1024, rssMiB: rss === null ? null : rss / 1024 }
}
