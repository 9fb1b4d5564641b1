// Embedding generation for chunks of documents (embedders/generate.ts, generate-chunks.ts) against a real local
// embedding server and the generated tiny BERT model: which documents are embedded (new, `_vectors`, regenerate,
// unchanged text skipped, forced), failures as values with Meilisearch's messages, cancelation, the pool job.
import t from 'tap'
import { closeEmbedders, generateAll, generateEmbeddings, textHash, type GenerateInput } from '../../../engine/embedders/index.js'
import { embeddingRunner } from '../../../engine/pool/jobs.js'
import { createWorkerPool } from '../../../workers/pool.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'
import { tinyBertHiddenStates, writeTinyBertModel } from '../../helpers/tiny-bert.js'

const runtime = { allowedIpNetworks: ['127.0.0.0/8'], retries: 2, maxRetryDurationMs: 20 }
const plain = (v: Float32Array) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6)

let server: EmbeddingServer
let index = 0
t.beforeEach(async () => {
  server = await EmbeddingServer.start()
  index++
})
t.afterEach(async () => {
  await closeEmbedders()
  await server.close()
})

const rest = (extra: Record<string, unknown> = {}) => ({
  source: 'rest', url: `${server.url}/batch`, dimensions: 8, documentTemplate: '{{doc.title}}',
  request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] }, ...extra,
})

function input(docs: Record<string, unknown>[], extra: Partial<GenerateInput> = {}): GenerateInput {
  return {
    indexUid: `generate-${index}`, docs: JSON.stringify(docs), ids: docs.map((d) => String(d.id)),
    embedders: { emb: { settings: rest() as never } }, runtime, ...extra,
  }
}

const texts = () => server.requestsTo('/batch').flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text))

t.test('new documents are embedded from their template unless they bring their own vectors', async (t) => {
  const docs = [
    { id: 1, title: 'a brave dog' },
    { id: 2, title: 'kefir', _vectors: { emb: [0, 1, 0, 0, 0, 0, 0, 0] } },
    { id: 3, title: 'cat', _vectors: { emb: null } },
    { id: 4, title: 'hello world', _vectors: { emb: { regenerate: true } } },
    { id: 5, title: 'nope', _vectors: { emb: { regenerate: false } } },
    { id: 6, title: 'given', _vectors: { emb: { embeddings: [[1, 0, 0, 0, 0, 0, 0, 0]], regenerate: true } } },
    { id: 7, title: 'the test', _vectors: { other: [1] } },
  ]
  const out = await generateEmbeddings(input(docs))
  t.equal(out.error, undefined)
  t.same(texts(), ['a brave dog', 'hello world', 'the test'], 'one request with the three texts to embed')
  t.equal(server.requestsTo('/batch').length, 1)
  t.same(out.vectors.map((v) => Object.keys(v)), [['emb'], [], [], ['emb'], [], [], ['emb']])
  t.same(plain(out.vectors[0]!.emb!.embeddings[0]!), embedText('a brave dog', 8))
  t.same({ ...out.vectors[3]!.emb!, embeddings: [] }, { embeddings: [], userProvided: false, regenerate: true })
  t.equal(out.textHashes[0]!.emb, textHash('a brave dog'))
  t.same(out.requests.emb, { total: 1, failed: 0, lastError: null })
})

t.test('unchanged text is not embedded again; changed text, forced embedders and user vectors turned generated are', async (t) => {
  const docs = [{ id: 1, title: 'a brave dog', year: 2000 }, { id: 2, title: 'a cat now' }, { id: 3, title: 'kefir' }, { id: 4, title: 'intel' }]
  const previous = [
    { emb: { regenerate: true, textHash: textHash('a brave dog') } },
    { emb: { regenerate: true, textHash: textHash('a cat') } },
    { emb: { regenerate: false } },
    null,
  ]
  const out = await generateEmbeddings(input(docs, { previous }))
  t.same(texts(), ['a cat now', 'intel'], 'a partial update of a field the template does not read costs no request; user-provided vectors are kept')
  t.same(out.vectors.map((v) => Object.keys(v)), [[], ['emb'], [], ['emb']])
  server.requests.length = 0
  const again = await generateEmbeddings(input(docs, { previous, embedders: { emb: { settings: rest() as never, force: true } } }))
  t.same(texts(), ['a brave dog', 'a cat now', 'intel'], 'force (a model change) re-embeds every generated document')
  t.same(again.vectors.map((v) => Object.keys(v)), [['emb'], ['emb'], [], ['emb']])
})

