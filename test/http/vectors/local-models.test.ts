/**
 * Local models and composite embedders through HTTP: a `huggingFace` embedder runs the generated tiny BERT model
 * from `--models-dir` with no network (vectors checked against a hand computation, and a semantic search by it); a
 * missing model fails the settings task naming the folder; a composite embeds documents with one source (`rest`) and queries
 * with another (`ollama`).
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'
import { tinyBertHiddenStates, writeTinyBertModel } from '../../helpers/tiny-bert.js'

const close = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) < 1e-4)

t.test('huggingFace embedders run local models from --models-dir', async (t) => {
  const models = t.testdir({})
  const model = await writeTinyBertModel(models, 'tiny')
  const { client } = await serverFor(t, { args: ['--models-dir', models] })
  const index = client.index('local')
  const settings = await index.updateSettings({ embedders: { hub: { source: 'huggingFace', model: 'tiny', pooling: 'forceMean', documentTemplate: '{{doc.title}}' } } }).waitTask()
  t.equal(settings.status, 'succeeded', JSON.stringify(settings.error))
  const titles = ['a brave dog', 'kefir is good', 'hello world']
  const task = await index.addDocuments(titles.map((title, i) => ({ id: i, title }))).waitTask()
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  for (const [i, title] of titles.entries()) {
    const doc = await index.getDocument(i, { retrieveVectors: true } as never) as { _vectors: { hub: { embeddings: number[][]; regenerate: boolean } } }
    const states = tinyBertHiddenStates(model, title)
    const mean = states[0]!.map((_, j) => states.reduce((sum, s) => sum + s[j]!, 0) / states.length)
    t.ok(close(doc._vectors.hub.embeddings[0]!, mean), `${title}: the mean of the model's token states`)
    t.equal(doc._vectors.hub.regenerate, true)
  }
  const found = await index.search('kefir is good', { hybrid: { embedder: 'hub', semanticRatio: 1 } })
  t.equal(found.hits[0]?.title, 'kefir is good', 'the query embedded by the same model finds its document first')

  const missing = client.index('missing')
  const failed = await missing.updateSettings({ embedders: { hub: { source: 'huggingFace', model: 'nobody/nothing' } } }).waitTask()
  t.equal(failed.status, 'failed', 'the model is loaded when the settings are applied')
  t.equal(failed.error?.code, 'vector_embedding_error')
  t.match(failed.error?.message, `model \`nobody/nothing\` not found: no \`config.json\` in \`${models}/nobody/nothing\``)
})

t.test('a composite embedder embeds documents with one source and queries with another', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client, url } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  await fetch(`${url}/experimental-features`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ compositeEmbedders: true }) })
  const index = client.index('composite')
  const both = {
    source: 'composite',
    indexingEmbedder: {
      source: 'rest', url: `${remote.url}/batch`, documentTemplate: '{{doc.title}}',
      request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
    },
    searchEmbedder: { source: 'ollama', url: `${remote.url}/api/embed`, model: 'nomic-embed-text' },
  }
  const settings = await index.updateSettings({ embedders: { both } as never }).waitTask()
  t.equal(settings.status, 'succeeded', JSON.stringify(settings.error))
  const task = await index.addDocuments([{ id: 1, title: 'a brave dog' }, { id: 2, title: 'kefir' }]).waitTask()
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  const doc = await index.getDocument(1, { retrieveVectors: true } as never) as { _vectors: { both: { embeddings: number[][] } } }
  t.ok(close(doc._vectors.both.embeddings[0]!, embedText('a brave dog', 8)))
  remote.requests.length = 0
  const found = await index.search('kefir', { hybrid: { embedder: 'both', semanticRatio: 1 } })
  t.equal(found.hits[0]?.id, 2)
  // Building the composite for the query first checks that both halves agree (three test texts each).
  const query = remote.requests.filter((r) => JSON.stringify(r.body).includes('kefir'))
  t.same(query.map((r) => [r.path, r.body]), [['/api/embed', { model: 'nomic-embed-text', input: ['kefir'] }]], 'the query went to the search embedder')
})
