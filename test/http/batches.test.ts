/**
 * Batch routes over HTTP: GET /batches and /batches/{uid}, filters, paging, and autobatching as seen through the
 * batches (which tasks ran together, and why the batch stopped).
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { call, serverFor, startServer, tempDir, waitStatus, waitTask } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { err } from '../helpers/meili.js'

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
const DURATION = /^P(\d+D)?T\d+(\.\d{3}|\.\d{6})?S$/
const BATCH_KEYS = ['uid', 'progress', 'details', 'stats', 'duration', 'startedAt', 'finishedAt', 'batchStrategy']
const STATS_KEYS = ['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace']
/** A finished batch's stats end with `progressTrace` (stage → Rust-formatted duration): checked, then left out. */
const TRACE_VALUE = /^\d+\.\d{2}(ns|µs|ms|s)$/
function withoutTrace(stats: any): any {
  if (stats.progressTrace === undefined) return stats
  const { progressTrace, ...rest } = stats
  for (const [stage, value] of Object.entries(progressTrace)) {
    if (!stage.startsWith('processing tasks') || typeof value !== 'string' || !TRACE_VALUE.test(value)) throw new Error(`bad progressTrace entry ${stage}: ${value}`)
  }
  if (!('processing tasks' in progressTrace)) throw new Error('progressTrace lacks the whole')
  return rest
}
const alone = (id: number, type: string) => `created batch containing only task with id ${id} of type \`${type}\` that cannot be batched with any other task.`

