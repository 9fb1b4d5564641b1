/**
 * A tiny proxy that enforces API keys as Meilisearch does, in front of a server that does not (yet): every route
 * but `/health` (and the preview page's own files, which are open) needs `Authorization: Bearer <key>`; without it
 * `401 missing_authorization_header`, with an unknown key `403 invalid_api_key`, with Meilisearch's messages. A key
 * may be limited to some indexes: `GET /indexes` then lists only those, as Meilisearch filters it. Lets the page's
 * key prompt be tested before the server's own enforcement lands; on 127.0.0.1 only.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface KeyGate {
  url: string
  close(): Promise<void>
}

/** Keys and the indexes each may see (`*`: all). */
export type GateKeys = Record<string, string[] | '*'>

const OPEN = (path: string) => path === '/' || path === '/health' || path.startsWith('/preview/')

function refuse(res: ServerResponse, status: 401 | 403): void {
  const body = status === 401
    ? { message: 'The Authorization header is missing. It must use the bearer authorization method.', code: 'missing_authorization_header', type: 'auth', link: 'https://docs.meilisearch.com/errors#missing_authorization_header' }
    : { message: 'The provided API key is invalid.', code: 'invalid_api_key', type: 'auth', link: 'https://docs.meilisearch.com/errors#invalid_api_key' }
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

export async function keyGate(upstream: string, keys: GateKeys): Promise<KeyGate> {
  const target = new URL(upstream)
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!
    let allowed: string[] | '*' = '*'
    if (!OPEN(path) && req.method !== 'OPTIONS') {
      const header = req.headers.authorization
      if (!header) return refuse(res, 401)
      const key = /^Bearer (.+)$/.exec(header)?.[1]
      const grant = key === undefined ? undefined : keys[key]
      if (grant === undefined) return refuse(res, 403)
      allowed = grant
    }
    const headers = { ...req.headers, host: target.host }
    delete headers.authorization
    // The listing is filtered here; other answers pass through as the server gave them.
    const filterIndexes = allowed !== '*' && req.method === 'GET' && path === '/indexes'
    if (filterIndexes) delete headers['accept-encoding']
    // A connection per request: a pooled socket the server closed while idle would reset under load (a 502).
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent: false }, (answer) => {
      if (!filterIndexes) {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        return
      }
      const chunks: Buffer[] = []
      answer.on('data', (c: Buffer) => chunks.push(c))
      answer.on('end', () => {
        const listing = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { results: { uid: string }[]; total: number }
        listing.results = listing.results.filter((i) => (allowed as string[]).includes(i.uid))
        listing.total = listing.results.length
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' })
        res.end(JSON.stringify(listing))
      })
    })
    forward.on('error', () => { res.writeHead(502); res.end() })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections() }),
  }
}
