/**
 * As milli, a hybrid search embeds its `q` only when its keyword hits are not good enough to skip the semantic
 * side (every one of the `offset + limit` hits scoring at least 0.45 once weighted by `1 - semanticRatio`): a good
 * keyword page sends no embedding request, so a failing embedder is not even asked; otherwise `q` is embedded.
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

t.test('a good keyword page skips the query embedding', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  const index = client.index('pets')
  const rest = {
    source: 'rest' as const, url: `${remote.url}/batch`, documentTemplate: '{{doc.title}}', dimensions: 8,
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  t.equal((await index.updateSettings({ embedders: { rest } }).waitTask()).status, 'succeeded')
  const added = await index.addDocuments([{ id: '1', title: 'kefir the brave cat' }, { id: '2', title: 'a dog' }, { id: '3', title: 'another dog' }], { primaryKey: 'id' }).waitTask()
  t.equal(added.status, 'succeeded', JSON.stringify(added.error))
  const queries = () => remote.requestsTo('/batch').length

  remote.requests.length = 0
  // Every request would fail: a search that asks the embedder falls back, one that does not is untouched.
  remote.faults.push(...Array.from({ length: 40 }, () => ({ status: 500 })))
  const good = await index.search('kefir the brave cat', { limit: 1, hybrid: { embedder: 'rest', semanticRatio: 0.5 }, showRankingScore: true })
  t.same(good.hits.map((h) => h.id), ['1'])
  t.ok((good.hits[0]!._rankingScore ?? 0) * 0.5 >= 0.45, `the keyword hit is good enough (${good.hits[0]!._rankingScore})`)
  t.equal((good as { semanticHitCount?: number }).semanticHitCount, 0)
  t.equal(queries(), 0, 'no embedding request')

  const multi = await client.multiSearch({ federation: { limit: 1 }, queries: [{ indexUid: 'pets', q: 'kefir the brave cat', hybrid: { embedder: 'rest', semanticRatio: 0.5 } }] } as never) as { hits: { id: string }[] }
  t.same(multi.hits.map((h) => h.id), ['1'], 'federated: the same keyword page')
  t.equal(queries(), 0, 'federated: no embedding request either')

  remote.faults.length = 0
  const poor = await index.search('kefir the brave cat', { limit: 3, hybrid: { embedder: 'rest', semanticRatio: 0.5 } })
  t.equal(queries(), 1, 'a page the keyword side cannot fill well embeds the query')
  t.equal(poor.hits[0]?.id, '1')
  const semanticLeaning = await index.search('kefir the brave cat', { limit: 1, hybrid: { embedder: 'rest', semanticRatio: 0.6 } })
  t.equal(queries(), 2, 'above a ratio of 0.55 no keyword page is good enough: the query is embedded')
  t.equal(semanticLeaning.hits[0]?.id, '1')
})
