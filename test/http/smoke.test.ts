import t from 'tap'
import { serverFor } from '../helpers/server.js'

t.test('the meilisearch client creates and lists indexes', async (t) => {
  const server = await serverFor(t)
  const task = await server.client.createIndex('movies', { primaryKey: 'id' }).waitTask()
  t.equal(task.status, 'succeeded')
  const { results } = await server.client.getIndexes()
  t.same(results.map((i) => i.uid), ['movies'])
  t.equal(results[0]!.primaryKey, 'id')
})
