/**
 * A batch that would create an index and then deletes it (found by the crash storm, issue 17): the deletion
 * succeeds with nothing deleted, as Meilisearch's `index_has_been_created` makes it, instead of failing with
 * `index_not_found` while the settings update it absorbed stood as succeeded on an index that never existed.
 */
import t from 'tap'
import { Engine, deleteIndex, getTask, updateSettings } from '../../../engine/index.js'
import { addJson, dataDir, settle } from '../../helpers/engine.js'

t.test('settings update then deletion of a missing index, in one batch', async (t) => {
  const path = dataDir(t)
  // Hold the scheduler: a first task sleeps in its batch while the two tasks under test are registered behind it;
  // closing abandons that batch, and the next start takes the waiting tasks together.
  const first = await Engine.open({ path })
  first.scheduler.hold()
  const holder = await addJson(first, 'other', [{ id: 1 }])
  while (getTask(first, holder.taskUid).status === 'enqueued') await new Promise((r) => setTimeout(r, 1))
  const settings = await updateSettings(first, 'fresh', { filterableAttributes: ['n'] })
  const deletion = await deleteIndex(first, 'fresh')
  await first.close()

  const engine = await Engine.open({ path })
  t.teardown(() => engine.close())
  const deleted = await settle(engine, deletion.taskUid)
  const updated = await settle(engine, settings.taskUid)
  t.equal(updated.batchUid, deleted.batchUid, 'batched together')
  t.equal(updated.status, 'succeeded')
  t.equal(deleted.status, 'succeeded', 'not index_not_found')
  t.equal(deleted.error, null)
  t.same(deleted.details, { deletedDocuments: 0 })
  t.equal(engine.catalog.get('fresh'), undefined, 'no index is left')
})

t.test('the deletion of an index nothing creates still fails', async (t) => {
  const engine = await Engine.open({ path: dataDir(t) })
  t.teardown(() => engine.close())
  const deleted = await settle(engine, (await deleteIndex(engine, 'never')).taskUid)
  t.equal(deleted.status, 'failed')
  t.equal(deleted.error?.code, 'index_not_found')
})
