/**
 * The bench's requests outside the load windows: JSON calls (set-up, task polling, checks) through `fetch`, and
 * document payloads through node:http, which can stream a file with an explicit Content-Length and tells exactly
 * when the reply arrived. Both go to an `Endpoint`: a server the bench started, or the `--url` one with its key.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'

/** Where requests go: a base URL without a trailing slash, and the headers every request carries (`--api-key`). */
export interface Endpoint {
  url: string
  headers?: Record<string, string>
}

/**
 * A JSON request (`body` JSON, or a Buffer sent as NDJSON); throws on a network error, returns the status and the
 * parsed body otherwise (the text itself when it is not JSON, null when empty).
 */
export async function call<T = any>(endpoint: Endpoint, method: string, path: string, body?: unknown, timeoutMs = 60_000): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { ...endpoint.headers }
  let payload: string | Buffer | undefined
  if (body !== undefined) {
    payload = Buffer.isBuffer(body) ? body : JSON.stringify(body)
    headers['content-type'] = Buffer.isBuffer(body) ? 'application/x-ndjson' : 'application/json'
  }
  const res = await fetch(`${endpoint.url}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) })
  const text = await res.text()
  let parsed: unknown = null
  try { parsed = text.length > 0 ? JSON.parse(text) : null } catch { parsed = text }
  return { status: res.status, body: parsed as T }
}

export interface Posted {
  status: number
  text: string
  /** performance.now() when the whole reply was read. */
  at: number
}

/**
 * POST a payload with node:http (its own connection, an explicit Content-Length): `body` is a Buffer or a Readable
 * (piped, with backpressure). Resolves with the reply once it is read whole, even if the server answers before
 * it read the whole body (an error).
 */
export function postPayload(server: Endpoint & { host: string; port: number }, path: string, contentType: string, body: Buffer | Readable, length: number, timeoutMs: number): Promise<Posted> {
  return new Promise<Posted>((resolve, reject) => {
    const req = httpRequest({
      host: server.host, port: server.port, method: 'POST', path, agent: false,
      headers: { ...server.headers, 'content-type': contentType, 'content-length': String(length) },
    })
    const timer = setTimeout(() => req.destroy(new Error(`no reply within ${timeoutMs / 1000} s`)), timeoutMs)
    req.on('error', (err) => { clearTimeout(timer); reject(err) })
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), at: performance.now() })
        // An early reply (e.g. 413) may leave the body unsent: stop sending it.
        if (body instanceof Readable) { body.unpipe(req); body.destroy() }
        req.destroy()
      })
      res.on('error', (err) => { clearTimeout(timer); reject(err) })
    })
    if (Buffer.isBuffer(body)) req.end(body)
    else body.pipe(req)
  })
}
