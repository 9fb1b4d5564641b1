/**
 * The preview page over HTTP (no browser): its files with their types, caching and gzip, its weight, nothing
 * loaded from elsewhere, the bench charts, no API route shadowed, and its absence in production and with
 * --no-preview.
 */
import t from 'tap'
import { readdirSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { call, serverFor } from '../../helpers/server.js'
import { configFile } from '../../helpers/auth.js'
import { CHARTS_DIR } from '../../../src/preview/index.js'

/** The page's budget, gzipped, everything it loads included. */
const PAGE_BUDGET = 150_000

/** A GET as sent on the wire, the path untouched and the body undecoded (fetch would decompress and normalize). */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Every file the page loads: those index.html names, and the modules they import, transitively. */
async function pageFiles(base: string): Promise<Map<string, { type: string; size: number; gzipped: number }>> {
  const files = new Map<string, { type: string; size: number; gzipped: number }>()
  const queue = ['/']
  while (queue.length > 0) {
    const path = queue.shift()!
    if (files.has(path)) continue
    const plain = await call(base + path)
    if (plain.status !== 200) throw new Error(`${path}: ${plain.status}`)
    const zipped = await raw(base + path, { 'accept-encoding': 'gzip' })
    const gzipped = zipped.headers['content-encoding'] === 'gzip' ? zipped.bytes.byteLength : Buffer.byteLength(plain.text)
    files.set(path, { type: plain.headers.get('content-type')!, size: Buffer.byteLength(plain.text), gzipped })
    const refs = [...plain.text.matchAll(/(?:src|href)="(\/preview\/[^"#?]+)"/g), ...plain.text.matchAll(/from '\.\/([^']+)'/g)]
    for (const m of refs) queue.push(m[1]!.startsWith('/') ? m[1]! : `/preview/${m[1]}`)
  }
  return files
}

t.test('development: the page, its files and the charts', async (t) => {
  const server = await serverFor(t)
  const url = server.url

  await t.test('the page at /', async (t) => {
    const res = await call(`${url}/`)
    t.equal(res.status, 200)
    t.equal(res.headers.get('content-type'), 'text/html; charset=utf-8')
    t.match(res.text, /<title>Tessera preview<\/title>/)
    t.match(res.headers.get('content-security-policy'), /default-src 'none'; script-src 'self'/)
    t.equal(res.headers.get('x-content-type-options'), 'nosniff')
    t.equal(res.headers.get('cache-control'), 'no-cache')
    const etag = res.headers.get('etag')!
    t.ok(etag)
    const again = await call(`${url}/`, { headers: { 'if-none-match': etag } })
    t.equal(again.status, 304, 'a current copy is not sent again')
    t.equal(again.text, '')
    const zipped = await raw(`${url}/`, { 'accept-encoding': 'gzip, br' })
    t.equal(zipped.headers['content-encoding'], 'gzip')
    t.match(zipped.headers.vary, /^Accept-Encoding, Origin/, 'varies on the encoding, and CORS keeps its own')
    t.equal(gunzipSync(zipped.bytes).toString(), res.text)
    t.equal((await call(`${url}/`, { method: 'HEAD' })).status, 200)
  })

  await t.test('every file it loads: right type, local, within budget', async (t) => {
    const files = await pageFiles(url)
    const types = new Map([...files].map(([p, f]) => [p, f.type]))
    t.equal(types.get('/preview/app.js'), 'text/javascript; charset=utf-8')
    t.equal(types.get('/preview/style.css'), 'text/css; charset=utf-8')
    t.equal(types.get('/preview/favicon.svg'), 'image/svg+xml')
    t.ok(files.has('/preview/search-view.js') && files.has('/preview/indexing-view.js'), 'imports followed')
    for (const path of files.keys()) {
      const text = (await call(url + path)).text
      // Namespaces (xmlns) name, they do not load.
      const external = [...text.matchAll(/(?:https?:)?\/\/[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s"'`)]*/g)].map((m) => m[0]).filter((u) => !u.startsWith('http://www.w3.org/'))
      t.same(external, [], `${path} names no other host`)
    }
    const weight = [...files.values()].reduce((sum, f) => sum + f.gzipped, 0)
    const raw = [...files.values()].reduce((sum, f) => sum + f.size, 0)
    t.comment(`page weight: ${files.size} files, ${raw} bytes, ${weight} bytes gzipped`)
    t.ok(weight < PAGE_BUDGET, `${weight} bytes gzipped, under ${PAGE_BUDGET}`)
  })

  await t.test('only the page files; index.html only at /', async (t) => {
    for (const path of ['/preview/index.html', '/preview/nope.js', '/preview/tsconfig.json', '/preview/..%2F..%2Fpackage.json', '/preview/..%5Cpackage.json', '/preview/../package.json', '/preview', '/preview/charts/..%2Fsearch.md', '/preview/charts/nope.svg']) {
      const res = await raw(url + path)
      t.equal(res.status, 404, path)
    }
  })

  await t.test('the bench charts, read-only', async (t) => {
    const listed = await call(`${url}/preview/charts`)
    t.equal(listed.status, 200)
    let present: string[] = []
    try { present = readdirSync(CHARTS_DIR).filter((n) => n.endsWith('.svg')).sort() } catch { /* none here */ }
    t.same(listed.body.results.map((c: { file: string }) => c.file), present)
    if (present.length === 0) return
    const chart = await call(`${url}/preview/charts/${present[0]}`)
    t.equal(chart.status, 200)
    t.equal(chart.headers.get('content-type'), 'image/svg+xml')
    t.match(chart.headers.get('content-security-policy'), /default-src 'none'/)
    t.match(chart.text, /^<svg/)
    t.equal((await call(`${url}/preview/charts/${present[0]}`, { method: 'DELETE' })).status, 405, 'read-only')
  })

  await t.test('no API route is shadowed', async (t) => {
    t.same((await call(`${url}/health`)).body, { status: 'available' })
    t.equal((await call(`${url}/indexes`)).status, 200)
    t.equal((await call(`${url}/version`)).status, 200)
    t.equal((await call(`${url}/`, { method: 'POST' })).status, 405)
    t.equal((await call(`${url}/nope`)).status, 404)
  })
})

t.test('with a master key the page is still served without one', async (t) => {
  const server = await serverFor(t, { args: ['--master-key', 'preview-master-key-0123'] })
  for (const path of ['/', '/preview/app.js', '/preview/charts']) t.equal((await call(server.url + path)).status, 200, path)
})

t.test('absent in production and with --no-preview', async (t) => {
  const secret = configFile(t, "export default { secret: 'preview-test-secret' }\n")
  const setups: [string, { args?: string[]; env?: Record<string, string> }][] = [
    ['--env production', { args: ['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--config', secret] }],
    ['--no-preview', { args: ['--no-preview'] }],
    ['TESSERA_NO_PREVIEW=true', { env: { TESSERA_NO_PREVIEW: 'true' } }],
  ]
  for (const [name, options] of setups) {
    await t.test(name, async (t) => {
      const server = await serverFor(t, options)
      const root = await call(`${server.url}/`)
      t.equal(root.status, 200, 'as Meilisearch without its dashboard')
      t.same(root.body, { status: 'Meilisearch is running' })
      t.notMatch(root.text, /<html/)
      for (const path of ['/preview/app.js', '/preview/style.css', '/preview/charts', '/preview/charts/search-qps.svg']) {
        t.equal((await call(server.url + path)).status, 404, path)
      }
      t.equal((await call(`${server.url}/health`)).status, 200)
    })
  }
  await t.test('--no-preview=false keeps it', async (t) => {
    const server = await serverFor(t, { args: ['--no-preview=false'] })
    t.match((await call(`${server.url}/`)).text, /<title>Tessera preview/)
  })
})
