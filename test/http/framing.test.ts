/**
 * HTTP framing over raw sockets, in both adapters (issue 17, found by a fuzz run): HEAD answers without a body
 * (one would be read as the next response on a keep-alive connection); ambiguous framing (a transfer coding other
 * than exactly `chunked`, repeated or malformed Content-Length, both headers at once) is refused and the
 * connection closed (RFC 9112), so nothing can be smuggled behind a proxy; HTTP/1.0 is answered by node:http.
 */
import t from 'tap'
import net from 'node:net'
import { seedIndex, serverFor } from '../helpers/server.js'

/** Send `data` on a fresh connection; resolve with what came back once the server closes it (or `waitMs` passed). */
function exchange(port: number, data: string, waitMs = 10_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (d) => { text += d.toString('latin1') })
    socket.on('error', () => {})
    const timer = setTimeout(() => { socket.destroy(); resolve({ text, closed: false }) }, waitMs)
    socket.on('close', () => { clearTimeout(timer); resolve({ text, closed: true }) })
    socket.write(data)
  })
}

/** Send `data`, resolve as soon as `count` complete responses with bodies of their Content-Length arrived. */
function responses(port: number, data: string, count: number, head = 1): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let buf = ''
    const out: string[] = []
    socket.on('data', (d) => {
      buf += d.toString('latin1')
      for (;;) {
        const end = buf.indexOf('\r\n\r\n')
        if (end < 0) return
        const headers = buf.slice(0, end)
        const length = Number(/content-length: *(\d+)/i.exec(headers)?.[1] ?? 0)
        // The first `head` responses answer HEAD requests: no body follows, whatever the length says.
        const bodyLength = out.length < head ? 0 : length
        if (buf.length < end + 4 + bodyLength) return
        out.push(buf.slice(0, end + 4 + bodyLength))
        buf = buf.slice(end + 4 + bodyLength)
        if (out.length === count) { socket.destroy(); resolve(out) }
      }
    })
    socket.on('error', reject)
    socket.write(data)
  })
}

const statusOf = (text: string) => [...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((m) => Number(m[1]))

const post = (headers: string, body: string) =>
  `POST /indexes/x/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n${headers}\r\n${body}`
const CHUNKED_BODY = '9\r\n{"q":"x"}\r\n0\r\n\r\n'

/** Framing every adapter must refuse: never a 2xx, and the connection closed. */
const REFUSED: [string, string][] = [
  ['Transfer-Encoding: xchunked', post('Transfer-Encoding: xchunked\r\n', CHUNKED_BODY)],
  ['Transfer-Encoding: Chunked', post('Transfer-Encoding: Chunked\r\n', CHUNKED_BODY)],
  ['Transfer-Encoding: gzip, chunked', post('Transfer-Encoding: gzip, chunked\r\n', CHUNKED_BODY)],
  ['Transfer-Encoding: chunked, gzip', post('Transfer-Encoding: chunked, gzip\r\n', CHUNKED_BODY)],
  ['Transfer-Encoding twice', post('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', CHUNKED_BODY)],
  ['Transfer-Encoding and Content-Length', post('Transfer-Encoding: chunked\r\nContent-Length: 9\r\n', CHUNKED_BODY)],
  ['two different Content-Lengths', post('Content-Length: 9\r\nContent-Length: 12\r\n', '{"q":"x"}abc')],
  ['two equal Content-Lengths', post('Content-Length: 9\r\nContent-Length: 9\r\n', '{"q":"x"}')],
  ['a Content-Length list', post('Content-Length: 9, 12\r\n', '{"q":"x"}abc')],
  ['a signed Content-Length', post('Content-Length: +9\r\n', '{"q":"x"}')],
  ['a chunk size that is not hex', post('Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n')],
]

for (const adapter of ['uws', 'node'] as const) {
  t.test(`framing with the ${adapter} adapter`, async (t) => {
    const server = await serverFor(t, { adapter })
    await seedIndex(server.url, 'x', {}, [{ id: 1, t: 'x' }])

    await t.test('HEAD answers headers alone; the next response on the connection is intact', async (t) => {
      const [head, get] = await responses(server.port, 'HEAD /health HTTP/1.1\r\nHost: a\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n', 2)
      t.match(head, /^HTTP\/1\.1 200 /)
      t.match(head, /content-length: 22\r\n/i, 'the length GET would have')
      t.ok(head!.endsWith('\r\n\r\n'), 'no body after the headers')
      t.match(get, /^HTTP\/1\.1 200 /)
      t.ok(get!.endsWith('{"status":"available"}'))
    })

    await t.test('well-framed chunked and fixed-length bodies are read', async (t) => {
      const chunked = await responses(server.port, post('Transfer-Encoding: chunked\r\n', CHUNKED_BODY), 1, 0)
      t.match(chunked[0], /^HTTP\/1\.1 200 [^]*"query":"x"/)
      const fixed = await responses(server.port, post('Content-Length: 9\r\n', '{"q":"x"}'), 1, 0)
      t.match(fixed[0], /^HTTP\/1\.1 200 [^]*"query":"x"/)
    })

    for (const [name, data] of REFUSED) {
      await t.test(`refused: ${name}`, async (t) => {
        const { text, closed } = await exchange(server.port, data)
        t.ok(closed, 'the connection is closed')
        const statuses = statusOf(text)
        t.notOk(statuses.some((s) => s < 400), `no success answer (${statuses.join(',') || 'none'})`)
        // uWS itself drops some of these without an answer (both headers, a bad length, a bad chunk size); what
        // reaches the adapter gets the 400.
        if (statuses.length > 0) t.same(statuses, [400])
      })
    }

    if (adapter === 'node') {
      await t.test('HTTP/1.0 is answered, and the connection closed after it', async (t) => {
        const { text, closed } = await exchange(server.port, 'GET /health HTTP/1.0\r\n\r\n')
        t.same(statusOf(text), [200])
        t.ok(closed)
      })
      await t.test('a chunk size with a space in it is refused', async (t) => {
        const { text, closed } = await exchange(server.port, post('Transfer-Encoding: chunked\r\n', '2 2\r\n{}\r\n0\r\n\r\n'))
        t.same(statusOf(text), [400])
        t.ok(closed)
      })
    }
  })
}
