/** A cancelation arriving while a settings update reindexes cancels it (it used to fail with an empty internal error). */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Engine, addDocuments, cancelTasks, getSettings, getTask, updateSettings } from '../../../engine/index.js'
import type { TaskView } from '../../../engine/tasks/types.js'
import { createWorkerPool } from '../../../workers/pool.js'

/** Indexing in the pool, as the service does (inline indexing of these documents is several times slower). */
function pooled(t: { teardown(fn: () => unknown): void }) {
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  return pool
}

function dataDir(t: { teardown(fn: () => void): void }): string {
  const path = mkdtempSync(join(tmpdir(), 'tessera-defects-'))
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  return path
}

async function settle(engine: Engine, uid: number, timeoutMs = 120_000): Promise<TaskView> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const task = getTask(engine, uid)
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) return task
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`task ${uid} did not finish`)
}

const payload = (docs: object[]) => (async function* () { yield Buffer.from(JSON.stringify(docs)) })()
const docs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: from + i, title: `title ${from + i} of many words to index`, body: 'lorem ipsum dolor sit amet '.repeat(4), n: (from + i) % 97 }))
const add = (engine: Engine, list: object[]) => addDocuments(engine, 'a', payload(list), { method: 'replace', format: 'json', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true })

t.test('a cancelation during a settings reindex cancels the update: counted, nothing applied', async (t) => {
  t.setTimeout(300_000)
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  t.equal((await settle(engine, (await add(engine, docs(20_000))).taskUid)).status, 'succeeded')
  // Rebuilding the words of 20,000 documents takes well over the few milliseconds the cancelation needs to arrive.
  const update = await updateSettings(engine, 'a', { searchableAttributes: ['body'], filterableAttributes: ['n'] })
  while (getTask(engine, update.taskUid).status === 'enqueued') await new Promise((r) => setTimeout(r, 1))
  const cancel = await cancelTasks(engine, { uids: [update.taskUid] }, `?uids=${update.taskUid}`)
  const canceled = await settle(engine, update.taskUid)
  t.equal(canceled.status, 'canceled', 'canceled, not failed')
  t.equal(canceled.error, null)
  t.equal(canceled.canceledBy, cancel.taskUid)
  t.same((await settle(engine, cancel.taskUid)).details, { matchedTasks: 1, canceledTasks: 1, originalFilter: `?uids=${update.taskUid}` })
  const settings = getSettings(engine, 'a')
  t.same([settings.searchableAttributes, settings.filterableAttributes], [['*'], []], 'nothing of the update was applied')
})
