/**
 * Generated embeddings through HTTP with the meilisearch client, against a local embedding server: documents get
 * their template's vectors (`retrieveVectors`), a partial update of a field the template does not read sends no
 * request, a template change re-embeds, a failing embedder fails the task with nothing applied, a userProvided
 * embedder refuses new documents without vectors, and batches report `embedderRequests`.
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'

const round = (v: number[]) => v.map((x) => Math.round(x * 1e5) / 1e5)

t.test('generated embeddings', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8', '--experimental-embedding-cache-entries', '10'] })
  const index = client.index('movies')
  const rest = {
    source: 'rest' as const, url: `${remote.url}/batch`, documentTemplate: '{{doc.title}}',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  const settingsTask = await index.updateSettings({ embedders: { rest } }).waitTask()
  t.equal(settingsTask.status, 'succeeded', JSON.stringify(settingsTask.error))
  const vectorOf = async (id: string) => {
    const doc = await index.getDocument(id, { retrieveVectors: true } as never) as { _vectors: Record<string, { embeddings: number[][]; regenerate: boolean }> }
    return doc._vectors.rest!
  }
  // The dimension probe (`test`) is sent whenever an embedder is built with new settings: left out here.
  const sentTexts = () => remote.requestsTo('/batch').flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text)).filter((x) => x !== 'test')

  await t.test('added documents get the vectors of their rendered template', async (t) => {
    remote.requests.length = 0
    const task = await index.addDocuments([{ id: '1', title: 'a brave dog', year: 2000 }, { id: '2', title: 'kefir', year: 2001 }, { id: '3', title: 'given', _vectors: { rest: [1, 0, 0, 0, 0, 0, 0, 0] } }]).waitTask()
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
    t.same(sentTexts(), ['a brave dog', 'kefir'], 'one request for the two texts (the probe aside); a document with vectors is not sent')
    const one = await vectorOf('1')
    t.same(one.embeddings.map(round), [round(embedText('a brave dog', 8))])
    t.equal(one.regenerate, true)
    t.same((await vectorOf('3')).embeddings, [[1, 0, 0, 0, 0, 0, 0, 0]])
    const batch = await client.batches.getBatch(task.batchUid!)
    t.same((batch.stats as Record<string, unknown>).embedderRequests, { total: 1, failed: 0 }, 'the batch counts its embedder requests (not the dimension probe)')
  })

  await t.test('a partial update of a field the template does not read sends no request', async (t) => {
    remote.requests.length = 0
    t.equal((await index.updateDocuments([{ id: '1', year: 1999 }]).waitTask()).status, 'succeeded')
    t.same(sentTexts(), [])
    t.equal((await index.updateDocuments([{ id: '2', title: 'kefir is good' }]).waitTask()).status, 'succeeded')
    t.same(sentTexts(), ['kefir is good'])
    t.same((await vectorOf('2')).embeddings.map(round), [round(embedText('kefir is good', 8))])
  })

  await t.test('a template change re-embeds the documents whose text changed', async (t) => {
    remote.requests.length = 0
    const task = await index.updateSettings({ embedders: { rest: { documentTemplate: '{{doc.title}} {{doc.year}}' } as never } }).waitTask()
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
    t.same(sentTexts().sort(), ['a brave dog 1999', 'kefir is good 2001'], 'user-provided vectors stay')
    t.same((await vectorOf('1')).embeddings.map(round), [round(embedText('a brave dog 1999', 8))])
    t.same((await vectorOf('3')).embeddings, [[1, 0, 0, 0, 0, 0, 0, 0]])
  })

  await t.test('a hybrid search with q alone embeds the query (cached) and ranks by it', async (t) => {
    remote.requests.length = 0
    const search = () => index.search('kefir is good', { hybrid: { embedder: 'rest', semanticRatio: 1 }, showRankingScore: true })
    const result = await search()
    t.equal(result.hits[0]?.id, '2', 'the nearest document first')
    t.equal((result as { semanticHitCount?: number }).semanticHitCount, result.hits.length)
    t.same(sentTexts(), ['kefir is good'], 'the query text is embedded')
    await search()
    t.same(sentTexts(), ['kefir is good'], 'the second identical query comes from the cache')
    remote.faults.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 })
    const mixed = await index.search('brave dog', { hybrid: { embedder: 'rest', semanticRatio: 0.5 } })
    t.equal(mixed.hits[0]?.id, '1', 'a failing embedder: hybrid falls back to keyword hits')
    t.equal((mixed as { semanticHitCount?: number }).semanticHitCount, 0, 'no semantic hit')
    remote.faults.length = 0
  })

  await t.test('a failing embedder fails the task and nothing is applied', async (t) => {
    remote.faults.push({ status: 400, body: '{"error":"no"}' })
    const task = await index.addDocuments([{ id: '4', title: 'the cat', year: 3 }]).waitTask()
    t.equal(task.status, 'failed')
    t.equal(task.error?.code, 'vector_embedding_error')
    t.equal(task.error?.message, 'Index `movies`: While embedding documents for embedder `rest`: user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server\'s API\n  - server replied with `{"error":"no"}`')
    await t.rejects(index.getDocument('4'), /Document `4` not found/)
    const batch = await client.batches.getBatch(task.batchUid!)
    t.match((batch.stats as Record<string, unknown>).embedderRequests, { total: 1, failed: 1, lastError: /^user error: sent a bad request/ })
    const broken = await index.addDocuments([{ id: '5', title: 'no year' }]).waitTask()
    t.equal(broken.error?.code, 'invalid_document_fields', 'a template reading a field the document lacks')
    t.match(broken.error?.message, /^Index `movies`: user error: missing field in document `5`: liquid: Unknown index/)
  })

  await t.test('a userProvided embedder refuses new documents without vectors', async (t) => {
    const manual = client.index('manual')
    t.equal((await manual.updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } }).waitTask()).status, 'succeeded')
    const task = await manual.addDocuments([{ id: 1 }, { id: 2, _vectors: { manual: null } }, { id: 3 }]).waitTask()
    t.equal(task.status, 'failed')
    t.equal(task.error?.message, 'Index `manual`: While embedding documents for embedder `manual`: no vectors provided for document `1` and at least 1 other document(s)\n- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n- Hint: opt-out for a document with `_vectors.manual: null`')
    t.equal(task.error?.code, 'vector_embedding_error')
  })
})

t.test('Tessera\'s tuning fields: batch size, concurrency and rate limits of remote embedders', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client, url } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  const index = client.index('tuned')
  const rest = {
    source: 'rest', url: `${remote.url}/batch`, dimensions: 8, documentTemplate: '{{doc.title}}', batchSize: 2, maxConcurrentRequests: 1, requestsPerMinute: 6000,
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  const settingsTask = await index.updateSettings({ embedders: { rest } as never }).waitTask()
  t.equal(settingsTask.status, 'succeeded', JSON.stringify(settingsTask.error))
  const shown = (await index.getEmbedders() as Record<string, Record<string, unknown>>).rest!
  t.match(shown, { batchSize: 2, maxConcurrentRequests: 1, requestsPerMinute: 6000 }, 'stored and shown')
  const task = await index.addDocuments(['a brave dog', 'kefir', 'the cat', 'hello world', 'intel'].map((title, i) => ({ id: i, title }))).waitTask()
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  t.same(remote.requestsTo('/batch').map((r) => (r.body as { texts: unknown[] }).texts.length).sort(), [1, 2, 2], 'requests of at most batchSize texts')
  const bad = await fetch(`${url}/indexes/tuned/settings/embedders`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rest: { batchSize: 0 } }) })
  t.equal(bad.status, 400)
  t.match(await bad.json(), { code: 'invalid_settings_embedders', message: /batchSize.*cannot be zero/ })
  const manual = await fetch(`${url}/indexes/tuned/settings/embedders`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ manual: { source: 'userProvided', dimensions: 2, batchSize: 3 } }) })
  t.equal(manual.status, 400)
  t.match(await manual.json(), { code: 'invalid_settings_embedders', message: /Field `batchSize` unavailable for source `userProvided`/ })
  const unknown = await fetch(`${url}/indexes/tuned/settings/embedders`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rest: { batchSise: 3 } }) })
  t.match(await unknown.json(), { message: /expected one of `source`, `model`, `revision`, `pooling`, `apiKey`, `dimensions`, `binaryQuantized`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `request`, `response`, `headers`, `searchEmbedder`, `indexingEmbedder`, `distribution`$/ }, 'the unknown-field message lists Meilisearch\'s fields alone')
})

t.test('canceling a task that is embedding stops its requests and applies nothing', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.1/32'] })
  const index = client.index('slow')
  const rest = {
    source: 'rest', url: `${remote.url}/batch`, dimensions: 8, documentTemplate: '{{doc.title}}',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  t.equal((await index.updateSettings({ embedders: { rest } as never }).waitTask()).status, 'succeeded')
  remote.faults.push({ hang: true })
  const enqueued = await index.addDocuments([{ id: 1, title: 'a brave dog' }])
  while (remote.inFlight === 0) await new Promise((r) => setTimeout(r, 10))
  const cancel = await client.tasks.cancelTasks({ uids: [enqueued.taskUid] }).waitTask()
  t.equal(cancel.status, 'succeeded')
  const task = await client.tasks.getTask(enqueued.taskUid)
  t.equal(task.status, 'canceled')
  while (remote.inFlight > 0) await new Promise((r) => setTimeout(r, 10))
  t.pass('the hanging request was closed')
  await t.rejects(index.getDocument(1), /not found/)
  t.equal((await index.addDocuments([{ id: 2, title: 'kefir' }]).waitTask()).status, 'succeeded', 'the pool embeds again after the cancelation')
})

t.test('a new embedder is built when the settings are applied: a failed dimension probe fails the settings task', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  const index = client.index('probe')
  remote.faults.push({ status: 401, body: '{"error":"who are you"}' })
  const rest = {
    source: 'rest', url: `${remote.url}/batch`, apiKey: 'secret-key-123',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  const task = await index.updateSettings({ embedders: { rest } as never }).waitTask()
  t.equal(task.status, 'failed')
  t.equal(task.error?.code, 'vector_embedding_error')
  t.equal(task.error?.message, 'Index `probe`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: could not authenticate against embedding server\n  - server replied with `{"error":"who are you"}`\n  - Hint: Check the `apiKey` parameter in the embedder configuration')
  await t.rejects(index.getSettings(), /Index `probe` not found/, 'nothing applied: not even the index the task would create')
  t.equal((await index.updateSettings({ embedders: { rest } as never }).waitTask()).status, 'succeeded', 'the same settings pass once the server answers')
})

t.test('edit by function: an edited document whose text changed is embedded again', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client, url } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  await fetch(`${url}/experimental-features`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ editDocumentsByFunction: true }) })
  const index = client.index('edited')
  const rest = {
    source: 'rest', url: `${remote.url}/batch`, dimensions: 8, documentTemplate: '{{doc.title}}',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  t.equal((await index.updateSettings({ embedders: { rest } as never }).waitTask()).status, 'succeeded')
  t.equal((await index.addDocuments([{ id: 1, title: 'a brave dog', n: 1 }, { id: 2, title: 'kefir', n: 2 }]).waitTask()).status, 'succeeded')
  remote.requests.length = 0
  const edit = await fetch(`${url}/indexes/edited/documents/edit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ function: 'if doc.id == 1 { doc.title = "a brave cat" } doc.n = doc.n + 1' }) })
  const task = await client.tasks.waitForTask(((await edit.json()) as { taskUid: number }).taskUid)
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  t.same(remote.requestsTo('/batch').flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text)), ['a brave cat'], 'only the document whose text changed')
  const doc = await index.getDocument(1, { retrieveVectors: true } as never) as { _vectors: { rest: { embeddings: number[][] } } }
  t.same(doc._vectors.rest.embeddings.map(round), [round(embedText('a brave cat', 8))])
})