t.test('without stored hashes, the previous version is rendered again (with the previous template after a change)', async (t) => {
  const docs = [{ id: 1, title: 'dog', kind: 'pet' }, { id: 2, title: 'cat', kind: 'pet' }]
  const previousDocs = JSON.stringify([{ id: 1, title: 'dog', kind: 'wild' }, { id: 2, title: 'kitten', kind: 'pet' }])
  const previous = [{ emb: { regenerate: true } }, { emb: { regenerate: true } }]
  await generateEmbeddings(input(docs, { previous, previousDocs }))
  t.same(texts(), ['cat'], 'only the document whose rendered text changed')
  server.requests.length = 0
  const embedders = { emb: { settings: rest({ documentTemplate: '{{doc.title}} ({{doc.kind}})' }) as never, previousTemplate: { documentTemplate: '{{doc.title}}' } } }
  const sameDocs = JSON.stringify(docs)
  await generateEmbeddings(input(docs, { previous, previousDocs: sameDocs, embedders }))
  t.same(texts(), ['dog (pet)', 'cat (pet)'], 'a template change re-embeds what renders differently')
  server.requests.length = 0
  const unchanged = { emb: { settings: rest({ documentTemplate: '{{ doc.title }}' }) as never, previousTemplate: { documentTemplate: '{{doc.title}}' } } }
  await generateEmbeddings(input(docs, { previous, previousDocs: sameDocs, embedders: unchanged }))
  t.same(texts(), [], 'a template change that renders the same text costs nothing')
})

t.test('the default template lists the searchable fields, in the index order', async (t) => {
  const settings = { ...rest(), documentTemplate: undefined }
  await generateEmbeddings(input([{ id: 1, title: 'dog', secret: 'x', year: 3 }], {
    embedders: { emb: { settings: settings as never } }, fieldNames: ['id', 'year', 'title', 'secret'], searchable: ['title', 'year', 'id'],
  }))
  t.same(texts(), ['id: 1\nyear: 3\ntitle: dog\n'])
})

