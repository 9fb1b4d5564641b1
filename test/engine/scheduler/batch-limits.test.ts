/**
 * A batch takes at most `maxTasks` tasks and `maxBytes` of document payloads (Meilisearch's
 * `--experimental-max-number-of-batched-tasks` and `--experimental-limit-batched-tasks-total-size`); the first task
 * of a batch always goes, and the batch says which limit stopped it.
 */
import t from 'tap'
import { Engine, addDocuments, getBatch, getTask, updateSettings } from '../../../engine/index.js'
import type { TaskView } from '../../../engine/tasks/types.js'
import { dataDir, payload, settle } from '../../helpers/engine.js'

const request = { method: 'replace', format: 'json', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true } as const

/** Enqueue three additions of `docs` (each its own payload) while another index's batch holds the scheduler. */
async function threeWhileHeld(engine: Engine, docs: string): Promise<TaskView[]> {
  // The holding batch waits in `processing` until released, however long the three take to enqueue.
  const release = engine.scheduler.hold()
  const hold = await updateSettings(engine, 'other', { searchableAttributes: ['x'] })
  while (getTask(engine, hold.taskUid).status === 'enqueued') await new Promise((r) => setTimeout(r, 5))
  const tasks = [await addDocuments(engine, 'a', payload(docs), request), await addDocuments(engine, 'a', payload(docs), request), await addDocuments(engine, 'a', payload(docs), request)]
  t.equal(getTask(engine, hold.taskUid).status, 'processing', 'the three were enqueued while the holding batch ran')
  release()
  return Promise.all(tasks.map((task) => settle(engine, task.taskUid)))
}

t.test('the payload size limit splits batches', async (t) => {
  const docs = JSON.stringify([{ id: 1, title: 'one two three four five six seven' }])
  const engine = await Engine.open({ path: dataDir(t), batchLimits: { maxTasks: 100, maxBytes: Buffer.byteLength(docs) + 10 } })
  t.teardown(() => engine.close())
  const done = await threeWhileHeld(engine, docs)
  t.same(done.map((task) => task.status), ['succeeded', 'succeeded', 'succeeded'])
  t.equal(new Set(done.map((task) => task.batchUid)).size, 3, 'one task per batch')
  const batch = await getBatch(engine, done[0]!.batchUid!)
  t.equal(batch.batchStrategy, `batched up to configured batch size limit of ${Buffer.byteLength(docs) + 10}B with a total of ${Buffer.byteLength(docs)}B`)
})

t.test('the task count limit splits batches', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), batchLimits: { maxTasks: 2, maxBytes: Number.MAX_SAFE_INTEGER } })
  t.teardown(() => engine.close())
  const done = await threeWhileHeld(engine, JSON.stringify([{ id: 1 }]))
  t.equal(done[0]!.batchUid, done[1]!.batchUid, 'the first two together')
  t.not(done[2]!.batchUid, done[0]!.batchUid, 'the third in the next batch')
  t.equal((await getBatch(engine, done[0]!.batchUid!)).batchStrategy, 'batched up to configured batch limit of 2 tasks')
})
