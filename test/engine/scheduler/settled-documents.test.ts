import t from 'tap'
import { SettledDocuments } from '../../../engine/scheduler/settled-documents.js'
import { Store, keys } from '../../../engine/storage/index.js'
import { dataDir } from '../../helpers/engine.js'

t.test('settled records survive a reopen, stop batches at their position and are dropped once passed', async (t) => {
  const path = dataDir(t)
  let store = await Store.open(path)
  const settled = new SettledDocuments(store)
  const plan = settled.plan([{ indexUid: 'books', through: 7, ids: ['1', '2'] }], 3)
  await store.commit(plan.ops)
  plan.publish()
  t.equal(settled.boundary('books', 4), 7, 'a batch of tasks from 4 stops at 7')
  t.equal(settled.boundary('movies', 4), null, 'another index has no boundary')
  await store.close()

  store = await Store.open(path)
  t.teardown(() => store.close())
  const reopened = new SettledDocuments(store)
  const untouched = reopened.untouched('books', 7)
  t.ok(untouched, 'the record was read back')
  t.equal(untouched!('1'), true)
  t.equal(untouched!('3'), false)
  t.equal(reopened.untouched('books', 8), null, 'tasks past the donor position touch every document')

  const passed = reopened.plan([], 8)
  t.equal(passed.ops.length, 1, 'dropping the passed record is a write')
  passed.publish()
  t.equal(reopened.boundary('books', 0), null)
})

t.test('records written as JSON text by earlier builds are still read', async (t) => {
  const store = await Store.open(dataDir(t))
  t.teardown(() => store.close())
  const legacy = [{ indexUid: 'books', through: 5, ids: ['a'] }]
  await store.commit([{ column: 'meta', key: keys.utf8('settledDocuments'), value: Buffer.from(JSON.stringify(legacy)) }])
  const settled = new SettledDocuments(store)
  t.equal(settled.untouched('books', 5)?.('a'), true)
})
