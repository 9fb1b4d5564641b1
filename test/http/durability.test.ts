/** Durability: what a 202 promised survives kill -9, an interrupted batch re-runs exactly once, uids never repeat. */
import t, { type Test } from 'tap'
import { rmSync } from 'node:fs'
import { batchGate } from '../helpers/batch-gate.js'
import { startServer, call, waitStatus, waitTask, tempDir, type TestServer } from '../helpers/server.js'

type Tap = Test

function dataDir(t: Tap): string {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  return dbPath
}

async function start(t: Tap, dbPath: string, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startServer({ dbPath, env })
  t.teardown(() => server.kill9())
  return server
}

t.test('every registered task survives kill -9 right after its 202', async (t) => {
  const dbPath = dataDir(t)
  const first = await start(t, dbPath)
  const uids = Array.from({ length: 50 }, (_, i) => `idx-${i}`)
  const answers = await Promise.all(uids.map((uid) => call(`${first.url}/indexes`, { method: 'POST', json: { uid } })))
  await first.kill9()
  t.same(answers.map((a) => a.status), uids.map(() => 202), 'all 202')
  const taskUids = answers.map((a) => a.body.taskUid as number)
  t.same([...taskUids].sort((a, b) => a - b), uids.map((_, i) => i), 'uids 0..49, each once')

  const second = await start(t, dbPath)
  for (const [i, taskUid] of taskUids.entries()) {
    const task = await waitTask(second.url, taskUid)
    t.equal(task.status, 'succeeded', `task ${taskUid}`)
    t.equal(task.indexUid, uids[i])
  }
  const list = await call(`${second.url}/indexes?limit=100`)
  t.equal(list.body.total, 50)
  t.same(list.body.results.map((i: any) => i.uid).sort(), [...uids].sort())
  const tasks = await call(`${second.url}/tasks?limit=100`)
  t.equal(tasks.body.total, 50, 'no task lost or duplicated')
  await second.stop()
})

t.test('a batch interrupted by kill -9 has no partial effect and re-runs exactly once', async (t) => {
  const dbPath = dataDir(t)
  // Two indexes to swap.
  const setup = await start(t, dbPath)
  for (const [uid, primaryKey] of [['left', 'pk_left'], ['right', 'pk_right']]) {
    const res = await call(`${setup.url}/indexes`, { method: 'POST', json: { uid, primaryKey } })
    t.equal((await waitTask(setup.url, res.body.taskUid)).status, 'succeeded')
  }
  t.equal(await setup.stop(), 0)

  // Every batch is held in `processing` (the gate stays closed); kill -9 during it.
  const gate = batchGate(t, true)
  const held = await start(t, dbPath, gate.env)
  const creation = await call(`${held.url}/indexes`, { method: 'POST', json: { uid: 'held', primaryKey: 'id' } })
  const swap = await call(`${held.url}/swap-indexes`, { method: 'POST', json: [{ indexes: ['left', 'right'] }] })
  t.equal(creation.status, 202)
  t.equal(swap.status, 202)
  t.same([creation.body.taskUid, swap.body.taskUid], [2, 3])
  await waitStatus(held.url, 2, 'processing')
  await held.kill9()

  // Look at the state after the crash, before anything re-ran (batches still held).
  const look = await start(t, dbPath, gate.env)
  t.equal((await call(`${look.url}/indexes/held`)).status, 404, 'the interrupted creation applied nothing')
  t.equal((await call(`${look.url}/indexes/left`)).body.primaryKey, 'pk_left', 'no swap yet')
  t.equal((await call(`${look.url}/indexes/right`)).body.primaryKey, 'pk_right')
  const pending = (await call(`${look.url}/tasks?uids=2,3`)).body.results
  t.same(pending.map((x: any) => x.uid), [3, 2])
  for (const task of pending) {
    t.ok(['enqueued', 'processing'].includes(task.status), `task ${task.uid} is ${task.status}`)
    t.equal(task.finishedAt, null)
    t.equal(task.error, null)
  }
  // The swap waits for the creation; kill it while the creation is held again, then the swap while held.
  await waitStatus(look.url, 2, 'processing')
  await look.kill9()

  const final = await start(t, dbPath)
  const createdTask = await waitTask(final.url, 2)
  const swapTask = await waitTask(final.url, 3)
  t.equal(createdTask.status, 'succeeded')
  t.equal(swapTask.status, 'succeeded')
  t.equal(createdTask.error, null)
  const tasks = (await call(`${final.url}/tasks`)).body
  t.equal(tasks.total, 4, 'each task once')
  t.same(tasks.results.map((x: any) => [x.uid, x.status]), [[3, 'succeeded'], [2, 'succeeded'], [1, 'succeeded'], [0, 'succeeded']])
  const indexes = (await call(`${final.url}/indexes`)).body
  t.same(indexes.results.map((i: any) => i.uid), ['held', 'left', 'right'], 'the index exists once')
  t.equal((await call(`${final.url}/indexes/held`)).body.primaryKey, 'id')
  t.equal((await call(`${final.url}/indexes/left`)).body.primaryKey, 'pk_right', 'swapped once')
  t.equal((await call(`${final.url}/indexes/right`)).body.primaryKey, 'pk_left')
  // A third run of the swap would show: the batches have exactly one task each and ran once.
  const batches = (await call(`${final.url}/batches`)).body
  t.equal(batches.results.filter((b: any) => b.stats.types.indexSwap).length, 1, 'one swap batch')
  await final.stop()
})

