import t from 'tap'
import { gunzipSync } from 'node:zlib'
import type { Request } from '../../../src/http/types.js'
import { acceptsGzip, contentType, fileResponse, staticFile } from '../../../src/preview/static-files.js'

function request(headers: Record<string, string> = {}): Request {
  return { method: 'GET', path: '/', rawQuery: '', headers: new Map(Object.entries(headers)), body: (async function* () {})() }
}

t.test('content types by extension; other kinds are not served', async (t) => {
  t.equal(contentType('index.html'), 'text/html; charset=utf-8')
  t.equal(contentType('app.js'), 'text/javascript; charset=utf-8')
  t.equal(contentType('style.css'), 'text/css; charset=utf-8')
  t.equal(contentType('chart.SVG'), 'image/svg+xml')
  t.equal(contentType('tsconfig.json'), undefined, 'the type-check config beside the page is not served')
  t.equal(contentType('notes.txt'), undefined)
  t.equal(staticFile('notes.md', Buffer.from('x')), undefined)
})

t.test('Accept-Encoding', async (t) => {
  t.ok(acceptsGzip(request({ 'accept-encoding': 'gzip, deflate, br' })))
  t.ok(acceptsGzip(request({ 'accept-encoding': 'br;q=1.0, gzip;q=0.8' })))
  t.ok(acceptsGzip(request({ 'accept-encoding': '*' })))
  t.notOk(acceptsGzip(request({ 'accept-encoding': 'gzip;q=0' })))
  t.notOk(acceptsGzip(request({ 'accept-encoding': 'br, deflate' })))
  t.notOk(acceptsGzip(request()))
})

t.test('gzip when accepted, an ETag and a 304 for a current copy', async (t) => {
  const text = 'const a = 1\n'.repeat(200)
  const file = staticFile('app.js', Buffer.from(text))!
  const plain = fileResponse(request(), file)
  t.equal(plain.status, 200)
  t.equal(plain.headers!['content-type'], 'text/javascript; charset=utf-8')
  t.equal(plain.headers!['content-encoding'], undefined)
  t.equal(plain.headers!['cache-control'], 'no-cache')
  t.equal(plain.headers!.vary, 'Accept-Encoding')
  t.equal(Buffer.from(plain.body as Uint8Array).toString(), text)
  const zipped = fileResponse(request({ 'accept-encoding': 'gzip' }), file)
  t.equal(zipped.headers!['content-encoding'], 'gzip')
  t.ok((zipped.body as Uint8Array).byteLength < text.length / 10, 'compressed')
  t.equal(gunzipSync(zipped.body as Uint8Array).toString(), text)
  t.match(file.etag, /^"[A-Za-z0-9_-]{22}"$/)
  const again = fileResponse(request({ 'if-none-match': `W/${file.etag}`, 'accept-encoding': 'gzip' }), file)
  t.equal(again.status, 304)
  t.equal(again.body, undefined)
  t.equal(again.headers!.etag, file.etag)
  t.equal(fileResponse(request({ 'if-none-match': '"stale"' }), file).status, 200)
  t.not(staticFile('app.js', Buffer.from(text + ' '))!.etag, file.etag, 'another content, another tag')
})

t.test('small files are not compressed', async (t) => {
  const file = staticFile('tiny.css', Buffer.from('a{}'))!
  t.equal(file.gzip, null)
  const res = fileResponse(request({ 'accept-encoding': 'gzip' }), file)
  t.equal(res.headers!['content-encoding'], undefined)
  t.equal(res.headers!.vary, undefined)
})

t.test('extra headers ride along', async (t) => {
  const file = staticFile('index.html', Buffer.from('<!doctype html>'))!
  t.equal(fileResponse(request(), file, { 'content-security-policy': "default-src 'none'" }).headers!['content-security-policy'], "default-src 'none'")
})
