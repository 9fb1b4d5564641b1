// `composite` with two different sources: documents go to the indexing embedder, queries to the search embedder;
// creation checks that both agree (dimensions, then similar test vectors).
import t from 'tap'
import { createEmbedder, type Embedder } from '../../../engine/embedders/index.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'

let server: EmbeddingServer
let other: EmbeddingServer
const open: Embedder[] = []
t.beforeEach(async () => {
  server = await EmbeddingServer.start()
  other = await EmbeddingServer.start()
})
t.afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()))
  await Promise.all([server.close(), other.close()])
})

const runtime = { allowedIpNetworks: ['127.0.0.0/8'], retries: 0, queryCacheEntries: 10 }

const indexing = (s: EmbeddingServer) => ({
  source: 'rest', url: `${s.url}/batch`, request: { texts: [{ text: '{{text}}' }, '{{..}}'] },
  response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] }, documentTemplate: '{{ doc.name }}', documentTemplateMaxBytes: 400,
})
const search = (s: EmbeddingServer) => ({ source: 'ollama', model: 'nomic-embed-text', url: `${s.url}/api/embed` })

async function make(settings: Record<string, unknown>): Promise<Embedder> {
  const embedder = await createEmbedder('hybrid', { source: 'composite', ...settings } as never, runtime)
  open.push(embedder)
  return embedder
}

t.test('documents go to the indexing embedder, queries to the search embedder', async (t) => {
  const embedder = await make({ indexingEmbedder: indexing(server), searchEmbedder: search(other) })
  t.equal(embedder.kind, 'composite')
  t.equal(embedder.dimensions, 8)
  t.equal(embedder.documentTemplate!.render({ name: 'kefir', age: 3 }), 'kefir', "the indexing embedder's template")
  const probesAndChecks = { index: server.requests.length, search: other.requests.length }
  const vectors = await embedder.embedDocuments(['kefir', 'intel'])
  t.same(vectors.map((v) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6)), [embedText('kefir', 8), embedText('intel', 8)])
  t.equal(server.requests.length, probesAndChecks.index + 1)
  t.equal(other.requests.length, probesAndChecks.search)
  await embedder.embedQuery('a brave dog')
  t.equal(other.requests.length, probesAndChecks.search + 1)
  t.same((other.requests.at(-1)!.body as { input: string[] }).input, ['a brave dog'])
  t.equal(server.requests.length, probesAndChecks.index + 1)
  await embedder.embedQuery('a brave dog')
  t.equal(other.requests.length, probesAndChecks.search + 1, 'the second query comes from the cache')
})

t.test('different dimensions are refused', async (t) => {
  other.dimensions = 12
  await t.rejects(make({ indexingEmbedder: indexing(server), searchEmbedder: search(other) }), {
    code: 'vector_embedding_error',
    message: "Error while generating embeddings: user error: error while generating test embeddings.\n  - the dimensions of embeddings produced at search time and at indexing time don't match.\n  - Search time dimensions: 12\n  - Indexing time dimensions: 8\n  - Note: Dimensions of embeddings produced by both embedders are required to match.",
  })
})

t.test('dissimilar vectors are refused', async (t) => {
  other.salt = 'another model'
  await t.rejects(make({ indexingEmbedder: indexing(server), searchEmbedder: search(other) }), {
    message: /^Error while generating embeddings: user error: error while generating test embeddings\.\n {2}- the embeddings produced at search time and indexing time are not similar enough\.\n {2}- angular distance \d\.\d\d\n {2}- Tessera requires a maximum distance of 0\.01\.\n {2}- Note: check that both embedders produce similar embeddings\.$/,
  })
})

t.test('a failing half is named', async (t) => {
  other.faults.push({}, { status: 400, body: 'nope' })
  await t.rejects(make({ indexingEmbedder: indexing(server), searchEmbedder: search(other) }), {
    message: 'Error while generating embeddings: runtime error: error while generating test embeddings.\n  - could not generate test embedding with embedder at search time.\n  - Embedding failed with user error: sent a bad request to embedding server\n  - server replied with `nope`',
  })
})
