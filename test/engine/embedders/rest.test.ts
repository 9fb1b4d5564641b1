// `rest` embedders against a real local server: request bodies, headers and batching, the dimension probe,
// retries and their waits, immediate failures, statistics, secrets kept out of errors, timeouts and cancellation.
import t from 'tap'
import { createEmbedder, type Embedder, type EmbedderRuntime } from '../../../engine/embedders/index.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'
import { until } from '../../helpers/engine.js'

const runtime: EmbedderRuntime = { allowedIpNetworks: ['127.0.0.0/8'], retries: 3 }

const single = (server: EmbeddingServer, extra: Record<string, unknown> = {}) => ({
  source: 'rest', url: `${server.url}/single`, request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } }, ...extra,
})
const batched = (server: EmbeddingServer, extra: Record<string, unknown> = {}) => ({
  source: 'rest', url: `${server.url}/batch`, request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] }, ...extra,
})

let server: EmbeddingServer
const open: Embedder[] = []
t.beforeEach(async () => {
  server = await EmbeddingServer.start()
})
t.afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()))
  await server.close()
})

async function make(settings: Record<string, unknown>, rt: EmbedderRuntime = runtime): Promise<Embedder> {
  const embedder = await createEmbedder('rest', settings as never, rt)
  open.push(embedder)
  return embedder
}

const plain = (v: Float32Array) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6)

t.test('single-text template: one request per text, dimensions probed with "test"', async (t) => {
  const embedder = await make(single(server))
  t.equal(embedder.dimensions, 8)
  t.same(server.requests.map((r) => r.body), [{ input: { content: 'test' } }])
  const vectors = await embedder.embedDocuments(['a brave dog', 'a cat', 'kefir'])
  t.same(vectors.map(plain), ['a brave dog', 'a cat', 'kefir'].map((text) => embedText(text, 8)))
  t.same(server.requestsTo('/single').slice(1).map((r) => r.body), [{ input: { content: 'a brave dog' } }, { input: { content: 'a cat' } }, { input: { content: 'kefir' } }])
  t.same(plain(await embedder.embedQuery('a brave dog')), embedText('a brave dog', 8))
})

t.test('repeated template: texts are batched ten per request by default, batchSize changes it', async (t) => {
  const texts = Array.from({ length: 25 }, (_, i) => `text number ${i}`)
  const embedder = await make(batched(server, { dimensions: 8 }))
  t.equal(server.requests.length, 0, 'no probe when dimensions are given')
  const vectors = await embedder.embedDocuments(texts)
  t.same(vectors.map(plain), texts.map((text) => embedText(text, 8)), 'vectors come back in order')
  const sizes = server.requests.map((r) => (r.body as { texts: unknown[] }).texts.length).sort((a, b) => b - a)
  t.same(sizes, [10, 10, 5])
  t.same(server.requests.flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text)).sort(), [...texts].sort())

  const small = await make(batched(server, { dimensions: 8, batchSize: 4 }))
  server.requests.length = 0
  await small.embedDocuments(texts)
  t.equal(server.requests.length, 7)
})

t.test('headers: JSON content type, a bearer only with an apiKey, explicit headers win', async (t) => {
  const anonymous = await make(single(server, { dimensions: 8 }))
  await anonymous.embedQuery('x')
  let headers = server.requests.at(-1)!.headers
  t.equal(headers['content-type'], 'application/json')
  t.equal(headers.authorization, undefined)

  const keyed = await make(single(server, { dimensions: 8, apiKey: 'my-key' }))
  await keyed.embedQuery('x')
  headers = server.requests.at(-1)!.headers
  t.equal(headers.authorization, 'Bearer my-key')

  const custom = await make(single(server, { dimensions: 8, apiKey: 'my-key', headers: { Authorization: 'Token other', 'Content-Type': 'application/json; charset=utf-8', 'x-tenant': 'dogs' } }))
  await custom.embedQuery('x')
  headers = server.requests.at(-1)!.headers
  t.equal(headers.authorization, 'Token other')
  t.equal(headers['content-type'], 'application/json; charset=utf-8')
  t.equal(headers['x-tenant'], 'dogs')
})

