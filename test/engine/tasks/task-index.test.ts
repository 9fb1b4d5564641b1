import t from 'tap'
import { TaskIndex, newBitmap, paginate } from '../../../engine/tasks/task-index.js'
import type { Task } from '../../../engine/tasks/types.js'

function task(uid: number, over: Partial<Task> = {}): Task {
  return {
    uid, batchUid: null, indexUid: 'movies', status: 'enqueued', type: 'indexCreation', canceledBy: null, details: null, error: null,
    enqueuedAt: 1000 * uid, startedAt: null, finishedAt: null, operation: { type: 'indexCreation', primaryKey: null }, ...over,
  }
}

t.test('filters intersect; date bounds are exclusive', async (t) => {
  const index = new TaskIndex()
  index.insert(task(0, { status: 'succeeded', batchUid: 0, startedAt: 5, finishedAt: 10 }))
  index.insert(task(1, { indexUid: 'books', status: 'failed', batchUid: 1, startedAt: 1005, finishedAt: 1010 }))
  index.insert(task(2, { type: 'indexDeletion', operation: { type: 'indexDeletion' } }))
  index.insert(task(3, { indexUid: null, type: 'indexSwap', operation: { type: 'indexSwap', swaps: [{ indexes: ['a', 'books'], rename: false }] } }))
  const m = (f: Parameters<TaskIndex['match']>[0]) => index.match(f).toArray()
  t.same(m({}), [0, 1, 2, 3])
  t.same(m({ indexUids: ['movies'] }), [0, 2])
  t.same(m({ indexUids: ['books'] }), [1, 3], 'a swap is found under both of its indexes')
  t.same(m({ statuses: ['succeeded', 'failed'] }), [0, 1])
  t.same(m({ types: ['indexDeletion'], statuses: ['enqueued'] }), [2])
  t.same(m({ batchUids: [1] }), [1])
  t.same(m({ uids: [1, 2, 99] }), [1, 2])
  t.same(m({ afterEnqueuedAt: 1000 }), [2, 3], 'after is exclusive')
  t.same(m({ beforeEnqueuedAt: 1000 }), [0], 'before is exclusive')
  t.same(m({ afterStartedAt: 0 }), [0, 1], 'tasks without a start never match a start bound')
  t.same(m({ beforeFinishedAt: 1010 }), [0])
  const before = task(2, { type: 'indexDeletion', operation: { type: 'indexDeletion' } })
  index.update(before, { ...before, status: 'canceled', canceledBy: 4 })
  t.same(m({ canceledBy: [4] }), [2])
  t.same(m({ statuses: ['enqueued'] }), [3])
})

t.test('pages run from the newest (or the oldest with reverse), with next', async (t) => {
  const uids = newBitmap([1, 2, 3, 5, 8, 13, 21])
  t.same(paginate(uids, { limit: 3, reverse: false }), { items: [21, 13, 8], next: 5 })
  t.same(paginate(uids, { limit: 3, reverse: false, from: 5 }), { items: [5, 3, 2], next: 1 })
  t.same(paginate(uids, { limit: 3, reverse: false, from: 2 }), { items: [2, 1], next: null })
  t.same(paginate(uids, { limit: 3, reverse: false, from: 4 }), { items: [3, 2, 1], next: null }, 'from need not be a member')
  t.same(paginate(uids, { limit: 3, reverse: true }), { items: [1, 2, 3], next: 5 })
  t.same(paginate(uids, { limit: 10, reverse: true, from: 6 }), { items: [8, 13, 21], next: null })
  t.same(paginate(uids, { limit: 0, reverse: false }), { items: [], next: 21 })
  t.same(paginate(newBitmap(), { limit: 5, reverse: false }), { items: [], next: null })
})
