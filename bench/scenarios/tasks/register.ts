/**
 * Registering many small tasks fast: a list of requests sent from concurrent keep-alive connections of the raw
 * client, each taking the next request as soon as its previous one is answered.
 */
import { performance } from 'node:perf_hooks'
import { rawConnection, type Connection, type RequestSpec } from '../../harness/clients.js'
import type { Progress } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { MAX_REGISTRATION_ERRORS, REQUEST_TIMEOUT_MS } from './options.js'

/** The message of a thrown value. */
export const message = (err: unknown): string => (err instanceof Error ? err.message : String(err))

export interface Registered {
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
 * the raw client (harness/clients.ts; fetch would cost the client more CPU than the server spends): each connection takes the
 * next request as soon as its previous one is answered. Throws after MAX_REGISTRATION_ERRORS failed POSTs (the
 * service refuses or is gone).
 */
export async function register(target: Target, requests: Array<{ method: RequestSpec['method']; path: string; body: string }>, clients: number, bar: Progress): Promise<Registered> {
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
