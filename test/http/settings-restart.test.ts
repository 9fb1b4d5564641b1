import t from 'tap'
import { rmSync } from 'node:fs'
import { startServer, call, waitStatus, waitTask, tempDir } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'

t.test('settings survive a restart, and settings tasks of one index batch together', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  // The blocker is held in `processing` while the settings tasks are registered, so they form one batch.
  const gate = batchGate(t, true)
  let server = await startServer({ dbPath, env: gate.env })
  const blocker = await call(`${server.url}/indexes`, { method: 'POST', json: { uid: 'first' } })
  await waitStatus(server.url, blocker.body.taskUid, 'processing')
  const a = await call(`${server.url}/indexes/movies/settings`, { method: 'PATCH', json: { filterableAttributes: ['genre'], rankingRules: ['words', 'typo'] } })
  const b = await call(`${server.url}/indexes/movies/settings/stop-words`, { method: 'PUT', json: ['the', 'a'] })
  const c = await call(`${server.url}/indexes/movies/settings/pagination`, { method: 'PATCH', json: { maxTotalHits: 50 } })
  gate.open()
  await waitTask(server.url, blocker.body.taskUid)
  const tasks = await Promise.all([a, b, c].map((r) => waitTask(server.url, r.body.taskUid)))
  t.same(tasks.map((x) => x.status), ['succeeded', 'succeeded', 'succeeded'])
  t.equal(new Set(tasks.map((x) => x.batchUid)).size, 1, 'the three settings updates ran in one batch')
  const batch = await call(`${server.url}/batches/${tasks[0].batchUid}`)
  t.equal(batch.body.batchStrategy, 'batched all enqueued tasks for index `movies`')
  t.same(batch.body.stats.types, { settingsUpdate: 3 })
  await server.stop()

  server = await startServer({ dbPath })
  t.teardown(() => server.stop())
  const settings = (await call(`${server.url}/indexes/movies/settings`)).body
  t.same(settings.filterableAttributes, ['genre'])
  t.same(settings.rankingRules, ['words', 'typo'])
  t.same(settings.stopWords, ['a', 'the'])
  t.same(settings.pagination, { maxTotalHits: 50 })
  t.same(settings.sortableAttributes, [], 'untouched fields keep their defaults')
})
