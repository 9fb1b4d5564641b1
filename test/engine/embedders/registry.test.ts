// The per-thread registry: one build per (index, embedder, settings), rebuilt when the settings change, a failed
// build retried on the next call.
import t from 'tap'
import { closeEmbedders, closeIdleEmbedders, embedderFor, heldEmbedders, releaseEmbedders } from '../../../engine/embedders/index.js'
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

t.test('an index\'s settings decide which of its embedders stay; idle ones go; a build under way is aborted', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(async () => {
    await closeEmbedders()
    await server.close()
  })
  const settings = { source: 'rest', url: `${server.url}/single`, dimensions: 8, request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } }
  const runtime = { allowedIpNetworks: ['127.0.0.0/8'] }
  const names = () => heldEmbedders().map((h) => `${h.indexUid}/${h.name}`).sort()
  await embedderFor('a', 'kept', settings, runtime)
  await embedderFor('a', 'changed', settings, runtime)
  await embedderFor('a', 'removed', settings, runtime)
  await embedderFor('b', 'kept', settings, runtime)
  await releaseEmbedders('a', { kept: settings, changed: { ...settings, dimensions: 4 } })
  t.same(names(), ['a/kept', 'b/kept'], 'removed and changed embedders are closed')
  await releaseEmbedders('a', null)
  t.same(names(), ['b/kept'], 'an index gone: all of its embedders')

  await closeIdleEmbedders(60_000)
  t.same(names(), ['b/kept'], 'recently used: kept')
  await closeIdleEmbedders(60_000, Date.now() + 60_000)
  t.same(names(), [], 'unused for the idle time: closed')

  // A probe against a failing server retries for minutes: closing aborts it at once.
  server.faults.push(...Array.from({ length: 20 }, () => ({ status: 500 })))
  const probing = embedderFor('c', 'probe', { ...settings, dimensions: undefined }, runtime)
  await new Promise((resolve) => setTimeout(resolve, 50))
  await closeEmbedders('c')
  await t.rejects(probing, 'the build ends, rejected')
  t.ok(server.requests.length < 20, `the probe stopped retrying (${server.requests.length} requests)`)
  t.same(names(), [])
})
