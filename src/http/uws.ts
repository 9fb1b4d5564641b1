/** The uWebSockets.js adapter (the default): the fastest HTTP server available to Node here. */
import { createRequire } from 'node:module'
import type { HttpAdapter, Handler, Listening, Request } from './types.js'
import { STATUS_TEXT } from './types.js'
import { ChunkQueue } from './chunk-queue.js'
import { FRAMING_STATUS, framingFault } from './framing.js'

type Uws = typeof import('uWebSockets.js')

/** uWS's `ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT`. */
const EXCLUSIVE_PORT = 1

/** Load uWebSockets.js, or explain why it cannot run here (it is built for one Node ABI). */
export function loadUws(): { uws: Uws } | { error: string } {
  try {
    const require = createRequire(import.meta.url)
    const uws = require('uWebSockets.js') as Uws & { _cfg?: unknown }
    if (typeof uws.App !== 'function') return { error: 'uWebSockets.js has no native App on this platform' }
    return { uws }
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0]! }
  }
}

export function uwsAdapter(uws: Uws): HttpAdapter {
  return {
    name: 'uws',
    listen(host: string, port: number, handler: Handler): Promise<Listening> {
      const app = uws.App()
      app.any('/*', (res, req) => {
        let aborted = false
        // Once the response is written (or the request aborted) `res` must not be touched again: uWS throws,
        // which would take the whole process down from inside `onData`.
        let done = false
        let paused = false
        const headers = new Map<string, string>()
        req.forEach((k, v) => headers.set(k, headers.has(k) ? `${headers.get(k)}, ${v}` : v))
        const method = req.getCaseSensitiveMethod().toUpperCase()
        if (framingFault(headers) !== null) {
          res.cork(() => res.writeStatus(`${FRAMING_STATUS} ${STATUS_TEXT[FRAMING_STATUS]}`).end('', true))
          return
        }
        const body = new ChunkQueue(
          () => { if (!done) { paused = true; res.pause() } },
          () => { if (!done) { paused = false; res.resume() } },
        )
        const request: Request = { method, path: req.getUrl(), rawQuery: req.getQuery() ?? '', headers, body }
        res.onAborted(() => {
          aborted = true
          done = true
          body.fail(new Error('request aborted'))
        })
        // Without a length or chunked encoding there is no body: don't wait for one that never comes.
        if ((!headers.has('content-length') && !headers.has('transfer-encoding')) || headers.get('content-length') === '0') {
          body.push(new Uint8Array(0), true)
        }
        res.onData((chunk, isLast) => {
          // A body still arriving after the response was sent is dropped.
          if (done) return
          // The ArrayBuffer is only valid during this callback: copy it.
          body.push(new Uint8Array(chunk.slice(0)), isLast)
        })
        handler(request).then((response) => {
          if (aborted) return
          // A body still arriving that the route did not read (an oversize upload): answer with `Connection:
          // close` and keep reading (dropping) the rest. uWS's own closeConnection would reset the socket while
          // the client is still sending, and most clients then never see the 413. Never leave the socket paused.
          const unread = !body.finished
          if (unread && paused) res.resume()
          done = true
          res.cork(() => {
            res.writeStatus(`${response.status} ${STATUS_TEXT[response.status] ?? ''}`)
            for (const [k, v] of Object.entries(response.headers ?? {})) res.writeHeader(k, v)
            if (unread) res.writeHeader('connection', 'close')
            // HEAD: the headers GET would send, never a body (one would be read as the next response). This uWS
            // build drops the connection on endWithoutBody(n > 0), so the length goes as a header of our own.
            if (method === 'HEAD') {
              res.writeHeader('content-length', String(bodyLength(response.body)))
              res.endWithoutBody()
            } else if (response.body === undefined) res.endWithoutBody(0)
            else res.end(response.body)
          })
        }, (err) => {
          if (aborted) return
          if (paused) res.resume()
          done = true
          res.cork(() => res.writeStatus('500 Internal Server Error').end(String(err), true))
        })
      })
      return new Promise((resolve, reject) => {
        // An exclusive port (LIBUS_LISTEN_EXCLUSIVE_PORT): uWS otherwise sets SO_REUSEPORT, and a second server
        // started on a port in use would share it silently, the kernel spreading connections over both.
        const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (socket: unknown) => void) => void
        listen.call(app, host, port, EXCLUSIVE_PORT, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`))
          resolve({
            port: uws.us_socket_local_port(socket as Parameters<Uws['us_socket_local_port']>[0]),
            close: async () => {
              uws.us_listen_socket_close(socket as Parameters<Uws['us_listen_socket_close']>[0])
              ;(app as unknown as { close?: () => void }).close?.()
            },
          })
        })
      })
    },
  }
}

function bodyLength(body: string | Uint8Array | undefined): number {
  return body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
}
