/**
 * Binary quantization: turning it on converts the stored vectors to sign bits (shown as -1/1), searches rank by
 * Hamming distance and rescore against the full-precision query, the switch cannot be undone (Meilisearch's message),
 * and searches running while the conversion is applied see every vector before or every vector after it.
 */
import t from 'tap'
import { call, serverFor, waitStatus, waitTask } from '../../helpers/server.js'
import { batchGate } from '../../helpers/batch-gate.js'

t.test('binary quantization', async (t) => {
  const gate = batchGate(t)
  const { url } = await serverFor(t, { env: gate.env })
  const patch = async (json: unknown) => waitTask(url, (await call(`${url}/indexes/q/settings`, { method: 'PATCH', json })).body.taskUid)
  await patch({ embedders: { e: { source: 'userProvided', dimensions: 4 } } })
  const docs = Array.from({ length: 300 }, (_, i) => ({ id: i, _vectors: { e: [0.3 + (i % 7) / 10, -0.2 - (i % 5) / 10, 0.25, (i % 2 === 0 ? 0.6 : -0.6)] } }))
  docs.push({ id: 1000, _vectors: { e: [0.9, 0.8, -0.7, 0.6] } })
  t.equal((await waitTask(url, (await call(`${url}/indexes/q/documents`, { method: 'POST', json: docs })).body.taskUid)).status, 'succeeded')
  const search = (vector: number[], limit = 5) => call(`${url}/indexes/q/search`, { method: 'POST', json: { vector, hybrid: { embedder: 'e', semanticRatio: 1 }, limit, retrieveVectors: true } })

  await t.test('concurrent searches see all old or all new vectors', async (t) => {
    // The conversion is held in `processing` until searches have seen the old vectors, then let go.
    gate.close()
    const r = await call(`${url}/indexes/q/settings`, { method: 'PATCH', json: { embedders: { e: { binaryQuantized: true } } } })
    await waitStatus(url, r.body.taskUid, 'processing')
    let searches = 0
    let done = false
    const task = waitTask(url, r.body.taskUid).then((x) => { done = true; return x })
    const kinds = new Set<string>()
    let mixed = 0
    while (!done) {
      const hits = (await search([0.5, -0.5, 0.2, 0.6], 50)).body.hits as any[]
      const quantized = hits.map((h) => h._vectors.e.embeddings[0].every((x: number) => x === 1 || x === -1))
      if (quantized.some((q) => q) && quantized.some((q) => !q)) mixed++
      kinds.add(quantized[0] ? 'new' : 'old')
      if (++searches === 5) gate.open()
    }
    t.equal((await task).status, 'succeeded')
    t.equal(mixed, 0, 'no search saw a mix')
    t.ok(kinds.has('old'), 'searches ran while the conversion was pending')
  })

  await t.test('vectors are sign bits now, and search still finds neighbours', async (t) => {
    const doc = (await call(`${url}/indexes/q/documents/1000?retrieveVectors=true`)).body
    t.same(doc._vectors.e, { embeddings: [[1, 1, -1, 1]], regenerate: false })
    const hits = (await search([0.9, 0.8, -0.7, 0.6], 1)).body.hits
    t.same(hits.map((h: any) => h.id), [1000])
    const stats = (await call(`${url}/indexes/q/stats`)).body
    t.equal(stats.numberOfEmbeddings, 301)
  })

  await t.test('new documents are quantized as they come', async (t) => {
    await waitTask(url, (await call(`${url}/indexes/q/documents`, { method: 'POST', json: [{ id: 2000, _vectors: { e: [-0.5, -0.5, -0.5, -0.5] } }] })).body.taskUid)
    const hits = (await search([-1, -1, -1, -1], 1)).body.hits
    t.same(hits.map((h: any) => h.id), [2000])
    t.same(hits[0]._vectors.e.embeddings, [[-1, -1, -1, -1]])
  })

  await t.test('the switch cannot be turned off', async (t) => {
    const r = await call(`${url}/indexes/q/settings`, { method: 'PATCH', json: { embedders: { e: { binaryQuantized: false } } } })
    const body = r.status === 202 ? (await waitTask(url, r.body.taskUid)).error : r.body
    t.equal(body.code, 'invalid_settings_embedders')
    t.match(body.message, '`.embedders.e.binaryQuantized`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.')
    const doc = (await call(`${url}/indexes/q/documents/1000?retrieveVectors=true`)).body
    t.same(doc._vectors.e.embeddings, [[1, 1, -1, 1]], 'nothing changed')
  })
})
