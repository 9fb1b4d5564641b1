/**
 * Property-style: malformed payloads (truncated JSON, bad UTF-8, wrong CSV column counts, huge or invalid ids, deep
 * nesting), generated from a seeded PRNG, are each refused — synchronously or as a failed task — and the index is
 * left exactly as it was; the server stays up.
 */
import t from 'tap'
import { serverFor, call, waitTask } from '../helpers/server.js'

function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const send = (url: string, body: Uint8Array, type: string) => call(url, { method: 'POST', body, headers: { 'content-type': type } })

t.test('malformed payloads change nothing', async (t) => {
  const server = await serverFor(t)
  const url = `${server.url}/indexes/fuzz/documents`
  const baseline = Array.from({ length: 20 }, (_, i) => ({ id: i, title: `doc ${i}`, nested: { n: i } }))
  const first = await send(url, Buffer.from(JSON.stringify(baseline)), 'application/json')
  t.equal((await waitTask(server.url, first.body.taskUid)).status, 'succeeded')
  const snapshot = async () => (await call(`${server.url}/indexes/fuzz/documents?limit=1000`)).text
  const before = await snapshot()

  const random = prng(42)
  const valid = Buffer.from(JSON.stringify([{ id: 100, title: 'x' }, { id: 101, title: 'y' }]))
  const payloads: [string, Uint8Array, string][] = []
  for (let i = 0; i < 25; i++) {
    const cut = 1 + Math.floor(random() * (valid.length - 2))
    payloads.push([`truncated at ${cut}`, valid.subarray(0, cut), 'application/json'])
  }
  for (let i = 0; i < 10; i++) {
    const bad = Buffer.from(valid)
    const at = 1 + Math.floor(random() * (bad.length - 2))
    bad[at] = 0xff
    payloads.push([`bad UTF-8 at ${at}`, bad, i % 2 ? 'application/json' : 'application/x-ndjson'])
  }
  payloads.push(['deep nesting', Buffer.from(`[{"id": 200, "deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}}]`), 'application/json'])
  payloads.push(['CSV with too many fields', Buffer.from('id,title\n300,a\n301,b,extra\n'), 'text/csv'])
  payloads.push(['CSV with too few fields', Buffer.from('id,title\n302\n'), 'text/csv'])
  payloads.push(['CSV bad number', Buffer.from('id,price:number\n303,abc\n'), 'text/csv'])
  payloads.push(['NDJSON with an array line', Buffer.from('{"id": 400}\n[1, 2]\n'), 'application/x-ndjson'])
  payloads.push(['NDJSON truncated', Buffer.from('{"id": 401}\n{"id": 4'), 'application/x-ndjson'])
  payloads.push(['a huge id', Buffer.from(JSON.stringify([{ id: 500 }, { id: 'z'.repeat(600) }])), 'application/json'])
  payloads.push(['a float id', Buffer.from(JSON.stringify([{ id: 1.5 }])), 'application/json'])
  payloads.push(['an object id', Buffer.from(JSON.stringify([{ id: { a: 1 } }])), 'application/json'])
  payloads.push(['a missing id', Buffer.from(JSON.stringify([{ id: 600 }, { title: 'no id' }])), 'application/json'])
  payloads.push(['not objects', Buffer.from('[1, 2, 3]'), 'application/json'])
  payloads.push(['a bare string', Buffer.from('"hello"'), 'application/json'])

  for (const [name, body, type] of payloads) {
    const res = await send(url, body, type)
    if (res.status === 202) {
      const task = await waitTask(server.url, res.body.taskUid)
      t.equal(task.status, 'failed', `${name}: refused as a failed task`)
      t.ok(['invalid_document_id', 'missing_document_id'].includes(task.error?.code), `${name}: ${task.error?.code}`)
    } else {
      t.equal(res.status, 400, `${name}: refused synchronously`)
      t.equal(res.body?.code, 'malformed_payload', `${name}: ${res.body?.message}`)
      t.same(Object.keys(res.body), ['message', 'code', 'type', 'link'])
    }
  }
  t.equal(await snapshot(), before, 'the index is exactly as it was')
  t.same((await call(`${server.url}/health`)).body, { status: 'available' })
  const stats = await call(`${server.url}/indexes/fuzz/stats`)
  t.equal(stats.body.numberOfDocuments, 20)
})
