/** Registering tasks the replicated log numbered: only the next uids, in order, with the counter in the same write (kept on reopen). */
import t from 'tap'
import { Store } from '../../../engine/storage/index.js'
import { TaskQueue, enqueuedTask } from '../../../engine/tasks/queue.js'
import { dataDir } from '../../helpers/engine.js'

const spec = { type: 'indexCreation' as const, indexUid: 'a', details: { primaryKey: null }, operation: { type: 'indexCreation' as const, primaryKey: null } }

t.test('replicated tasks register in log order and survive a reopen', async (t) => {
  const path = dataDir(t)
  let store = await Store.open(path)
  let queue = await TaskQueue.load(store)
  const registered: number[] = []
  queue.onRegistered = (task) => registered.push(task.uid)
  await t.rejects(queue.registerReplicated([enqueuedTask(spec, 1, 10)]), /replicated task 1 is not the next task \(0\)/)
  await t.rejects(queue.registerReplicated([enqueuedTask(spec, 0, 10), enqueuedTask(spec, 2, 10)]), /replicated task 2 is not the next task \(1\)/, 'a gap inside a group')
  t.equal(queue.nextTaskUid, 0, 'a refused task moves nothing')
  await queue.registerReplicated([enqueuedTask(spec, 0, 10)])
  await queue.registerReplicated([enqueuedTask(spec, 1, 20), enqueuedTask(spec, 2, 30)], [{ column: 'default', key: Buffer.from('with-it'), value: Buffer.from('x') }])
  t.same(registered, [0, 1, 2])
  t.equal(queue.nextTaskUid, 3)
  t.equal(queue.get(1)?.enqueuedAt, 20, "the log's enqueue time")
  await store.close()
  store = await Store.open(path)
  queue = await TaskQueue.load(store)
  t.teardown(() => store.close())
  t.equal(queue.nextTaskUid, 3, 'the counter was written with the tasks')
  t.equal(queue.get(2)?.enqueuedAt, 30)
  t.equal(store.get('default', Buffer.from('with-it'))?.toString(), 'x', 'the entry\'s writes too')
  await t.rejects(queue.registerReplicated([enqueuedTask(spec, 2, 30)]), /not the next task/, 'an entry registered already is refused')
})
