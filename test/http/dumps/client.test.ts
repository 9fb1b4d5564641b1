/**
 * Dumps and snapshots driven by the official client (`createDump`, `createSnapshot`), their place in the queue
 * (snapshots, then a dump, before index tasks, as Meilisearch schedules them), and a dump that cannot be written.
 */
import t from 'tap'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, serverFor, tempDir, waitStatus, waitTask } from '../../helpers/server.js'
import { batchGate } from '../../helpers/batch-gate.js'

t.test('createDump and createSnapshot from the client', async (t) => {
  const dumpDir = tempDir('tessera-dumps-')
  const snapshotDir = tempDir('tessera-snapshots-')
  const s = await serverFor(t, { args: ['--dump-dir', dumpDir, '--snapshot-dir', snapshotDir] })
  await s.client.index('movies').addDocuments([{ id: 1, title: 'Carol' }]).waitTask()
  const dump = await s.client.createDump().waitTask()
  t.match(dump, { status: 'succeeded', type: 'dumpCreation', indexUid: null, details: { dumpUid: String }, error: null })
  t.ok(existsSync(join(dumpDir, `${dump.details!.dumpUid}.dump`)))
  const snapshot = await s.client.createSnapshot().waitTask()
  t.match(snapshot, { status: 'succeeded', type: 'snapshotCreation', indexUid: null, error: null })
  t.same(readdirSync(snapshotDir), [`${s.dbPath.split('/').pop()}.snapshot`])
  // Filters know the types.
  t.equal((await s.client.tasks.getTasks({ types: ['dumpCreation', 'snapshotCreation'] })).total, 2)
})

t.test('snapshots, then one dump, run before waiting index tasks', async (t) => {
  // The first addition is held in `processing` while the others are registered, so they all wait together.
  const gate = batchGate(t, true)
  const s = await serverFor(t, { args: ['--dump-dir', tempDir('tessera-dumps-'), '--snapshot-dir', tempDir('tessera-snapshots-')], env: gate.env })
  const first = await call(`${s.url}/indexes/a/documents`, { method: 'POST', json: [{ id: 1 }] })
  await waitStatus(s.url, first.body.taskUid, 'processing')
  const second = await call(`${s.url}/indexes/a/documents`, { method: 'POST', json: [{ id: 2 }] })
  const dump1 = await call(`${s.url}/dumps`, { method: 'POST' })
  const dump2 = await call(`${s.url}/dumps`, { method: 'POST' })
  const snap1 = await call(`${s.url}/snapshots`, { method: 'POST' })
  const snap2 = await call(`${s.url}/snapshots`, { method: 'POST' })
  gate.open()
  const done = async (r: { body: { taskUid: number } }) => waitTask(s.url, r.body.taskUid, 60_000)
  const [t1, t2, d1, d2, s1, s2] = [await done(first), await done(second), await done(dump1), await done(dump2), await done(snap1), await done(snap2)]
  for (const x of [t1, t2, d1, d2, s1, s2]) t.equal(x.status, 'succeeded', `task ${x.uid}`)
  // After the running addition, snapshots come first (together), then each dump alone, then the second addition.
  t.strictSame([t1, s1, s2, d1, d2, t2].map((x) => x.batchUid), [0, 1, 1, 2, 3, 4])
  t.not(d1.details.dumpUid, d2.details.dumpUid)
  const batch = (await call(`${s.url}/batches/${s1.batchUid}`)).body
  t.match(batch, { stats: { totalNbTasks: 2, types: { snapshotCreation: 2 } } })
})

t.test('a dump that cannot be written fails its task, and the service goes on', async (t) => {
  const dir = tempDir('tessera-dumps-')
  const notADirectory = join(dir, 'file')
  writeFileSync(notADirectory, 'x')
  const s = await serverFor(t, { args: ['--dump-dir', notADirectory] })
  const task = await waitTask(s.url, (await call(`${s.url}/dumps`, { method: 'POST' })).body.taskUid)
  t.match(task, { status: 'failed', type: 'dumpCreation', details: { dumpUid: null }, error: { type: 'internal' } })
  t.same(readdirSync(dir), ['file'], 'nothing left behind')
  const next = await waitTask(s.url, (await call(`${s.url}/indexes/a/documents`, { method: 'POST', json: [{ id: 1 }] })).body.taskUid)
  t.equal(next.status, 'succeeded')
})

t.test('a dump canceled while it waits or runs leaves no file', async (t) => {
  const dumpDir = tempDir('tessera-dumps-')
  const gate = batchGate(t, true)
  const s = await serverFor(t, { args: ['--dump-dir', dumpDir], env: gate.env })
  const dump = (await call(`${s.url}/dumps`, { method: 'POST' })).body.taskUid
  // Cancel once it is processing (held there by the gate).
  await waitStatus(s.url, dump, 'processing')
  const cancel = await call(`${s.url}/tasks/cancel?uids=${dump}`, { method: 'POST' })
  gate.open()
  t.equal((await waitTask(s.url, cancel.body.taskUid)).status, 'succeeded')
  const task = await waitTask(s.url, dump)
  t.match(task, { status: 'canceled', canceledBy: cancel.body.taskUid, details: { dumpUid: null } })
  t.same(readdirSync(dumpDir), [], 'no dump, no temporary file')
})