t.test('wrong dimensions fail at once with Meilisearch wording', async (t) => {
  const embedder = await make(single(server, { dimensions: 3 }))
  await t.rejects(embedder.embedDocuments(['kefir']), {
    code: 'vector_embedding_error',
    message: 'While embedding documents for embedder `rest`: runtime error: was expecting embeddings of dimension `3`, got embeddings of dimensions `8`',
  })
  t.equal(server.requests.length, 1, 'not retried')
  server.faults.push({ dimensions: 5 })
  await t.rejects(embedder.embedQuery('intel'), { message: 'Error while generating embeddings: runtime error: was expecting embeddings of dimension `3`, got embeddings of dimensions `5`' })
})

t.test('garbage JSON and 5xx are retried; the statistics count every attempt', async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }))
  server.faults.push({ garbage: true }, { status: 503 })
  t.same(plain(await embedder.embedQuery('kefir')), embedText('kefir', 8))
  t.equal(server.requests.length, 3)
  t.same(embedder.requests.take(), { total: 3, failed: 2, lastError: 'runtime error: received internal error HTTP 503 from embedding server\n  - server replied with `{"error":"scripted failure"}`' })

  server.faults.push({ garbage: true }, { garbage: true }, { garbage: true }, { garbage: true })
  await t.rejects(embedder.embedDocuments(['kefir']), {
    message: 'While embedding documents for embedder `rest`: runtime error: error deserializing the response body as JSON:\n  - expected ident at line 1 column 2',
  })
  t.same(embedder.requests.snapshot(), { total: 4, failed: 4, lastError: 'runtime error: error deserializing the response body as JSON:\n  - expected ident at line 1 column 2' }, 'first try and 3 retries')
})

t.test('5xx waits grow as 10^n ms, with jitter', async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }))
  server.faults.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 })
  await t.rejects(embedder.embedQuery('x'), {
    message: 'Error while generating embeddings: runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `{"error":"scripted failure"}`',
  })
  const at = server.requests.map((r) => r.at)
  t.equal(at.length, 4)
  // Waits 1, 10 and 100 ms scaled by [0.5, 1]: the last one is at least 50 ms.
  t.ok(at[3]! - at[2]! >= 45, `last wait ${at[3]! - at[2]!} ms`)
  t.ok(at[3]! - at[0]! < 2_000)
})

t.test("429 waits at least the server's Retry-After", async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }))
  server.faults.push({ status: 429, retryAfter: '1', body: 'slow down' })
  t.same(plain(await embedder.embedQuery('kefir')), embedText('kefir', 8))
  const [first, second] = server.requests
  t.ok(second!.at - first!.at >= 950, `waited ${second!.at - first!.at} ms`)
  t.equal(embedder.requests.lastError, 'runtime error: sent too many requests to embedding server\n  - server replied with `slow down`')
})

t.test('400, 401 and 403 fail at once with the remote message', async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }))
  const cases: [number, string][] = [
    [400, "user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server's API\n  - server replied with `{\"error\":\"bad\"}`"],
    [401, 'user error: could not authenticate against embedding server\n  - server replied with `{"error":"bad"}`\n  - Hint: Check the `apiKey` parameter in the embedder configuration'],
    [403, 'error: received unexpected HTTP 403 from embedding server\n  - server replied with `{"error":"bad"}`'],
    [404, 'error: received unexpected HTTP 404 from embedding server\n  - server replied with `{"error":"bad"}`'],
  ]
  for (const [status, reason] of cases) {
    server.requests.length = 0
    server.faults.push({ status, body: '{"error":"bad"}' })
    await t.rejects(embedder.embedDocuments(['kefir']), { code: 'vector_embedding_error', message: `While embedding documents for embedder \`rest\`: ${reason}` }, String(status))
    t.equal(server.requests.length, 1, `${status} is not retried`)
  }
})

t.test('a failing probe fails the creation with Meilisearch wording', async (t) => {
  server.faults.push({ status: 400, body: '{"error":"Invalid request"}' })
  await t.rejects(make(single(server)), {
    code: 'vector_embedding_error',
    message: "Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server's API\n  - server replied with `{\"error\":\"Invalid request\"}`",
  })
  await t.rejects(make({ ...single(server), response: { result: { vectors: '{{embedding}}' } } }), {
    message: 'Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with runtime error: error extracting embeddings from the response:\n  - in `response.result`, while extracting a single "{{embedding}}", configuration expects key "vectors", which is missing in response\n  - Hint: `result` has key `vector`, did you mean `response.result.vector` in embedder configuration?',
  })
})

