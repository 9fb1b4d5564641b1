/**
 * One clock for a semantic or hybrid search, as Meilisearch's single deadline: the query's embedding counts in
 * `processingTimeMs` (and spends the same `searchCutoffMs` as the ranking after it).
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

t.test("the query's embedding is part of the search's time", async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  const index = client.index('clock')
  const rest = {
    source: 'rest' as const, url: `${remote.url}/batch`, documentTemplate: '{{doc.title}}', dimensions: 8,
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  t.equal((await index.updateSettings({ embedders: { rest } }).waitTask()).status, 'succeeded')
  const added = await index.addDocuments([{ id: '1', title: 'kefir the brave cat' }, { id: '2', title: 'a dog' }], { primaryKey: 'id' }).waitTask()
  t.equal(added.status, 'succeeded', JSON.stringify(added.error))

  remote.latencyMs = 400
  const semantic = await index.search('a brave cat', { hybrid: { embedder: 'rest', semanticRatio: 1 }, showRankingScore: true })
  t.equal(semantic.hits.length, 2)
  t.ok(semantic.processingTimeMs >= 400, `processingTimeMs counts the embedding (${semantic.processingTimeMs} ms)`)
  t.ok(semantic.hits.every((h) => (h._rankingScore as number) > 0), 'ranked within the default cutoff')

  const hybrid = await index.search('a brave dog', { hybrid: { embedder: 'rest', semanticRatio: 0.8 } })
  t.ok(hybrid.processingTimeMs >= 400, `and in a hybrid search's (${hybrid.processingTimeMs} ms)`)
})
