/** A cancelation arriving while a settings update reindexes cancels it (it used to fail with an empty internal error). */
import t from 'tap'
import { Engine, cancelTasks, getSettings, getTask, updateSettings } from '../../../engine/index.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

const docs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: from + i, title: `title ${from + i} of many words to index`, body: 'lorem ipsum dolor sit amet '.repeat(4), n: (from + i) % 97 }))
const add = (engine: Engine, list: object[]) => addJson(engine, 'a', list)

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