t.test('task uids are never reused, even after deleting tasks and restarting', async (t) => {
  const dbPath = dataDir(t)
  const first = await start(t, dbPath)
  const seen: number[] = []
  for (const uid of ['a', 'b', 'c']) {
    const res = await call(`${first.url}/indexes`, { method: 'POST', json: { uid } })
    seen.push(res.body.taskUid)
    await waitTask(first.url, res.body.taskUid)
  }
  // Delete the finished tasks, then the deletion task itself.
  for (let round = 0; round < 2; round++) {
    const del = await call(`${first.url}/tasks?statuses=succeeded`, { method: 'DELETE' })
    t.equal(del.status, 200)
    seen.push(del.body.taskUid)
    t.equal((await waitTask(first.url, del.body.taskUid)).status, 'succeeded')
  }
  const left = (await call(`${first.url}/tasks`)).body
  t.same(left.results.map((x: any) => x.uid), [Math.max(...seen)], 'only the last deletion task is left')
  await first.kill9()

  const second = await start(t, dbPath)
  const res = await call(`${second.url}/indexes`, { method: 'POST', json: { uid: 'd' } })
  t.equal(res.body.taskUid, Math.max(...seen) + 1, 'the next uid after all earlier ones')
  await waitTask(second.url, res.body.taskUid)
  // Delete everything, restart gracefully, and again.
  const all = await call(`${second.url}/tasks?statuses=*`, { method: 'DELETE' })
  await waitTask(second.url, all.body.taskUid)
  const latest = all.body.taskUid as number
  t.equal(await second.stop(), 0)
  const third = await start(t, dbPath)
  const again = await call(`${third.url}/indexes`, { method: 'POST', json: { uid: 'e' } })
  t.equal(again.body.taskUid, latest + 1)
  await third.stop()
})

t.test('document payloads, small and large, survive kill -9 right after their 202', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  // Hold batches so that the payloads are still waiting when the server dies.
  const gate = batchGate(t, true)
  const first = await startServer({ dbPath, env: gate.env })
  const small = Array.from({ length: 30 }, (_, i) => call(`${first.url}/indexes/docs/documents`, { method: 'POST', json: [{ id: i, kind: 'small' }] }))
  // Above the inline limit: this one is fsynced as a file.
  const bigDocs = Array.from({ length: 3000 }, (_, i) => ({ id: 1000 + i, kind: 'big', text: 'x'.repeat(100) }))
  const big = call(`${first.url}/indexes/docs/documents`, { method: 'POST', json: bigDocs })
  const answers = await Promise.all([...small, big])
  t.ok(answers.every((a) => a.status === 202), 'all accepted')
  await first.kill9()
  const second = await startServer({ dbPath })
  t.teardown(() => second.stop())
  for (const a of answers) t.equal((await waitTask(second.url, a.body.taskUid)).status, 'succeeded', `task ${a.body.taskUid}`)
  t.equal((await call(`${second.url}/indexes/docs/stats`)).body.numberOfDocuments, 3030, 'every document of every payload')
})
