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
import { call, type Endpoint } from './requests.js'
import { waitTask } from './task-wait.js'

export interface Remote {
  url: string
  /** Sent as `Authorization: Bearer …` when set (`--api-key`). */
  apiKey: string | null
}

export interface Target extends Endpoint {
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
