/**
 * The vector graphs across restarts: saved beside the database and reloaded after a clean stop; after a `kill -9`
 * that left a graph file older than the database, repaired from RocksDB at start (new vectors added, dropped ones
 * taken out), so searches answer exactly what the committed batches say.
 */
import t from 'tap'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { call, startServer, tempDir, waitTask } from '../../helpers/server.js'

t.test('graphs survive restarts and crashes', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  let server = await startServer({ dbPath })
  t.teardown(() => server.stop())
  const go = async (path: string, method: string, json?: unknown) => {
    const r = await call(`${server.url}${path}`, { method, json })
    return r.body.taskUid === undefined ? r : waitTask(server.url, r.body.taskUid)
  }
  const nearest = async (vector: number[], limit = 3) => {
    const r = await call(`${server.url}/indexes/r/search`, { method: 'POST', json: { vector, hybrid: { embedder: 'e', semanticRatio: 1 }, limit } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    return r.body.hits.map((h: any) => h.id)
  }
  await go('/indexes/r/settings', 'PATCH', { embedders: { e: { source: 'userProvided', dimensions: 2 } } })
  await go('/indexes/r/documents', 'POST', [{ id: 1, _vectors: { e: [1, 0] } }, { id: 2, _vectors: { e: [0, 1] } }])
  t.same(await nearest([1, 0.1]), [1, 2])

  t.equal(await server.stop(), 0)
  const graphs = readdirSync(join(dbPath, 'vectors')).filter((f) => f.endsWith('.hnsw'))
  t.equal(graphs.length, 1, 'one graph file saved beside the database')
  server = await startServer({ dbPath })
  t.same(await nearest([1, 0.1]), [1, 2], 'reloaded after a clean stop')
  t.same(await nearest([0.1, 1]), [2, 1])

  // Batches right after one another: the graph file is saved at most every two seconds, so it lags behind.
  await go('/indexes/r/documents', 'POST', [{ id: 3, _vectors: { e: [-1, 0] } }])
  await go('/indexes/r/documents', 'POST', [{ id: 4, _vectors: { e: [-1, 0.1] } }, { id: 1, _vectors: { e: [0, -1] } }])
  await go('/indexes/r/documents/2', 'DELETE')
  t.same(await nearest([-1, 0]), [3, 4, 1])
  await server.kill9()
  server = await startServer({ dbPath })
  t.same(await nearest([-1, 0]), [3, 4, 1], 'repaired after kill -9: new vectors in, deleted and replaced ones out')
  t.same(await nearest([0, -1], 1), [1], 'a replaced vector is searched by its new value')
  t.same(await nearest([0, 1], 10), [4, 3, 1], 'the deleted document is gone')

  // A saved graph holding deleted labels (saved after a deletion) loads and repairs without trouble.
  await go('/indexes/r/documents/3', 'DELETE')
  await new Promise((r) => setTimeout(r, 2200))
  await go('/indexes/r/documents', 'POST', [{ id: 5, _vectors: { e: [1, 1] } }])
  await server.kill9()
  server = await startServer({ dbPath })
  t.same(await nearest([-1, 0], 10), [4, 1, 5], 'deleted labels in the saved graph stay out')
  t.ok(existsSync(join(dbPath, 'vectors')))

  // A batch large enough to have its graph built in the worker pool, then a crash right after it.
  const angle = (a: number) => [Math.cos(a), Math.sin(a)]
  await go('/indexes/r/documents', 'POST', Array.from({ length: 600 }, (_, i) => ({ id: 100 + i, _vectors: { e: angle(i / 100) } })))
  t.same(await nearest(angle(3.004), 2), [400, 401])
  t.same(await nearest([-1, 0.1], 1), [4], 'the documents of earlier batches are in the new graph')
  await server.kill9()
  server = await startServer({ dbPath })
  t.same(await nearest(angle(3.004), 2), [400, 401], 'a graph built in the pool, repaired after kill -9')
  t.same(await nearest(angle(5.5), 1), [650])
})
