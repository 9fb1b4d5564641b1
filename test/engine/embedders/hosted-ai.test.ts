// `hostedAi` (OpenAI-compatible) against the local server's /v1/embeddings: the bodies sent (model, input,
// dimensions only where Meilisearch sends it), the key from settings or HOSTED_AI_API_KEY, known dimensions.
import t from 'tap'
import { createEmbedder, type Embedder, type EmbedderRuntime } from '../../../engine/embedders/index.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'

let server: EmbeddingServer
const open: Embedder[] = []
t.beforeEach(async () => {
  server = await EmbeddingServer.start()
})
t.afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()))
  await server.close()
})

const runtime = (env: Record<string, string> = {}): EmbedderRuntime => ({ allowedIpNetworks: ['127.0.0.1/32'], env, retries: 0 })

async function make(settings: Record<string, unknown>, rt = runtime()): Promise<Embedder> {
  const embedder = await createEmbedder('openai', { source: 'openAi', url: `${server.url}/v1/embeddings`, ...settings } as never, rt)
  open.push(embedder)
  return embedder
}

t.test('default model, batched input, no dimensions field, no probe', async (t) => {
  server.dimensions = 1536
  const embedder = await make({})
  t.equal(embedder.dimensions, 1536)
  t.same(embedder.distribution, { mean: 0.75, sigma: 0.1 })
  t.equal(server.requests.length, 0)
  const texts = Array.from({ length: 12 }, (_, i) => `document ${i}`)
  const vectors = await embedder.embedDocuments(texts)
  t.equal(vectors.length, 12)
  t.same(Array.from(vectors[3]!.subarray(0, 4), (x) => Math.round(x * 1e6) / 1e6), embedText('document 3', 1536).slice(0, 4))
  const bodies = server.requests.map((r) => r.body as Record<string, unknown>).sort((a, b) => (b.input as string[]).length - (a.input as string[]).length)
  t.same(bodies[0], { model: 'text-embedding-3-small', input: texts.slice(0, 10) })
  t.same(bodies[1], { model: 'text-embedding-3-small', input: texts.slice(10) })
})

t.test('dimensions are sent for the 3-series models only', async (t) => {
  const small = await make({ model: 'text-embedding-3-small', dimensions: 256 })
  t.equal(small.dimensions, 256)
  await small.embedQuery('kefir')
  t.same(server.requests.at(-1)!.body, { model: 'text-embedding-3-small', input: ['kefir'], dimensions: 256 })
  t.equal((await small.embedQuery('intel')).length, 256)

  const large = await make({ model: 'text-embedding-3-large' })
  t.equal(large.dimensions, 3072)
  server.dimensions = 3072
  await large.embedQuery('kefir')
  t.same(server.requests.at(-1)!.body, { model: 'text-embedding-3-large', input: ['kefir'] })

  server.dimensions = 1536
  const ada = await make({ model: 'text-embedding-ada-002', dimensions: 1536 })
  await ada.embedQuery('kefir')
  t.same(server.requests.at(-1)!.body, { model: 'text-embedding-ada-002', input: ['kefir'] }, 'ada never gets dimensions')
  t.same(ada.distribution, { mean: 0.9, sigma: 0.08 })
})

t.test('the key: settings first, then HOSTED_AI_API_KEY, else no Authorization', async (t) => {
  server.apiKey = 'env-key'
  const fromEnv = await make({ model: 'text-embedding-3-small', dimensions: 8 }, runtime({ HOSTED_AI_API_KEY: 'env-key' }))
  await fromEnv.embedQuery('x')
  t.equal(server.requests.at(-1)!.headers.authorization, 'Bearer env-key')

  server.apiKey = 'settings-key'
  const fromSettings = await make({ dimensions: 8, apiKey: 'settings-key' }, runtime({ HOSTED_AI_API_KEY: 'env-key' }))
  await fromSettings.embedQuery('x')
  t.equal(server.requests.at(-1)!.headers.authorization, 'Bearer settings-key')

  const none = await make({ dimensions: 8 })
  await t.rejects(none.embedQuery('x'), {
    message: 'Error while generating embeddings: user error: could not authenticate against OpenAI server\n  - server replied with `{"error":{"message":"Incorrect API key provided: none"}}`\n  - Hint: Check the `apiKey` parameter in the embedder configuration, and the `HOSTED_AI_API_KEY` environment variable',
  })
  t.equal(server.requests.at(-1)!.headers.authorization, undefined)
})

t.test('a 400 from the vendor is reported as a bad request without the `request` hint', async (t) => {
  const embedder = await make({ dimensions: 8 })
  server.faults.push({ status: 400, body: '{"error":{"message":"maximum context length is 8192 tokens"}}' })
  await t.rejects(embedder.embedDocuments(['a very long text']), {
    message: 'While embedding documents for embedder `openai`: user error: sent a bad request to embedding server\n  - server replied with `{"error":{"message":"maximum context length is 8192 tokens"}}`',
  })
})
