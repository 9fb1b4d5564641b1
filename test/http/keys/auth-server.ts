/** Helpers of the keys HTTP tests: a server with a master key, requests made with a given key, keys made by it. */
import type { Meilisearch } from 'meilisearch'
import { call, clientFor, serverFor, type FetchResult, type StartOptions, type TestServer } from '../../helpers/server.js'

export const MASTER_KEY = 'MASTER_KEY'

export interface AuthServer extends TestServer {
  /** fetch `path` with `Authorization: Bearer <key>` (no header when key is null). */
  as(key: string | null, path: string, init?: RequestInit & { json?: unknown }): Promise<FetchResult>
  /** A client using this key. */
  clientWith(key: string): Meilisearch
  /** Create a key with the master key; resolves with its `{uid, key}`. */
  createKey(body: Record<string, unknown>): Promise<{ uid: string; key: string }>
  /** Wait for a task with the master key. */
  wait(taskUid: number): Promise<any>
}

export async function authServerFor(t: Parameters<typeof serverFor>[0], options: StartOptions & { masterKey?: string } = {}): Promise<AuthServer> {
  const masterKey = options.masterKey ?? MASTER_KEY
  const server = await serverFor(t, { ...options, args: ['--master-key', masterKey, ...(options.args ?? [])] })
  const as: AuthServer['as'] = (key, path, init = {}) => {
    const headers = new Headers(init.headers)
    if (key !== null) headers.set('authorization', `Bearer ${key}`)
    return call(`${server.url}${path}`, { ...init, headers })
  }
  return {
    ...server,
    as,
    clientWith: (key) => clientFor(server.url, key),
    async createKey(body) {
      const res = await as(masterKey, '/keys', { method: 'POST', json: { expiresAt: null, ...body } })
      if (res.status !== 201) throw new Error(`key creation: ${res.status} ${res.text}`)
      return { uid: res.body.uid, key: res.body.key }
    },
    async wait(taskUid) {
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        const { body } = await as(masterKey, `/tasks/${taskUid}`)
        if (body && ['succeeded', 'failed', 'canceled'].includes(body.status)) return body
        await new Promise((r) => setTimeout(r, 10))
      }
      throw new Error(`task ${taskUid} did not finish`)
    },
  }
}
