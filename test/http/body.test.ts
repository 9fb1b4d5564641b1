/**
 * Request bodies: the payload size limit (declared, streamed, and after decompression), truncated bodies,
 * Content-Encoding, and large JSON bodies parsed in the worker pool. Run against both HTTP adapters.
 */
import t, { type Test } from 'tap'
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib'
import { serverFor, call, waitTask, type TestServer } from '../helpers/server.js'

type Tap = Test

interface Reply { status: number; text: string; body: any; headers: Record<string, string | string[] | undefined> }

/** A request with node:http, so the body can be a stream (sent chunked, without content-length). */
function send(server: TestServer, method: string, path: string, headers: Record<string, string | number>, body?: Buffer | string | Readable): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c) => parts.push(c))
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8')
        let parsed: unknown
        try { parsed = text ? JSON.parse(text) : undefined } catch { /* not JSON */ }
        resolve({ status: res.statusCode!, text, body: parsed, headers: res.headers })
        req.destroy()
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (body instanceof Readable) {
      body.on('error', () => {})
      body.pipe(req)
    } else req.end(body)
  })
}

function assertError(t: Tap, res: Reply, status: number, code: string, message: string, what = ''): void {
  t.equal(res.status, status, `${what} status`)
  t.same(res.body, { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` }, `${what} body`)
}

const JSON_TYPE = { 'content-type': 'application/json' }
const tooLarge = (limit: string) => `The provided payload reached the size limit. The maximum accepted payload size is ${limit}.`

/** The server is up and has exactly `tasks` tasks. */
async function assertUp(t: Tap, server: TestServer, tasks: number): Promise<void> {
  const health = await call(`${server.url}/health`)
  t.equal(health.status, 200, 'server up')
  t.equal((await call(`${server.url}/tasks`)).body.total, tasks, 'task count')
}

for (const adapter of ['uws', 'node'] as const) {
  t.test(`${adapter}: 1 KB limit`, async (t) => {
    const flag = await serverFor(t, { adapter, args: ['--http-payload-size-limit', '1KB'] })
    const env = await serverFor(t, { adapter, env: { TESSERA_HTTP_PAYLOAD_SIZE_LIMIT: '1 KB' } })
    for (const server of [flag, env]) {
      const big = JSON.stringify({ uid: 'big', primaryKey: 'x'.repeat(2000) })
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, big), 413, 'payload_too_large', tooLarge('1 KB'), 'with content-length')
      // Chunked, without content-length: the limit is counted while reading.
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, Readable.from([Buffer.from(big.slice(0, 900)), Buffer.from(big.slice(900))])),
        413, 'payload_too_large', tooLarge('1 KB'), 'chunked')
      // Exactly at the limit is accepted (1000 bytes of valid JSON).
      const exact = JSON.stringify({ uid: 'exact' }) + ' '.repeat(1000 - JSON.stringify({ uid: 'exact' }).length)
      t.equal(Buffer.byteLength(exact), 1000)
      const ok = await send(server, 'POST', '/indexes', JSON_TYPE, exact)
      t.equal(ok.status, 202, 'a body of exactly the limit is accepted')
      t.equal((await waitTask(server.url, ok.body.taskUid)).status, 'succeeded')
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, exact + ' '), 413, 'payload_too_large', tooLarge('1 KB'), 'one byte over')
      await assertUp(t, server, 1)
    }
  })

  t.test(`${adapter}: 1 MB limit, streaming, encodings, truncation`, async (t) => {
    const server = await serverFor(t, { adapter, args: ['--http-payload-size-limit', '1MB'] })
    let tasks = 0

    await t.test('a 50 MB chunked upload is cut off while streaming', async (t) => {
      // A lazily produced 50 MB stream (64 KiB a millisecond at most), sent chunked (no content-length) by node:http.
      const total = 50 * 1024 * 1024
      let produced = 0
      const source = new Readable({
        read() {
          setTimeout(() => {
            if (produced >= total) { this.push(null); return }
            produced += 0x10000
            this.push(Buffer.alloc(0x10000, 0x20))
          }, 1)
        },
      })
      const started = Date.now()
      const res = await new Promise<Reply>((resolve, reject) => {
        // A keep-alive client, as fetch is: with `Connection: close` on the request, uWS closes the socket right
        // after the answer and the client, still sending, is reset before it reads it.
        const agent = new Agent({ keepAlive: true })
        t.teardown(() => agent.destroy())
        const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/indexes', headers: JSON_TYPE, agent }, (res) => {
          let text = ''
          res.on('data', (d) => (text += d))
          const done = () => resolve({ status: res.statusCode!, text, body: text ? JSON.parse(text) : undefined, headers: res.headers })
          res.on('end', done)
          res.on('error', done) // the server closes the connection right after the answer
        })
        // An EPIPE/ECONNRESET from the upload while the answer is being read is expected; only fail without one.
        req.on('error', (err) => setTimeout(() => reject(err), 500))
        source.pipe(req)
      })
      source.destroy()
      assertError(t, res, 413, 'payload_too_large', tooLarge('1 MB'))
      t.equal(res.headers.connection, 'close', 'the connection is closed after the answer')
      t.ok(produced < 16 * 1024 * 1024, `the client produced ${produced} bytes, far less than 50 MB`)
      t.ok(Date.now() - started < 10_000, 'answered quickly')
      t.equal((await call(`${server.url}/health`)).status, 200, 'server up')
    })

    await t.test('a declared oversize body is refused before it is read', async (t) => {
      // Declares 50 MB, sends 10 bytes, waits for the answer.
      const res = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write(`POST /indexes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n{"uid": "a`)
        })
        let out = ''
        socket.on('data', (d) => {
          out += d
          if (out.includes('\r\n\r\n') && out.includes('}')) { socket.destroy(); resolve(out) }
        })
        socket.on('error', reject)
        socket.on('close', () => resolve(out))
      })
      t.match(res, /^HTTP\/1\.1 413 /)
      t.ok(res.includes(JSON.stringify({ message: tooLarge('1 MB'), code: 'payload_too_large', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#payload_too_large' })))
    })

    await t.test('truncated bodies do not crash the server', async (t) => {
      for (const [what, head, part, how] of [
        ['content-length, then end', 'content-length: 1000', '{"uid": "trunc', 'end'],
        ['content-length, then destroy', 'content-length: 1000', '{"uid": "trunc', 'destroy'],
        ['chunked, then end', 'transfer-encoding: chunked', 'e\r\n{"uid": "trunc\r\n', 'end'],
        ['chunked, then destroy', 'transfer-encoding: chunked', 'e\r\n{"uid": "trunc\r\n', 'destroy'],
      ] as const) {
        await new Promise<void>((resolve) => {
          const socket = connect(server.port, '127.0.0.1', () => {
            socket.write(`POST /indexes HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${head}\r\n\r\n${part}`)
            setTimeout(() => (how === 'end' ? socket.end() : socket.destroy()), 50)
          })
          socket.on('error', () => {})
          socket.on('close', () => resolve())
          socket.resume()
        })
        t.equal((await call(`${server.url}/health`)).status, 200, `${what}: server up`)
      }
      await new Promise((r) => setTimeout(r, 100))
      await assertUp(t, server, tasks)
      t.equal((await call(`${server.url}/indexes/trunc`)).status, 404, 'nothing was created')
    })

    await t.test('gzip, deflate and br bodies are decoded', async (t) => {
      for (const [encoding, compress] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
        const uid = `enc-${encoding}`
        const res = await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': encoding }, compress(Buffer.from(JSON.stringify({ uid, primaryKey: 'id' }))))
        t.equal(res.status, 202, encoding)
        t.equal(res.body.indexUid, uid)
        t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
        tasks++
        const index = await call(`${server.url}/indexes/${uid}`)
        t.equal(index.body.primaryKey, 'id', `${encoding}: index created with its primary key`)
      }
      // Chunked and compressed.
      const gz = gzipSync(Buffer.from(JSON.stringify({ uid: 'enc-chunked' })))
      const res = await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, Readable.from([gz.subarray(0, 5), gz.subarray(5, 12), gz.subarray(12)]))
      t.equal(res.status, 202, 'chunked gzip')
      t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
      tasks++
      // A compressed malformed body gives the JSON error of the decoded text.
      assertError(t, await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, gzipSync(Buffer.from('{"uid": '))),
        400, 'malformed_payload', 'The json payload provided is malformed. `EOF while parsing a value at line 1 column 8`.', 'gzip malformed')
    })

    await t.test('corrupt compressed bodies are a 400, unknown encodings a 415', async (t) => {
      assertError(t, await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, '{"uid":"plain"}'),
        400, 'malformed_payload', 'The request body could not be decompressed as `gzip`: incorrect header check.', 'not gzip')
      const gz = gzipSync(Buffer.from(JSON.stringify({ uid: 'cut' })))
      const cut = gz.subarray(0, gz.length - 6)
      const res = await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, cut)
      t.equal(res.status, 400, 'truncated gzip')
      t.equal(res.body.code, 'malformed_payload')
      t.match(res.body.message, /^The request body could not be decompressed as `gzip`: /)
      const bad = Buffer.from(gz)
      bad[bad.length - 5] ^= 0xff // corrupt the CRC/length trailer
      const crc = await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, bad)
      t.equal(crc.status, 400, 'bad checksum')
      t.equal(crc.body.code, 'malformed_payload')
      assertError(t, await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'compress' }, '{"uid":"plain"}'),
        415, 'unsupported_media_type', 'Unsupported Content-Encoding `compress`. Accepted values are `gzip`, `deflate`, `br` and `identity`.', 'unknown encoding')
      await assertUp(t, server, tasks)
      t.equal((await call(`${server.url}/indexes/cut`)).status, 404)
    })

    await t.test('a gzip bomb is cut off at the limit', async (t) => {
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
      t.ok(bomb.length < 100 * 1024, `bomb is ${bomb.length} bytes`)
      assertError(t, await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'gzip' }, bomb), 413, 'payload_too_large', tooLarge('1 MB'), 'gzip')
      const brBomb = brotliCompressSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
      assertError(t, await send(server, 'POST', '/indexes', { ...JSON_TYPE, 'content-encoding': 'br' }, brBomb), 413, 'payload_too_large', tooLarge('1 MB'), 'br')
      await assertUp(t, server, tasks)
    })

    await t.test('large JSON bodies (parsed in the worker pool) give the same results as small ones', async (t) => {
      const pad = ' '.repeat(300 * 1024)
      const pairs: [string, string, number, string, string][] = [
        ['whitespace', '[{"indexes":["doggo"]}]', 400, 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `["doggo"]` contains 1 indexes.'],
        ['unknown field', '[{"indexes":["a","b"],"foo":1}]', 400, 'bad_request', 'Unknown field `foo` inside `[0]`: expected one of `indexes`, `rename`'],
        ['duplicate', '[{"indexes":["a","a"]}]', 400, 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `a` was specified several times.'],
      ]
      for (const [what, small, status, code, message] of pairs) {
        assertError(t, await send(server, 'POST', '/swap-indexes', JSON_TYPE, small), status, code, message, `small ${what}`)
        const large = what === 'unknown field'
          ? small.replace('"foo":1', `"foo":"${'x'.repeat(300 * 1024)}"`)
          : small.replace('[{', `[${pad}{`).replace('}]', `}${pad}]`)
        t.ok(Buffer.byteLength(large) > 256 * 1024)
        assertError(t, await send(server, 'POST', '/swap-indexes', JSON_TYPE, large), status, code, message, `large ${what}`)
      }
      // Syntax errors: same wording, positions counted over the padding.
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, `${pad}{"uid": `), 400, 'malformed_payload',
        `The json payload provided is malformed. \`EOF while parsing a value at line 1 column ${pad.length + 8}\`.`, 'large malformed')
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, `${pad}\n\n{"uid" 1}`), 400, 'malformed_payload',
        'The json payload provided is malformed. `expected `:` at line 3 column 8`.', 'large malformed, lines')
      assertError(t, await send(server, 'POST', '/indexes', JSON_TYPE, pad), 400, 'missing_payload', 'A json payload is missing.', 'large blank')
      // And a large valid body works.
      const res = await send(server, 'POST', '/indexes', JSON_TYPE, `{"uid":"large"${pad},"primaryKey":"id"}`)
      t.equal(res.status, 202)
      t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
      tasks++
      t.equal((await call(`${server.url}/indexes/large`)).body.primaryKey, 'id')
      await assertUp(t, server, tasks)
    })
  })
}
