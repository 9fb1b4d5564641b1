// `localServer` (Ollama-compatible): /api/embed batches, /api/embeddings single texts, the URL rules, the
// LOCAL_SERVER_URL fallback, and "model not found" on a 404.
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

const runtime = (env: Record<string, string> = {}): EmbedderRuntime => ({ allowedIpNetworks: ['127.0.0.0/8'], env, retries: 0 })

async function make(settings: Record<string, unknown>, rt = runtime()): Promise<Embedder> {
  const embedder = await createEmbedder('ollama', { source: 'ollama', model: 'nomic-embed-text', ...settings } as never, rt)
  open.push(embedder)
  return embedder
}

const round = (v: Float32Array) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6)

t.test('/api/embed sends batches of texts', async (t) => {
  const embedder = await make({ url: `${server.url}/api/embed` })
  t.equal(embedder.dimensions, 8)
  t.same(server.requests[0]!.body, { model: 'nomic-embed-text', input: ['test'] }, 'the dimension probe')
  const texts = Array.from({ length: 11 }, (_, i) => `word ${i}`)
  const vectors = await embedder.embedDocuments(texts)
  t.same(vectors.map(round), texts.map((x) => embedText(x, 8)))
  t.same(server.requests.slice(1).map((r) => (r.body as { input: string[] }).input.length).sort(), [1, 10])
})

t.test('/api/embeddings sends one prompt per request', async (t) => {
  const embedder = await make({ url: `${server.url}/api/embeddings`, dimensions: 8 })
  await embedder.embedDocuments(['a', 'b'])
  t.same(server.requests.map((r) => r.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
    { model: 'nomic-embed-text', prompt: 'a' }, { model: 'nomic-embed-text', prompt: 'b' },
  ])
  t.same(round(await embedder.embedQuery('kefir')), embedText('kefir', 8))
})

t.test('the URL comes from LOCAL_SERVER_URL when the settings have none', async (t) => {
  const embedder = await make({ dimensions: 8 }, runtime({ LOCAL_SERVER_URL: `${server.url}/api/embed` }))
  await embedder.embedQuery('x')
  t.equal(server.requests.at(-1)!.path, '/api/embed')
})

t.test('other URLs are refused', async (t) => {
  await t.rejects(make({ url: `${server.url}/v1/embeddings` }), {
    code: 'vector_embedding_error',
    message: `Error while generating embeddings: user error: unsupported Ollama URL.\n  - For \`ollama\` sources, the URL must end with \`/api/embed\` or \`/api/embeddings\`\n  - Got \`${server.url}/v1/embeddings\``,
  })
  t.equal(server.requests.length, 0)
})

t.test('a model the server lacks is "model not found"', async (t) => {
  await t.rejects(make({ url: `${server.url}/api/embed`, model: 'all-minilm' }), {
    message: 'Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: model not found. Tessera will not automatically download models from the Ollama library, please pull the model manually\n  - server replied with `{"error":"model \\"all-minilm\\" not found, try pulling it first"}`',
  })
  const embedder = await make({ url: `${server.url}/api/embed`, model: 'all-minilm', dimensions: 8 })
  await t.rejects(embedder.embedDocuments(['x']), { message: /^While embedding documents for embedder `ollama`: user error: model not found\./ })
})

t.test('the default URL is loopback: refused without an allow-list', async (t) => {
  const embedder = createEmbedder('ollama', { source: 'ollama', model: 'nomic-embed-text', dimensions: 8 } as never, { env: {}, retries: 0 })
  const built = await embedder
  open.push(built)
  await t.rejects(built.embedQuery('x'), { message: 'Error while generating embeddings: runtime error: could not reach embedding server:\n  - bad uri: Rejected URI' })
})
