/**
 * `POST /indexes/{uid}/compact` through the official client, as its own suite drives it (`tests/compact.test.ts`):
 * an `indexCompaction` task that succeeds on an index, fails with `index_not_found` on a missing one, and is
 * refused to a search key (`invalid_api_key`) and to no key (`missing_authorization_header`).
 */
import t from 'tap'
import { authServerFor, MASTER_KEY } from '../keys/auth-server.js'

t.test('index compaction', async (t) => {
  const server = await authServerFor(t)
  const master = server.clientWith(MASTER_KEY)
  await master.createIndex('movies').waitTask()
  await master.index('movies').addDocuments([{ id: 1, title: 'Carol' }, { id: 2, title: 'Wonder Woman' }]).waitTask()

  const enqueued = await master.index('movies').compact()
  t.equal(enqueued.type, 'indexCompaction')
  t.equal(enqueued.indexUid, 'movies')
  const task = await master.tasks.waitForTask(enqueued.taskUid)
  t.equal(task.status, 'succeeded')
  t.match(task.details, { preCompactionSize: /^\d+(\.\d+)? (B|KB|KiB|MiB)$/, postCompactionSize: /^\d+(\.\d+)? (B|KB|KiB|MiB)$/ })
  t.equal((await master.index('movies').getDocuments()).results.length, 2, 'the documents are all there')
  // The client's task types do not name `indexCompaction` yet: filtered through fetch.
  t.equal((await server.as(MASTER_KEY, '/tasks?types=indexCompaction')).body.results.length, 1, 'listed by its type')

  const missing = await master.index('nope').compact().waitTask()
  t.equal(missing.status, 'failed')
  t.equal(missing.error?.code, 'index_not_found')

  const searchKey = (await master.getKeys()).results.find((k) => k.name === 'Default Search API Key')!.key
  const refused = await server.as(searchKey, '/indexes/movies/compact', { method: 'POST' })
  t.equal(refused.status, 403)
  t.equal(refused.body.code, 'invalid_api_key')
  const anonymous = await server.as(null, '/indexes/movies/compact', { method: 'POST' })
  t.equal(anonymous.status, 401)
  t.equal(anonymous.body.code, 'missing_authorization_header')
})
