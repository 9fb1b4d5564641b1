// The per-thread registry: one build per (index, embedder, settings), rebuilt when the settings change, a failed
// build retried on the next call.
import t from 'tap'
import { closeEmbedders, embedderFor } from '../../../engine/embedders/index.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

t.test('embedders are built once per settings and rebuilt when they change', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(async () => {
    await closeEmbedders()
    await server.close()
  })
  const settings = { source: 'rest', url: `${server.url}/single`, request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } }
  const runtime = { allowedIpNetworks: ['127.0.0.0/8'], retries: 0 }
  const [a, b] = await Promise.all([embedderFor('dogs', 'rest', settings, runtime), embedderFor('dogs', 'rest', settings, runtime)])
  t.equal(a, b, 'concurrent callers share one build')
  t.equal(server.requests.length, 1, 'one probe')
  t.equal(await embedderFor('dogs', 'rest', { ...settings }, runtime), a, 'equal settings reuse it')
  const other = await embedderFor('cats', 'rest', settings, runtime)
  t.not(other, a, 'another index gets its own')
  const changed = await embedderFor('dogs', 'rest', { ...settings, dimensions: 8 }, runtime)
  t.not(changed, a)

  server.faults.push({ status: 500 })
  await t.rejects(embedderFor('dogs', 'broken', settings, runtime), { code: 'vector_embedding_error' })
  const retried = await embedderFor('dogs', 'broken', settings, runtime)
  t.equal(retried.dimensions, 8, 'a failed build is not kept')

  await closeEmbedders('dogs')
  t.not(await embedderFor('dogs', 'rest', { ...settings, dimensions: 8 }, runtime), changed, 'closed embedders are forgotten')
  t.equal(await embedderFor('cats', 'rest', settings, runtime), other, 'other indexes keep theirs')
})