t.test('the API key never appears in errors or statistics', async (t) => {
  server.apiKey = 'the-right-key'
  const secret = 'sk-very-secret-0123456789'
  const embedder = await make(single(server, { dimensions: 8, apiKey: secret, headers: { 'x-api-key': 'another-secret-value' } }))
  const failure = await embedder.embedQuery('x').then(() => null, (err: Error) => err)
  t.ok(failure)
  t.match(failure!.message, /could not authenticate against embedding server\n {2}- server replied with `.*Incorrect API key provided: Bearer XXX\.\.\./)
  t.notMatch(failure!.message, secret)
  t.notMatch(String(embedder.requests.lastError), secret)
  t.notMatch(JSON.stringify(failure), secret)
})

t.test('a hanging server: the attempt times out, then the call fails', async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }), { ...runtime, requestTimeoutMs: 200, retries: 1 })
  server.faults.push({ hang: true }, { hang: true })
  const started = Date.now()
  await t.rejects(embedder.embedQuery('x'), { message: 'Error while generating embeddings: runtime error: could not reach embedding server:\n  - timeout: global' })
  t.ok(Date.now() - started < 10_000, 'two attempts of 200 ms, not a hang')
  t.equal(server.requests.length, 2)
})

t.test('cancellation stops the requests of a call at once', async (t) => {
  const embedder = await make(batched(server, { dimensions: 8, batchSize: 1 }))
  server.faults.push({ hang: true }, { hang: true }, { hang: true })
  const controller = new AbortController()
  const call = embedder.embedDocuments(['a', 'b', 'c'], { signal: controller.signal })
  await until(() => server.inFlight === 3)
  const started = Date.now()
  controller.abort(new Error('task canceled'))
  await t.rejects(call, { message: 'task canceled' })
  t.ok(Date.now() - started < 10_000, 'long before the 30 s request timeout')
  await until(() => server.inFlight === 0)
  t.pass('the server sees the connections closed')
  t.equal(embedder.requests.failed, 0, 'a canceled request is not a failure')
  await t.rejects(embedder.embedDocuments(['a'], { signal: controller.signal }), { message: 'task canceled' }, 'an aborted signal sends nothing')
  t.equal(server.requests.length, 3)
})

t.test('the first failing request cancels the others of the call', async (t) => {
  const embedder = await make(batched(server, { dimensions: 8, batchSize: 1 }))
  server.faults.push({ status: 401, delayMs: 50 }, { hang: true }, { hang: true })
  const started = Date.now()
  await t.rejects(embedder.embedDocuments(['a', 'b', 'c']), { message: /could not authenticate/ })
  t.ok(Date.now() - started < 10_000, 'long before the 30 s request timeout')
  await until(() => server.inFlight === 0)
  t.pass('the hanging requests were closed')
})

t.test('requests in flight stay under maxConcurrentRequests', async (t) => {
  server.latencyMs = 40
  const embedder = await make(single(server, { dimensions: 8, maxConcurrentRequests: 3 }))
  await embedder.embedDocuments(Array.from({ length: 12 }, (_, i) => `t${i}`))
  t.equal(server.maxInFlight, 3)
})

t.test('an unreachable server is retried, then reported', async (t) => {
  const url = server.url
  await server.close()
  const embedder = await createEmbedder('rest', { ...single(server), url: `${url}/single`, dimensions: 8 } as never, { ...runtime, retries: 1 })
  open.push(embedder)
  await t.rejects(embedder.embedQuery('x'), { message: 'Error while generating embeddings: runtime error: could not reach embedding server:\n  - io: Connection refused (os error 111)' })
  t.same(embedder.requests.snapshot().total, 2)
  server = await EmbeddingServer.start()
})

t.test('a query deadline stops the retries', async (t) => {
  const embedder = await make(single(server, { dimensions: 8 }), { ...runtime, retries: 10 })
  for (let i = 0; i < 10; i++) server.faults.push({ status: 500 })
  const started = Date.now()
  await t.rejects(embedder.embedQuery('x', { deadline: Date.now() + 150 }), { message: /received internal error HTTP 500/ })
  t.ok(Date.now() - started < 10_000, `gave up after ${Date.now() - started} ms`)
  t.ok(server.requests.length < 10)
})
