/**
 * An embedder's new `dimensions` re-check the user-provided vectors the index stores (they live in the vector store,
 * not in the documents): vectors of the old length fail the settings task with `invalid_vector_dimensions` and
 * nothing changes; with no vector stored, the change applies and vectors of the new length are accepted.
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'

// The stored vectors go back into their documents and are read again, so the error names the document.
const MESSAGE = 'Invalid vector dimensions in document with id `a` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3'

t.test('new dimensions against stored user-provided vectors', async (t) => {
  const { client } = await serverFor(t)
  const index = client.index('dims')
  t.equal((await index.updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } }).waitTask()).status, 'succeeded')
  t.equal((await index.addDocuments([{ id: 'a', name: 'x', _vectors: { manual: [1, 0] } }], { primaryKey: 'id' }).waitTask()).status, 'succeeded')
  const vectorsOfA = async () => ((await index.getDocument('a', { retrieveVectors: true } as never)) as { _vectors: unknown })._vectors

  for (const [what, embedders] of [
    ['the dimensions alone', { manual: { dimensions: 3 } }],
    ['with another embedder added in the same change', { manual: { source: 'userProvided', dimensions: 3 }, other: { source: 'userProvided', dimensions: 2 } }],
  ] as const) {
    const task = await index.updateSettings({ embedders } as never).waitTask()
    t.equal(task.status, 'failed', `${what}: the task fails`)
    t.equal(task.error?.code, 'invalid_vector_dimensions', what)
    t.equal(task.error?.message, MESSAGE, what)
    t.same(await vectorsOfA(), { manual: { embeddings: [[1, 0]], regenerate: false } }, `${what}: the vectors are kept`)
    t.same(await index.getEmbedders(), { manual: { source: 'userProvided', dimensions: 2 } }, `${what}: the settings are unchanged`)
  }
  const search = await index.search(null, { vector: [1, 0], hybrid: { embedder: 'manual', semanticRatio: 1 } })
  t.same(search.hits.map((h) => h.id), ['a'], 'semantic search still works on the old vectors')
})

t.test('new dimensions on an index with no vector stored', async (t) => {
  const { client } = await serverFor(t)
  const index = client.index('empty')
  t.equal((await index.updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } }).waitTask()).status, 'succeeded')
  t.equal((await index.updateSettings({ embedders: { manual: { dimensions: 3 } } } as never).waitTask()).status, 'succeeded')
  const added = await index.addDocuments([{ id: 'c', _vectors: { manual: [1, 0, 0] } }], { primaryKey: 'id' }).waitTask()
  t.equal(added.status, 'succeeded', 'vectors of the new length are accepted')
  const search = await index.search(null, { vector: [1, 0, 0], hybrid: { embedder: 'manual', semanticRatio: 1 } })
  t.same(search.hits.map((h) => h.id), ['c'], 'and searched')
  const short = await index.addDocuments([{ id: 'd', _vectors: { manual: [1, 0] } }]).waitTask()
  t.equal(short.error?.code, 'invalid_vector_dimensions', 'vectors of the old length are refused')
})
