/** The node:http adapter: the fallback where uWebSockets.js cannot load, and `--http-adapter node`. */
import { createServer, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { HttpAdapter, Handler, Listening } from './types.js'
import { FRAMING_STATUS, framingFault } from './framing.js'

/** How long a connection closed with a body still arriving keeps reading (and dropping) it. */
const LINGER_MS = 5000

/**
 * Close lingering: node:http ends a `Connection: close` response with `destroySoon`, which closes the socket while
 * the client is still sending, so the kernel resets it and the client usually never reads the answer. Instead send
 * FIN after the answer, keep reading until the client closes its side, and close for good after LINGER_MS.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    this.end()
    const timer = setTimeout(() => this.destroy(), LINGER_MS)
    timer.unref()
    this.once('end', () => this.destroy())
    this.once('close', () => clearTimeout(timer))
  }
}

export const nodeAdapter: HttpAdapter = {
  name: 'node',
  listen(host: string, port: number, handler: Handler): Promise<Listening> {
    const server = createServer((req: IncomingMessage, res) => {
      const url = req.url ?? '/'
      const q = url.indexOf('?')
      const headers = new Map<string, string>()
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
      if (framingFault(headers) !== null) {
        res.writeHead(FRAMING_STATUS, { connection: 'close', 'content-length': 0 })
        res.end()
        return
      }
      // Not `req` itself: leaving a `for await` over it early (an oversize body) would destroy the socket before
      // the 413 is written.
      const body: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) }
      handler({ method: (req.method ?? 'GET').toUpperCase(), path: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1), headers, body })
        .then((response) => {
          // A body still arriving that the route did not read (an oversize upload): close the connection after the
          // response rather than reading the rest, as the uWS adapter does. One fully received is just dropped.
          const unread = !req.complete
          const headers: Record<string, string | number> = { ...response.headers }
          if (unread) headers.connection = 'close'
          // A length rather than chunked encoding, as uWS sends it.
          headers['content-length'] = response.body === undefined ? 0 : typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength
          if (unread) lingerOnClose(req.socket)
          res.writeHead(response.status, headers)
          res.end(response.body)
          if (!req.readableEnded) req.resume()
        }, (err) => {
          res.writeHead(500)
          res.end(String(err))
        })
    })
    server.keepAliveTimeout = 5000
    return new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => {
        const address = server.address()
        resolve({
          port: typeof address === 'object' && address ? address.port : port,
          close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections() }),
        })
      })
    })
  },
}