t.test('batches', async (t) => {
  const gate = batchGate(t, true)
  const { url, client } = await serverFor(t, { env: gate.env })
  const post = (path: string, json?: unknown) => call(`${url}${path}`, { method: 'POST', json })
  const del = (path: string) => call(`${url}${path}`, { method: 'DELETE' })
  const get = (path: string) => call(`${url}${path}`)
  const batchUidsOf = async (q: string) => {
    const r = await get(`/batches${q}`)
    t.equal(r.status, 200, q)
    return r.body.results.map((b: any) => b.uid)
  }

  // Task 0 is held in processing while the others are registered, so the scheduler sees them all at once.
  await post('/indexes', { uid: 'x0', primaryKey: 'id' }) // 0
  await waitStatus(url, 0, 'processing')
  await post('/indexes', { uid: 'n1' }) // 1
  await del('/indexes/n1') // 2
  await post('/indexes', { uid: 'n2', primaryKey: 'sku' }) // 3
  await del('/indexes/n3') // 4
  await del('/indexes/n3') // 5
  await del('/tasks?uids=999') // 6
  await del('/tasks?types=indexSwap') // 7
  gate.open()
  const tasks = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((u) => waitTask(url, u)))

  await t.test('autobatching, visible through the batches', async (t) => {
    // Task deletions come before index tasks and run together; then each index task in uid order.
    t.strictSame(tasks.map((x) => x.batchUid), [0, 2, 3, 4, 5, 6, 1, 1])
    t.strictSame(tasks.map((x) => x.status), ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed', 'failed', 'succeeded', 'succeeded'])
    const strategies = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(async (b) => (await get(`/batches/${b}`)).body.batchStrategy))
    t.strictSame(strategies, [
      alone(0, 'indexCreation'),
      'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.',
      alone(1, 'indexCreation'),
      'stopped after task with id 2 because it deletes the index',
      alone(3, 'indexCreation'),
      'stopped after task with id 4 because it deletes the index',
      'stopped after task with id 5 because it deletes the index',
    ])
  })

  await t.test('GET /batches/{uid} shape', async (t) => {
    const r = await get('/batches/0')
    t.equal(r.status, 200)
    const b = r.body
    t.same(Object.keys(b), BATCH_KEYS)
    t.same(Object.keys(b.stats), STATS_KEYS)
    t.equal(b.uid, 0)
    t.equal(b.progress, null)
    t.strictSame(b.details, { primaryKey: 'id' })
    t.strictSame(withoutTrace(b.stats), { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexCreation: 1 }, indexUids: { x0: 1 } })
    t.match(b.duration, DURATION)
    t.match(b.startedAt, RFC3339)
    t.match(b.finishedAt, RFC3339)
    t.equal(b.startedAt, tasks[0].startedAt, 'a task starts and finishes with its batch')
    t.equal(b.finishedAt, tasks[0].finishedAt)
    t.equal(b.duration, tasks[0].duration)
    const registered = Date.parse(tasks[7].enqueuedAt)
    t.ok(Date.parse(b.startedAt) <= registered && registered <= Date.parse(b.finishedAt), 'the batch ran while the last task was registered')
    // No primary key: the batch's details leave the null out.
    t.strictSame((await get('/batches/2')).body.details, {})
    t.strictSame((await get('/batches/4')).body.details, { primaryKey: 'sku' })
    // Index deletions.
    const d = (await get('/batches/3')).body
    t.strictSame(d.details, { deletedDocuments: 0 })
    t.strictSame(withoutTrace(d.stats), { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexDeletion: 1 }, indexUids: { n1: 1 } })
    const failed = (await get('/batches/5')).body
    t.strictSame(withoutTrace(failed.stats), { totalNbTasks: 1, status: { failed: 1 }, types: { indexDeletion: 1 }, indexUids: { n3: 1 } })
    t.strictSame(failed.details, { deletedDocuments: 0 })
    // The task deletions' batch: two tasks, no index.
    const td = (await get('/batches/1')).body
    t.strictSame(withoutTrace(td.stats), { totalNbTasks: 2, status: { succeeded: 2 }, types: { taskDeletion: 2 }, indexUids: {} })
    t.equal(td.details.matchedTasks, 0)
    t.equal(td.details.deletedTasks, 0)
    // Through the client.
    const viaClient = await client.batches.getBatch(4)
    t.equal(viaClient.uid, 4)
    t.equal(viaClient.stats.totalNbTasks, 1)
  })

  await t.test('errors', async (t) => {
    let r = await get('/batches/4294967295')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Batch `4294967295` not found.', 'batch_not_found'))
    r = await get('/batches/7')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Batch `7` not found.', 'batch_not_found'))
    r = await get('/batches/x')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Batch uid `x` is invalid. It should only contain numeric characters.', 'invalid_batch_uids'))
    r = await get('/batches?lol=pied')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Unknown parameter `lol`: expected one of `limit`, `from`, `reverse`, `batchUids`, `uids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`', 'bad_request'))
    r = await get('/batches?uids=doggo')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value in parameter `uids`: could not parse `doggo` as a positive integer', 'invalid_task_uids'))
    r = await get('/batches?statuses=doggo')
    t.equal(r.body.code, 'invalid_task_statuses')
    r = await get('/batches?limit=doggo')
    t.strictSame(r.body, err('Invalid value in parameter `limit`: could not parse `doggo` as a positive integer', 'invalid_task_limit'))
    r = await get('/batches?reverse=1')
    t.strictSame(r.body, err('Invalid value in parameter `reverse`: could not parse `1` as a boolean, expected either `true` or `false`', 'invalid_task_reverse'))
  })

  await t.test('filters', async (t) => {
    t.strictSame(await batchUidsOf(''), [6, 5, 4, 3, 2, 1, 0])
    t.strictSame(await batchUidsOf('?uids=0,3'), [3, 0])
    t.strictSame(await batchUidsOf('?batchUids=1,6'), [6, 1])
    t.strictSame(await batchUidsOf('?uids=99'), [])
    t.strictSame(await batchUidsOf('?statuses=failed'), [6, 5])
    t.strictSame(await batchUidsOf('?statuses=succeeded'), [4, 3, 2, 1, 0])
    t.strictSame(await batchUidsOf('?statuses=*'), [6, 5, 4, 3, 2, 1, 0])
    t.strictSame(await batchUidsOf('?types=taskDeletion'), [1])
    t.strictSame(await batchUidsOf('?types=indexCreation'), [4, 2, 0])
    t.strictSame(await batchUidsOf('?types=indexCreation,indexDeletion'), [6, 5, 4, 3, 2, 0])
    t.strictSame(await batchUidsOf('?indexUids=n1'), [3, 2])
    t.strictSame(await batchUidsOf('?indexUids=n3,x0'), [6, 5, 0])
    t.strictSame(await batchUidsOf('?indexUids=n1&types=indexDeletion'), [3])
    t.strictSame(await batchUidsOf('?indexUids=zzz'), [])
    // Dates are the batch's own.
    const b3 = (await get('/batches/3')).body
    t.strictSame(await batchUidsOf(`?afterStartedAt=${encodeURIComponent(b3.startedAt)}`), [6, 5, 4])
    t.strictSame(await batchUidsOf(`?beforeFinishedAt=${encodeURIComponent(b3.finishedAt)}`), [2, 1, 0])
    // The tasks of a batch, from the task side.
    const ofBatch1 = await get('/tasks?batchUids=1')
    t.strictSame(ofBatch1.body.results.map((x: any) => x.uid), [7, 6])
  })

  await t.test('paging', async (t) => {
    let r = await get('/batches?limit=3')
    t.same(Object.keys(r.body), ['results', 'total', 'limit', 'from', 'next'])
    t.strictSame({ ...r.body, results: r.body.results.map((b: any) => b.uid) }, { results: [6, 5, 4], total: 7, limit: 3, from: 6, next: 3 })
    const seen: number[] = []
    let from: number | null = null
    let pages = 0
    do {
      r = await get(`/batches?limit=3${from === null ? '' : `&from=${from}`}`)
      for (const b of r.body.results) t.same(Object.keys(b), BATCH_KEYS)
      seen.push(...r.body.results.map((b: any) => b.uid))
      from = r.body.next
      pages++
    } while (from !== null && pages < 10)
    t.equal(pages, 3)
    t.strictSame(seen, [6, 5, 4, 3, 2, 1, 0])
    r = await get('/batches?reverse=true&limit=4&from=2')
    t.strictSame({ ...r.body, results: r.body.results.map((b: any) => b.uid) }, { results: [2, 3, 4, 5], total: 7, limit: 4, from: 2, next: 6 })
    r = await get('/batches?statuses=succeeded&limit=2&from=3')
    t.strictSame({ ...r.body, results: r.body.results.map((b: any) => b.uid) }, { results: [3, 2], total: 5, limit: 2, from: 3, next: 1 })
    r = await get('/batches?limit=0')
    t.strictSame(r.body, { results: [], total: 7, limit: 0, from: null, next: 6 })
  })

  await t.test('the taskCancelation batch holds the tasks it canceled', async (t) => {
    gate.close()
    const h0 = await post('/indexes', { uid: 'h0' })
    await waitStatus(url, h0.body.taskUid, 'processing')
    const h1 = await post('/indexes', { uid: 'h1' })
    const h2 = await post('/indexes', { uid: 'h2', primaryKey: 'k' })
    const c = await post(`/tasks/cancel?uids=${h1.body.taskUid},${h2.body.taskUid}`)
    gate.open()
    const cancel = await waitTask(url, c.body.taskUid)
    t.equal(cancel.status, 'succeeded')
    const batch = (await get(`/batches/${cancel.batchUid}`)).body
    t.same(Object.keys(batch), BATCH_KEYS)
    t.equal(batch.batchStrategy, alone(c.body.taskUid, 'taskCancelation'))
    t.strictSame(withoutTrace(batch.stats), {
      totalNbTasks: 3,
      status: { succeeded: 1, canceled: 2 },
      types: { indexCreation: 2, taskCancelation: 1 },
      indexUids: { h1: 1, h2: 1 },
    })
    t.strictSame(batch.details, { primaryKey: 'k', matchedTasks: 2, canceledTasks: 2, originalFilter: `?uids=${h1.body.taskUid},${h2.body.taskUid}` })
    const members = await get(`/tasks?batchUids=${cancel.batchUid}`)
    t.strictSame(members.body.results.map((x: any) => x.uid), [c.body.taskUid, h2.body.taskUid, h1.body.taskUid])
    t.strictSame(await batchUidsOf('?statuses=canceled'), [cancel.batchUid])
    t.strictSame(await batchUidsOf('?types=taskCancelation'), [cancel.batchUid])
    t.strictSame(await batchUidsOf(`?indexUids=h2`), [cancel.batchUid])
    const h0done = await waitTask(url, h0.body.taskUid)
    t.equal(h0done.batchUid, 7)
    t.equal(cancel.batchUid, 8, 'the cancelation runs right after the batch it waited for')
  })

  await t.test('a processing batch', async (t) => {
    gate.close()
    const p = await post('/indexes', { uid: 'slow' })
    const task = await waitStatus(url, p.body.taskUid, 'processing')
    t.equal(task.batchUid, 9)
    const r = await get('/batches/9')
    t.equal(r.status, 200, 'the running batch is visible')
    t.same(Object.keys(r.body), BATCH_KEYS)
    t.equal(r.body.finishedAt, null)
    t.equal(r.body.duration, null)
    t.equal(r.body.startedAt, task.startedAt)
    t.equal(r.body.batchStrategy, alone(p.body.taskUid, 'indexCreation'))
    t.strictSame(r.body.stats, { totalNbTasks: 1, status: { processing: 1 }, types: { indexCreation: 1 }, indexUids: { slow: 1 } })
    t.strictSame(await batchUidsOf('?statuses=processing'), [9])
    t.strictSame((await get('/batches?limit=1')).body.results.map((b: any) => b.uid), [9])
    gate.open()
    const done = await waitTask(url, p.body.taskUid)
    const after = (await get('/batches/9')).body
    t.equal(after.progress, null)
    t.equal(after.finishedAt, done.finishedAt)
    t.strictSame(after.stats.status, { succeeded: 1 })
  })
})

t.test('a batch interrupted by a crash runs again under the same uid', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const gate = batchGate(t, true)
  const first = await startServer({ dbPath, env: gate.env })
  t.teardown(() => first.kill9())
  await call(`${first.url}/indexes`, { method: 'POST', json: { uid: 'crash' } })
  const processing = await waitStatus(first.url, 0, 'processing')
  t.equal(processing.batchUid, 0)
  await first.kill9()
  const second = await serverFor(t, { dbPath })
  const task = await waitTask(second.url, 0)
  t.equal(task.status, 'succeeded')
  t.equal(task.batchUid, 0, 'the re-run batch takes the uid of the interrupted one')
  const batches = (await call(`${second.url}/batches`)).body
  t.strictSame(batches.results.map((b: any) => b.uid), [0])
  t.equal((await call(`${second.url}/indexes/crash`)).status, 200)
  const next = await call(`${second.url}/indexes`, { method: 'POST', json: { uid: 'after' } })
  t.equal((await waitTask(second.url, next.body.taskUid)).batchUid, 1)
})
