/** The node:http adapter: the fallback where uWebSockets.js cannot load, and `--http-adapter node`. */
import { createServer, type IncomingMessage } from 'node:http'
import type { HttpAdapter, Handler, Listening } from './types.js'

export const nodeAdapter: HttpAdapter = {
  name: 'node',
  listen(host: string, port: number, handler: Handler): Promise<Listening> {
    const server = createServer((req: IncomingMessage, res) => {
      const url = req.url ?? '/'
      const q = url.indexOf('?')
      const headers = new Map<string, string>()
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
      handler({ method: (req.method ?? 'GET').toUpperCase(), path: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1), headers, body: req })
        .then((response) => {
          res.writeHead(response.status, response.headers)
          res.end(response.body)
          // A body the route did not read is drained so the connection can be reused.
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
