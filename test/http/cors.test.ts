/** CORS as Meilisearch (actix-cors, send_wildcard, any origin/method/header, max-age a day) answers it. */
import t from 'tap'
import { serverFor, call } from '../helpers/server.js'

const VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'
const METHODS = ['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']

for (const adapter of ['uws', 'node'] as const) {
  t.test(`${adapter}: CORS`, async (t) => {
    const server = await serverFor(t, { adapter })
    const url = server.url

    await t.test('preflight', async (t) => {
      for (const path of ['/indexes', '/indexes/movies/documents', '/nope/at/all']) {
        const res = await call(`${url}${path}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-meilisearch-client' },
        })
        t.equal(res.status, 200, `${path} status`)
        t.equal(res.text, '', 'empty body')
        t.equal(res.headers.get('access-control-allow-origin'), '*')
        t.equal(res.headers.get('access-control-allow-headers'), 'content-type, x-meilisearch-client', 'request headers echoed')
        t.equal(res.headers.get('access-control-max-age'), '86400')
        t.equal(res.headers.get('vary'), VARY)
        t.same(res.headers.get('access-control-allow-methods')!.split(', ').sort(), METHODS)
        t.equal(res.headers.get('access-control-allow-credentials'), null)
        t.equal(res.headers.get('access-control-expose-headers'), null)
      }
      // Without requested headers, no allow-headers.
      const bare = await call(`${url}/indexes`, { method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' } })
      t.equal(bare.status, 200)
      t.equal(bare.headers.get('access-control-allow-headers'), null)
      t.equal(bare.headers.get('access-control-allow-origin'), '*')
    })

    await t.test('normal requests with an Origin', async (t) => {
      const res = await call(`${url}/health`, { headers: { origin: 'https://example.com' } })
      t.equal(res.status, 200)
      t.same(res.body, { status: 'available' })
      t.equal(res.headers.get('access-control-allow-origin'), '*')
      t.equal(res.headers.get('vary'), VARY)
      t.equal(res.headers.get('access-control-expose-headers'), null)
      // Errors and empty 404s get the header too.
      const err = await call(`${url}/indexes/missing`, { headers: { origin: 'https://example.com' } })
      t.equal(err.status, 404)
      t.equal(err.body.code, 'index_not_found')
      t.equal(err.headers.get('access-control-allow-origin'), '*')
      const none = await call(`${url}/nope`, { headers: { origin: 'https://example.com' } })
      t.equal(none.status, 404)
      t.equal(none.headers.get('access-control-allow-origin'), '*')
      const created = await call(`${url}/indexes`, { method: 'POST', json: { uid: 'cors' }, headers: { origin: 'http://localhost:3000' } })
      t.equal(created.status, 202)
      t.equal(created.headers.get('access-control-allow-origin'), '*')
    })

    await t.test('without an Origin there is no allow-origin', async (t) => {
      const res = await call(`${url}/health`)
      t.equal(res.headers.get('access-control-allow-origin'), null)
      t.equal(res.headers.get('vary'), VARY)
    })

    await t.test('OPTIONS without Access-Control-Request-Method is routed', async (t) => {
      const known = await call(`${url}/indexes`, { method: 'OPTIONS', headers: { origin: 'https://example.com' } })
      t.equal(known.status, 405, 'known path: 405')
      t.equal(known.text, '')
      t.equal(known.headers.get('access-control-allow-origin'), '*')
      t.equal(known.headers.get('access-control-max-age'), null, 'not a preflight')
      const unknown = await call(`${url}/nope`, { method: 'OPTIONS' })
      t.equal(unknown.status, 404, 'unknown path: 404')
      t.equal(unknown.text, '')
    })
  })
}
