import t from 'tap'
import { Engine, addDocuments, cancelTasks, createIndex, deleteDocuments, deleteDocumentsByFilter, deleteTasks, getBatch, getDocument, getIndex, getTask, indexStats, listDocuments, listTasks, swapIndexes, updateIndex, updateSettings } from '../../../engine/index.js'
import { dataDir, settle, until } from '../../helpers/engine.js'
import { Store, keys } from '../../../engine/storage/index.js'
import type { Task } from '../../../engine/tasks/types.js'

t.test('a cancelation aborts the running batch: nothing of it is applied', async (t) => {
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const release = engine.scheduler.hold() // the creation waits in `processing` until the cancelation aborts it
  const creation = await createIndex(engine, 'movies', null)
  await until(() => getTask(engine, creation.taskUid)?.status === 'processing')
  const cancel = await cancelTasks(engine, { uids: [creation.taskUid] }, '?uids=0')
  release()
  const canceled = await settle(engine, creation.taskUid)
  t.equal(canceled.status, 'canceled')
  t.equal(canceled.canceledBy, cancel.taskUid)
  t.equal(engine.catalog.has('movies'), false, 'the index creation was not applied')
  const done = await settle(engine, cancel.taskUid)
  t.same(done.details, { matchedTasks: 1, canceledTasks: 1, originalFilter: '?uids=0' })
})

t.test('tasks found processing at start-up are run again', async (t) => {
  const path = dataDir(t)
  const store = await Store.open(path)
  const stuck: Task = {
    uid: 0, batchUid: 0, indexUid: 'books', status: 'processing', type: 'indexCreation', canceledBy: null, details: { primaryKey: 'isbn' },
    error: null, enqueuedAt: 1, startedAt: 2, finishedAt: null, operation: { type: 'indexCreation', primaryKey: 'isbn' },
  }
  await store.commit([{ column: 'tasks', key: keys.u32(0), value: Buffer.from(JSON.stringify(stuck)) }])
  await store.close()
  const engine = await Engine.open({ path })
  t.teardown(() => engine.close())
  const task = await settle(engine, 0)
  t.equal(task.status, 'succeeded')
  t.equal(task.batchUid, 0)
  t.equal(getIndex(engine, 'books').primaryKey, 'isbn')
  const next = await createIndex(engine, 'more', null)
  t.equal(next.taskUid, 1, 'uids continue after the recovered task')
})

t.test('swaps and renames carry the task history', async (t) => {
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const a = await createIndex(engine, 'a', 'ida')
  const b = await createIndex(engine, 'b', 'idb')
  const swap = await swapIndexes(engine, [{ indexes: ['a', 'b'], rename: false }])
  t.equal((await settle(engine, swap.taskUid)).status, 'succeeded')
  t.equal(getIndex(engine, 'a').primaryKey, 'idb')
  t.equal(getIndex(engine, 'b').primaryKey, 'ida')
  t.equal(getTask(engine, a.taskUid)!.indexUid, 'b', 'the creation of the old `a` now names `b`')
  t.equal(getTask(engine, b.taskUid)!.indexUid, 'a')
  t.same((await listTasks(engine, { indexUids: ['a'] }, { limit: 20, reverse: false })).results.map((x) => x.uid), [swap.taskUid, b.taskUid])
  const rename = await updateIndex(engine, 'a', null, 'c')
  t.equal((await settle(engine, rename.taskUid)).status, 'succeeded')
  t.equal(engine.catalog.has('a'), false)
  t.equal(getIndex(engine, 'c').primaryKey, 'idb')
  t.equal(getTask(engine, b.taskUid)!.indexUid, 'c')
})

t.test('task deletion removes finished tasks and emptied batches only', async (t) => {
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const first = await createIndex(engine, 'x', null)
  await settle(engine, first.taskUid)
  const batchUid = getTask(engine, first.taskUid)!.batchUid!
  const deletion = await deleteTasks(engine, { statuses: ['succeeded'] }, '?statuses=succeeded')
  const done = await settle(engine, deletion.taskUid)
  t.same(done.details, { matchedTasks: 1, deletedTasks: 1, originalFilter: '?statuses=succeeded' })
  t.throws(() => getTask(engine, first.taskUid), { code: 'task_not_found' })
  await t.rejects(getBatch(engine, batchUid), { code: 'batch_not_found' }, 'a batch left without tasks is deleted')
  t.ok(getTask(engine, deletion.taskUid), 'the deletion task itself stays')
})

