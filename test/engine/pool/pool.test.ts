import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWorkerPool } from '../../../workers/pool.js'
import { jobs } from '../../../engine/pool/jobs.js'

t.test('the Piscina pool validates large JSON bodies in worker threads', async (t) => {
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  t.equal(pool.threads, 2)
  const docs = Array.from({ length: 20_000 }, (_, i) => ({ id: i, title: `movie ${i}`, tags: ['a', 'b'], nested: { n: i / 3 } }))
  const bytes = Buffer.from(JSON.stringify(docs))
  t.ok(bytes.byteLength > 1_000_000, 'a payload of more than a megabyte')
  const results = await Promise.all([0, 1, 2, 3].map(() => pool.run('validateJson', { bytes })))
  for (const r of results) t.same(r, { ok: true })
  const bad = await pool.run('validateJson', { bytes: Buffer.from('[{"id": 1},') })
  t.same(bad, { ok: false, empty: false, message: 'EOF while parsing a value at line 1 column 11' }, 'errors come back as values, worded like serde_json')
  t.same(bad, jobs.validateJson({ bytes: Buffer.from('[{"id": 1},') }), 'the pool and the inline job agree')
})

t.test('payload chunks parse in the pool and keep every key', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const path = join(dir, 'payload.ndjson')
  writeFileSync(path, '{"id":1,"__proto__":{"x":1}}\n{"id":2,"constructor":"c"}\n')
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  const checked = await pool.run<unknown, { ok: boolean; documents: number; chunks: [number, number][] }>('validatePayload', { path, format: 'ndjson', csvDelimiter: ',' })
  t.equal(checked.documents, 2)
  const text = await pool.run<unknown, string>('parsePayloadChunk', { path, format: 'ndjson', csvDelimiter: ',', start: checked.chunks[0]![0], end: checked.chunks[0]![1] })
  const parsed = JSON.parse(text) as Record<string, unknown>[]
  t.same(Object.keys(parsed[0]!), ['id', '__proto__'], '`__proto__` survives the trip between threads')
  t.same(parsed[1], { id: 2, constructor: 'c' })
})

t.test('jobs run off the calling thread', async (t) => {
  // While a worker validates a big payload, timers on this thread keep firing.
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  const bytes = Buffer.from(JSON.stringify(Array.from({ length: 300_000 }, (_, i) => ({ id: i, text: 'lorem ipsum dolor sit amet' }))))
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  const started = performance.now()
  await pool.run('validateJson', { bytes })
  const elapsed = performance.now() - started
  clearInterval(timer)
  t.ok(ticks >= Math.min(5, Math.floor(elapsed / 4)), `the event loop kept turning (${ticks} ticks in ${elapsed.toFixed(0)} ms)`)
})