t.test('failures come back as values with Meilisearch\'s messages, and nothing else', async (t) => {
  server.faults.push({ status: 400, body: '{"error":"bad input"}' })
  const out = await generateEmbeddings(input([{ id: 1, title: 'dog' }]))
  t.equal(out.error?.code, 'vector_embedding_error')
  t.match(out.error?.message, /^While embedding documents for embedder `emb`: user error: sent a bad request to embedding server\n {2}- Hint: check that the `request` in the embedder configuration matches the remote server's API\n {2}- server replied with `\{"error":"bad input"\}`$/)
  t.same(out.requests.emb, { total: 1, failed: 1, lastError: out.error!.message.replace('While embedding documents for embedder `emb`: ', '') })

  const missing = await generateEmbeddings(input([{ id: 1, title: 'dog', _vectors: { emb: [1, 2, 3, 4, 5, 6, 7, 8] } }], {
    embedders: { emb: { settings: { ...rest(), documentTemplate: '{{doc.missing}}' } as never } },
  }))
  t.same(missing.vectors, [{}], 'a document bringing its vectors is not rendered')
  const broken = await generateEmbeddings(input([{ id: 'x1', title: 'dog' }], { embedders: { emb: { settings: { ...rest(), documentTemplate: '{{doc.missing}}' } as never } } }))
  t.equal(broken.error?.code, 'invalid_document_fields')
  t.match(broken.error?.message, /^user error: missing field in document `x1`: liquid: Unknown index/)
})

t.test('a userProvided embedder fails for new documents without vectors, with the hints Meilisearch gives', async (t) => {
  const manual = { settings: { source: 'userProvided', dimensions: 2 } as never }
  const none = await generateEmbeddings(input([{ id: 1 }, { id: 2 }, { id: 3, _vectors: { manual: [1, 2] } }], { embedders: { manual } }))
  t.equal(none.error?.code, 'vector_embedding_error')
  t.equal(none.error?.message, 'While embedding documents for embedder `manual`: no vectors provided for document `1` and at least 1 other document(s)\n- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n- Hint: opt-out for a document with `_vectors.manual: null`')
  const typo = await generateEmbeddings(input([{ id: 1, _vector: { manual: [1, 2] } }, { id: 2, _vectors: { manuel: [1, 2] } }], { embedders: { manual } }))
  t.equal(typo.error?.message, 'While embedding documents for embedder `manual`: no vectors provided for document `1` and at least 1 other document(s)\n- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n- Hint: try replacing `_vector` by `_vectors` in 1 document(s).\n- Hint: try replacing `_vectors.manuel` by `_vectors.manual` in 1 document(s).')
  const fine = await generateEmbeddings(input([{ id: 1, _vectors: { manual: null } }, { id: 2 }], { embedders: { manual }, previous: [null, { manual: { regenerate: false } }] }))
  t.equal(fine.error, undefined, 'opted out, or an update keeping its stored vectors')
  t.equal(server.requests.length, 0)
})

t.test('a canceled generation stops its requests and rejects with the signal\'s reason', async (t) => {
  server.faults.push({ hang: true })
  const controller = new AbortController()
  const pending = generateEmbeddings(input([{ id: 1, title: 'dog' }]), { signal: controller.signal })
  while (server.inFlight === 0) await new Promise((r) => setTimeout(r, 5))
  const reason = new Error('task canceled')
  controller.abort(reason)
  await t.rejects(pending, reason)
  while (server.inFlight > 0) await new Promise((r) => setTimeout(r, 5))
  t.pass('the hanging request was closed')
})

t.test('generateAll: chunks side by side in the pool, in order, request counts summed; failures stop the rest', async (t) => {
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  const docs = Array.from({ length: 50 }, (_, i) => ({ id: i, title: `document number ${i}` }))
  const settings = rest({ batchSize: 3, maxConcurrentRequests: 2 })
  const base = { indexUid: `generate-${index}`, docs, ids: docs.map((d) => String(d.id)), embedders: { emb: { settings: settings as never } }, runtime }
  const out = await generateAll(base, embeddingRunner(pool), { signal: new AbortController().signal, parallel: 2 })
  t.equal(out.error, undefined)
  t.equal(out.vectors.length, 50)
  out.vectors.forEach((v, i) => t.same(plain(v.emb!.embeddings[0]!), embedText(`document number ${i}`, 8)))
  t.same(out.requests.emb, { total: 17, failed: 0, lastError: null }, 'chunks of 6 documents, requests of 3 texts')
  t.ok(server.requestsTo('/batch').every((r) => (r.body as { texts: unknown[] }).texts.length <= 3))

  server.faults.push({ status: 401, body: 'nope' })
  const failed = await generateAll(base, embeddingRunner(pool), { signal: new AbortController().signal, parallel: 2 })
  t.equal(failed.error?.code, 'vector_embedding_error')
  t.match(failed.error?.message, /^While embedding documents for embedder `emb`: user error: could not authenticate against embedding server/)

  // A server of its own for the canceled run: a request the failed run had sent before its other chunk was stopped
  // can still reach the first server now, and would take the hanging answer (seen on a busy machine).
  const quiet = await EmbeddingServer.start()
  t.teardown(() => quiet.close())
  const cancelable = { ...base, embedders: { emb: { settings: { ...settings, url: `${quiet.url}/batch` } as never } } }
  quiet.faults.push({ hang: true })
  const controller = new AbortController()
  const pending = generateAll(cancelable, embeddingRunner(pool), { signal: controller.signal, parallel: 2 })
  while (quiet.inFlight === 0) await new Promise((r) => setTimeout(r, 5))
  const reason = new Error('task canceled')
  controller.abort(reason)
  await t.rejects(pending, reason, 'a cancelation ends the worker running the chunk')
  while (quiet.inFlight > 0) await new Promise((r) => setTimeout(r, 5))
  const after = await generateAll(cancelable, embeddingRunner(pool), { signal: new AbortController().signal, parallel: 2 })
  t.equal(after.vectors.length, 50, 'the pool works after a canceled job')
})

t.test('localHub documents with the tiny BERT model, inline and in the pool', async (t) => {
  const models = t.testdir({})
  const model = await writeTinyBertModel(models, 'tiny')
  const docs = [{ id: 1, title: 'a brave dog' }, { id: 2, title: 'kefir is good' }]
  const base = {
    indexUid: `generate-${index}`, docs, ids: ['1', '2'], runtime: { modelsPath: models },
    embedders: { hub: { settings: { source: 'huggingFace', model: 'tiny', pooling: 'forceCls', documentTemplate: '{{doc.title}}' } as never } },
  }
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  for (const run of [embeddingRunner(undefined), embeddingRunner(pool)]) {
    const out = await generateAll(base, run, { signal: new AbortController().signal, parallel: 1 })
    t.equal(out.error, undefined)
    docs.forEach((d, i) => {
      const expected = tinyBertHiddenStates(model, d.title)[0]!
      t.ok(expected.every((x, j) => Math.abs(x - out.vectors[i]!.hub!.embeddings[0]![j]!) < 1e-5), d.title)
    })
  }
  const missing = await generateAll({ ...base, embedders: { hub: { settings: { source: 'huggingFace', model: 'absent' } as never } } }, embeddingRunner(pool), { signal: new AbortController().signal, parallel: 1 })
  t.equal(missing.error?.code, 'vector_embedding_error')
  t.match(missing.error?.message, /absent/)
})

t.test('shareLimits splits concurrency and rate limits between the threads embedding at once', async (t) => {
  const { shareLimits } = await import('../../../engine/embedders/generate-chunks.js')
  t.same(shareLimits({ source: 'rest', requestsPerMinute: 100, tokensPerMinute: 1000 } as never, 3), { source: 'rest', maxConcurrentRequests: 13, requestsPerMinute: 33, tokensPerMinute: 333 })
  t.same(shareLimits({ source: 'openAi', maxConcurrentRequests: 1 } as never, 4), { source: 'openAi', maxConcurrentRequests: 1 }, 'at least one each')
  t.same(shareLimits({ source: 'rest', requestsPerMinute: 100 } as never, 1), { source: 'rest', requestsPerMinute: 100 })
  t.same(shareLimits({ source: 'huggingFace', model: 'x' } as never, 2), { source: 'huggingFace', model: 'x' }, 'local models are left alone')
  t.same(shareLimits({ source: 'composite', indexingEmbedder: { source: 'ollama', model: 'm' }, searchEmbedder: { source: 'ollama', model: 'm' } } as never, 2),
    { source: 'composite', indexingEmbedder: { source: 'ollama', model: 'm', maxConcurrentRequests: 20 }, searchEmbedder: { source: 'ollama', model: 'm' } })
})
