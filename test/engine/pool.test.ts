import t from 'tap'
import { threadId } from 'node:worker_threads'
import { createWorkerPool } from '../../workers/pool.js'
import { jobs } from '../../engine/pool/jobs.js'

t.test('the Piscina pool parses large JSON payloads in worker threads', async (t) => {
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  t.equal(pool.threads, 2)
  const docs = Array.from({ length: 20_000 }, (_, i) => ({ id: i, title: `movie ${i}`, tags: ['a', 'b'], nested: { n: i / 3 } }))
  const bytes = Buffer.from(JSON.stringify(docs))
  t.ok(bytes.byteLength > 1_000_000, 'a payload of more than a megabyte')
  const results = await Promise.all([0, 1, 2, 3].map(() => pool.run<{ bytes: Uint8Array }, { ok: boolean; value?: unknown }>('parseJson', { bytes })))
  for (const r of results) t.same(r, { ok: true, value: docs })
  const bad = await pool.run<{ bytes: Uint8Array }, unknown>('parseJson', { bytes: Buffer.from('[{"id": 1},') })
  t.same(bad, { ok: false, empty: false, message: 'EOF while parsing a value at line 1 column 11' }, 'errors come back as values, worded like the inline parser')
  t.same(bad, jobs.parseJson({ bytes: Buffer.from('[{"id": 1},') }), 'the pool and the inline job agree')
})

t.test('jobs run off the calling thread', async (t) => {
  // A job that reports the thread it ran on would need a test-only job; instead, prove the main thread stays free:
  // while a worker parses a big payload, timers on this thread keep firing.
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  const bytes = Buffer.from(JSON.stringify(Array.from({ length: 300_000 }, (_, i) => ({ id: i, text: 'lorem ipsum dolor sit amet' }))))
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  const started = performance.now()
  await pool.run('parseJson', { bytes })
  const elapsed = performance.now() - started
  clearInterval(timer)
  t.ok(threadId === 0)
  t.ok(ticks >= Math.min(5, Math.floor(elapsed / 4)), `the event loop kept turning (${ticks} ticks in ${elapsed.toFixed(0)} ms)`)
})
