/**
 * The task queue stays bounded and its start-up does not read finished tasks: past `maxTasks` it registers a
 * deletion of the oldest finished tasks itself (Meilisearch's `cleanup_task_queue`), and a restart reads only the
 * unfinished ones before serving (the rest are indexed in the background).
 */
import t from 'tap'
import { Store } from '../../../engine/storage/index.js'
import { TaskQueue } from '../../../engine/tasks/queue.js'
import { Engine, createIndex, getTask, listTasks } from '../../../engine/index.js'
import { dataDir } from '../../helpers/engine.js'

async function settled(engine: Engine): Promise<void> {
  await engine.queue.loaded
  while (engine.queue.index.status('enqueued').size + engine.queue.index.status('processing').size > 0) await new Promise((r) => setTimeout(r, 5))
}

t.test('past maxTasks, the oldest finished tasks are deleted by a task of the queue\'s own', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), maxTasks: 20 })
  t.teardown(() => engine.close())
  for (let i = 0; i < 20; i++) await createIndex(engine, `i${i}`, null)
  await settled(engine)
  t.equal(engine.queue.index.all.size, 20)
  const next = await createIndex(engine, 'one-more', null)
  await settled(engine)
  const deletion = getTask(engine, next.taskUid - 1)
  t.equal(deletion.type, 'taskDeletion', 'a deletion was registered before the task that filled the queue')
  t.match(deletion.details, { matchedTasks: 20, deletedTasks: 20, originalFilter: /^\?beforeEnqueuedAt=.+&statuses=succeeded,failed,canceled$/ })
  const { total } = await listTasks(engine, {}, { limit: 100, reverse: false })
  t.equal(total, 2, 'the deletion and the new task are left')
  t.ok(engine.queue.index.all.size < 20)
})

t.test('a restart reads only the unfinished tasks before it serves', async (t) => {
  const path = dataDir(t)
  const engine = await Engine.open({ path })
  engine.scheduler.hold()
  for (let i = 0; i < 300; i++) await createIndex(engine, 'same', null)
  // The scheduler holds the first batch: one task is processing, the others wait...
  await engine.close()
  // ... and after the restart, the 300 are all unfinished: all read at start-up.
  let store = await Store.open(path)
  let queue = await TaskQueue.load(store)
  t.equal(queue.index.all.size, 300, 'every unfinished task is there at once')
  await queue.loaded
  await store.close()

  const finished = await Engine.open({ path })
  await settled(finished)
  t.equal(finished.queue.index.status('failed').size, 299, 'the creations after the first failed (the index exists)')
  await finished.close()
  store = await Store.open(path)
  queue = await TaskQueue.load(store)
  t.equal(queue.index.all.size, 0, 'finished tasks are not read before start-up returns')
  await queue.loaded
  t.equal(queue.index.all.size, 300, 'they are indexed in the background')
  t.equal(queue.get(5)?.status, 'failed')
  await store.close()
})