t.test('a failed batch leaves no id mapping behind: ids it wrote ahead, ids it deleted and added again', async (t) => {
  // The batch deletes `k`, adds it again in a payload large enough to be written ahead in parts (new internal ids
  // and their id mappings go to disk before the commit), then fails on a bad id. Nothing of it may show: `k` keeps
  // its document (also while the batch runs), the ids it wrote ahead stay unknown, and the internal ids it used,
  // handed out again by the next batch, are not reached through its mappings.
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const payload = (docs: object[]) => (async function* () { yield Buffer.from(JSON.stringify(docs)) })()
  const add = (docs: object[]) => addDocuments(engine, 'a', payload(docs), { method: 'replace', format: 'json', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true })
  const get = async (id: string) => { try { return await getDocument(engine, 'a', id, null, false) } catch (err) { return (err as Error).message } }
  t.equal((await settle(engine, (await add([{ id: 'k', title: 'original' }, { id: 'other', title: 'x' }])).taskUid)).status, 'succeeded')
  // Another index's task holds the scheduler (waiting in `processing` until released, however slow the machine)
  // while the three tasks below are enqueued: they make one batch.
  const release = engine.scheduler.hold()
  const hold = await updateSettings(engine, 'b', { searchableAttributes: ['title'] })
  await until(() => getTask(engine, hold.taskUid)?.status === 'processing')
  const big = [{ id: 'k', title: 'replacement' }, ...Array.from({ length: 20_000 }, (_, i) => ({ id: `f${i}`, title: 'filler '.repeat(80) }))]
  const deletion = await deleteDocuments(engine, 'a', ['k'])
  const addition = await add(big)
  const failing = await add([{ id: 'bad id!', title: 'x' }])
  t.equal(getTask(engine, hold.taskUid)?.status, 'processing', 'the three tasks were enqueued while the holding batch waited')
  release()
  await until(() => getTask(engine, addition.taskUid)?.status === 'processing')
  t.same(await get('k'), { id: 'k', title: 'original' }, 'while the batch runs, `k` is still served')
  for (const task of [deletion, addition, failing]) t.equal((await settle(engine, task.taskUid, 60_000)).status, 'failed')
  t.same(await get('k'), { id: 'k', title: 'original' }, 'the failed batch left `k` as it was')
  t.equal((await indexStats(engine, 'a')).numberOfDocuments, 2)
  t.equal((await settle(engine, (await add([{ id: 'new1', title: 'n1' }, { id: 'new2', title: 'n2' }, { id: 'new3', title: 'n3' }])).taskUid)).status, 'succeeded')
  t.same([await get('f0'), await get('f1'), await get('f2')], ['Document `f0` not found.', 'Document `f1` not found.', 'Document `f2` not found.'], 'ids written ahead by the failed batch are unknown')
  t.equal((await settle(engine, (await add([{ id: 'f1', title: 'the real f1' }])).taskUid)).status, 'succeeded')
  t.same([await get('new1'), await get('new2'), await get('new3'), await get('f1')], [{ id: 'new1', title: 'n1' }, { id: 'new2', title: 'n2' }, { id: 'new3', title: 'n3' }, { id: 'f1', title: 'the real f1' }], 'documents on reused internal ids stay apart')
  t.equal((await indexStats(engine, 'a')).numberOfDocuments, 6)
})

t.test('deletions by filter in one batch see what the batch deleted before them, on the facet index', async (t) => {
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const payload = (docs: object[]) => (async function* () { yield Buffer.from(JSON.stringify(docs)) })()
  const docs = Array.from({ length: 40 }, (_, i) => ({ id: i, n: i, color: i % 2 === 0 ? 'red' : 'blue', tags: [`t${i % 4}`] }))
  await settle(engine, (await updateSettings(engine, 'a', { filterableAttributes: ['n', 'color', 'tags'] })).taskUid)
  t.equal((await settle(engine, (await addDocuments(engine, 'a', payload(docs), { method: 'replace', format: 'json', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true })).taskUid)).status, 'succeeded')
  const release = engine.scheduler.hold()
  const hold = await updateSettings(engine, 'b', { searchableAttributes: ['title'] })
  await until(() => getTask(engine, hold.taskUid)?.status === 'processing')
  const byIds = await deleteDocuments(engine, 'a', ['0', '1'])
  const first = await deleteDocumentsByFilter(engine, 'a', 'n < 10 AND color = red')
  const second = await deleteDocumentsByFilter(engine, 'a', 'n < 20 OR tags = t3')
  t.equal(getTask(engine, hold.taskUid)?.status, 'processing', 'the deletions were enqueued while the holding batch ran')
  release()
  const done = await Promise.all([byIds, first, second].map((task) => settle(engine, task.taskUid)))
  t.same(new Set(done.map((task) => task.batchUid)).size, 1, 'one batch')
  // 0 and 1 go by id; the first filter takes the even n in 2..8; the second what is left below 20, and t3 above.
  t.same(done.map((task) => (task.details as { deletedDocuments: number }).deletedDocuments), [2, 4, 14 + 5])
  const left = await listDocuments(engine, 'a', { offset: 0, limit: 100, fields: ['id'], filter: null, retrieveVectors: false, ids: null })
  t.same(left.results.map((d) => d.id), docs.filter((d) => d.n >= 20 && d.n % 4 !== 3).map((d) => d.id))
  const red = await listDocuments(engine, 'a', { offset: 1, limit: 3, fields: ['id'], filter: 'color = red', retrieveVectors: false, ids: null })
  t.same(red, { results: [{ id: 22 }, { id: 24 }, { id: 26 }], offset: 1, limit: 3, total: 10 }, 'a filtered page after the batch')
})
