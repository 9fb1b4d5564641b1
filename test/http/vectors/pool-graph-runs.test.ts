/**
 * A run of batches large enough to build their graphs in the worker pool: each build starts from the file the
 * previous one wrote (and the worker's kept graph), so what happened between them must still show: documents
 * deleted by a small batch in between stay out, replaced ones are found by their new vector, and everything holds
 * after a `kill -9` right after the last batch.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { call, startServer, tempDir, waitTask } from '../../helpers/server.js'

t.test('consecutive pool-built graphs', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  let server = await startServer({ dbPath })
  t.teardown(() => server.stop())
  const go = async (path: string, method: string, json?: unknown) => {
    const r = await call(`${server.url}${path}`, { method, json })
    const task = await waitTask(server.url, r.body.taskUid)
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  }
  const nearest = async (vector: number[], limit: number) => {
    const r = await call(`${server.url}/indexes/p/search`, { method: 'POST', json: { vector, hybrid: { embedder: 'e', semanticRatio: 1 }, limit } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    return r.body.hits.map((h: any) => h.id)
  }
  // Points on the unit circle: document i at angle i / 1000, so the neighbours of an angle are known.
  const angle = (a: number) => [Math.cos(a), Math.sin(a)]
  const docs = (from: number, to: number, shift = 0) => Array.from({ length: to - from }, (_, k) => ({ id: from + k, _vectors: { e: angle((from + k + shift) / 1000) } }))
  await go('/indexes/p/settings', 'PATCH', { embedders: { e: { source: 'userProvided', dimensions: 2 } } })

  await go('/indexes/p/documents', 'POST', docs(0, 1000))
  t.same(await nearest(angle(0.5004), 2), [500, 501])
  // A small batch in between: deletions only (the graph keeps its file, the deleted slots are out of the view).
  await go('/indexes/p/documents/delete-batch', 'POST', [500, 501])
  t.same(await nearest(angle(0.5004), 2), [499, 502])
  // The next large batch adds 1000 more and moves 100 of the first ones (each 3000 later on the circle).
  await go('/indexes/p/documents', 'POST', [...docs(1000, 2000), ...docs(200, 300, 3000)])
  t.same(await nearest(angle(0.5004), 2), [499, 502], 'the deleted documents stay out of the extended graph')
  t.same(await nearest(angle(1.5004), 2), [1500, 1501], 'the new documents are in')
  t.same(await nearest(angle(3.2504), 2), [250, 251], 'a moved document is found by its new vector')
  t.same(await nearest(angle(0.2504), 2), [300, 301], 'and not by its old one')
  // A third large batch right after, then a crash.
  await go('/indexes/p/documents', 'POST', docs(2000, 2600))
  t.same(await nearest(angle(2.3004), 2), [2300, 2301])
  await server.kill9()
  server = await startServer({ dbPath })
  t.same(await nearest(angle(0.5004), 2), [499, 502], 'after kill -9: deleted documents out')
  t.same(await nearest(angle(3.2504), 2), [250, 251], 'moved documents at their new place')
  t.same(await nearest(angle(2.3004), 2), [2300, 2301], 'the last batch in')
  t.same(await nearest(angle(1.5004), 2), [1500, 1501])
})
