import t from 'tap'
import { autobatch, type BatchClass, type Candidate } from '../../../engine/scheduler/autobatcher.js'

const add = (pk: string | null = null, allowIndexCreation = true): BatchClass => ({ kind: 'documentAddition', primaryKey: pk, allowIndexCreation })
const settings = (allowIndexCreation = true): BatchClass => ({ kind: 'settings', allowIndexCreation })
const c = (uid: number, cls: BatchClass, type: string = cls.kind): Candidate => ({ uid, type, class: cls })
const uids = (queue: Candidate[], exists = true) => autobatch(queue, 'movies', exists).uids

t.test('tasks that always run alone', async (t) => {
  const b = autobatch([c(3, { kind: 'alone' }, 'indexCreation'), c(4, add())], 'movies', false)
  t.same(b.uids, [3])
  t.equal(b.strategy, 'created batch containing only task with id 3 of type `indexCreation` that cannot be batched with any other task.')
  t.same(uids([c(1, add()), c(2, { kind: 'alone' }, 'indexUpdate'), c(3, add())]), [1], 'an alone task stops a batch')
})

t.test('an index deletion absorbs the tasks before it and stops the batch', async (t) => {
  const b = autobatch([c(1, add()), c(2, settings()), c(3, { kind: 'indexDeletion' }), c(4, add())], 'movies', true)
  t.same(b.uids, [1], 'settings never mix with documents')
  const d = autobatch([c(1, add()), c(2, { kind: 'documentDeletionByIds' }), c(3, { kind: 'indexDeletion' }), c(4, add())], 'movies', true)
  t.same(d.uids, [1, 2, 3])
  t.equal(d.strategy, 'stopped after task with id 3 because it deletes the index')
})

t.test('document operations', async (t) => {
  const all = autobatch([c(1, add()), c(2, add()), c(3, { kind: 'documentDeletionByIds' }), c(4, add())], 'movies', true)
  t.same(all.uids, [1, 2, 3, 4])
  t.equal(all.strategy, 'batched all enqueued tasks for index `movies`')
  t.same(uids([c(1, { kind: 'documentDeletionByFilter' }), c(2, add())]), [1, 2], 'a deletion by filter may be followed by additions')
  const f = autobatch([c(1, add()), c(2, { kind: 'documentDeletionByFilter' })], 'movies', true)
  t.same(f.uids, [1], 'additions cannot be followed by a deletion by filter')
  t.equal(f.strategy, 'stopped before task with id 2 because it is a deletion by filter which cannot be batched with document operations')
  const s = autobatch([c(1, add()), c(2, settings())], 'movies', true)
  t.equal(s.strategy, 'stopped before task with id 2 because it is a settings change which cannot be batched with document operations')
})

t.test('primary keys and index creation rights', async (t) => {
  const pk = autobatch([c(1, add('id')), c(2, add('id')), c(3, add('uid'))], 'movies', true)
  t.same(pk.uids, [1, 2])
  t.equal(pk.strategy, 'stopped batching before task with id 3 because its primary key `uid` is different from the primary key of the batch `id`')
  const rights = autobatch([c(1, add(null, true)), c(2, add(null, false))], 'movies', false)
  t.same(rights.uids, [1])
  t.equal(rights.strategy, 'stopped batching before task with id 2 because its index creation rules differ from the ones from the batch')
  t.same(uids([c(1, add(null, true)), c(2, add(null, false))], true), [1, 2], 'rights only matter while the index does not exist')
  t.same(uids([c(1, { kind: 'documentDeletionByIds' }), c(2, add())], false), [1], 'a deletion then an addition that may create the index')
  t.same(uids([c(1, { kind: 'documentDeletionByIds' }), c(2, add())], true), [1, 2])
})

t.test('clears and settings', async (t) => {
  t.same(uids([c(1, settings()), c(2, settings()), c(3, { kind: 'documentClear' }), c(4, settings()), c(5, add())]), [1, 2, 3, 4])
  t.same(uids([c(1, add()), c(2, { kind: 'documentClear' }), c(3, { kind: 'documentDeletionByIds' }), c(4, add())]), [1, 2, 3], 'a clear absorbs later deletions, not additions')
  const docs = autobatch([c(1, settings()), c(2, add())], 'movies', true)
  t.equal(docs.strategy, 'stopped before task with id 2 because it is a document operation which cannot be batched with settings changes')
})

t.test('a stream of small tasks is gathered into larger batches; a lone task is not delayed', async (t) => {
  const { gatherDelayMs } = await import('../../../engine/scheduler/scheduler.js')
  t.equal(gatherDelayMs(0, 0, 30), 0, 'nothing arrived during the batch: no wait')
  t.equal(gatherDelayMs(1, 1, 30), 0, 'one task arriving alone starts at once')
  t.equal(gatherDelayMs(3, 3, 30), 0, 'a few tasks are no stream')
  t.equal(gatherDelayMs(4, 4, 30), 30, 'a stream waits as long as the last batch took')
  t.equal(gatherDelayMs(500, 200, 400), 100, 'at most 100 ms')
  t.equal(gatherDelayMs(500, 1000, 400), 0, 'enough tasks waiting: no wait')
  t.equal(gatherDelayMs(10, 10, 0), 0, 'an instant batch: no wait')
})
