/**
 * A document template's `fields` follow the index's field order (the order fields first appeared in the index),
 * not the order a document's keys were sent in: the default template renders the same text for the same content
 * however its keys are ordered, in a first batch, a later one, and a partial update.
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

t.test('template fields follow the index field order', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { client } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  const index = client.index('animals')
  // No documentTemplate: Meilisearch's default, `name: value` per searchable field, in the order of `fields`.
  const rest = {
    source: 'rest' as const, url: `${remote.url}/batch`, dimensions: 8,
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  t.equal((await index.updateSettings({ embedders: { rest } }).waitTask()).status, 'succeeded')
  const sent = () => remote.requestsTo('/batch').flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text))

  const first = await index.addDocuments([{ id: 1, title: 'dog', year: 2000 }, { year: 2001, title: 'cat', id: 2 }], { primaryKey: 'id' }).waitTask()
  t.equal(first.status, 'succeeded', JSON.stringify(first.error))
  t.same(sent(), ['id: 1\ntitle: dog\nyear: 2000\n', 'id: 2\ntitle: cat\nyear: 2001\n'], 'one order for both, that of the first appearance')

  remote.requests.length = 0
  t.equal((await index.addDocuments([{ year: 1999, colour: 'brown', title: 'cow', id: 3 }]).waitTask()).status, 'succeeded')
  t.same(sent(), ['id: 3\ntitle: cow\nyear: 1999\ncolour: brown\n'], 'a later batch: known fields in their order, a new one after them')

  remote.requests.length = 0
  t.equal((await index.updateDocuments([{ year: 2005, id: 1 }]).waitTask()).status, 'succeeded')
  t.same(sent(), ['id: 1\ntitle: dog\nyear: 2005\n'], 'a partial update renders the merged document in the index order')

  remote.requests.length = 0
  t.equal((await index.addDocuments([{ title: 'dog', id: 1, year: 2005 }]).waitTask()).status, 'succeeded')
  t.same(sent(), [], 'the same content with its keys reordered renders the same text: nothing is embedded again')
})
