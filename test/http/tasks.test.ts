/**
 * Task routes over HTTP: the enqueued and task shapes, every /tasks filter, paging, the parameter errors with
 * Meilisearch's exact messages, cancelation (of enqueued and processing tasks) and deletion.
 */
import t from 'tap'
import { call, serverFor, waitStatus, waitTask } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { err } from '../helpers/meili.js'

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/
const DURATION = /^P(\d+D)?T\d+(\.\d{3}|\.\d{6})?S$/
const TASK_KEYS = ['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'details', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt']
const ENQUEUED_KEYS = ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']
const FILTER_LIST = '`uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'
const GET_LIST = '`limit`, `from`, `reverse`, `batchUids`, `uids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`'
const MISSING = (action: string) => `Query parameters to filter the tasks to ${action} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`
const TYPES = '`documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`'
const UID_TAIL = 'is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'

t.test('task views, filters, paging and errors', async (t) => {
  const { url, client } = await serverFor(t)
  const get = (q: string) => call(`${url}/tasks${q}`)
  const uidsOf = async (q: string) => {
    const r = await get(q)
    t.equal(r.status, 200, q)
    return r.body.results.map((x: any) => x.uid)
  }
  const enqueue = async (path: string, method: string, json?: unknown) => {
    const r = await call(`${url}${path}`, { method, json })
    return r
  }

  // The fixture: six finished tasks, one batch each.
  const r0 = await enqueue('/indexes', 'POST', { uid: 'movies', primaryKey: 'id' })
  t.equal(r0.status, 202)
  t.same(Object.keys(r0.body), ENQUEUED_KEYS, 'the 202 body has exactly five keys, in order')
  t.strictSame({ ...r0.body, enqueuedAt: 'x' }, { taskUid: 0, indexUid: 'movies', status: 'enqueued', type: 'indexCreation', enqueuedAt: 'x' })
  t.match(r0.body.enqueuedAt, RFC3339)
  await waitTask(url, 0)
  await waitTask(url, (await enqueue('/indexes', 'POST', { uid: 'books' })).body.taskUid)
  await waitTask(url, (await enqueue('/indexes', 'POST', { uid: 'movies' })).body.taskUid)
  await waitTask(url, (await enqueue('/indexes/movies', 'PATCH', { primaryKey: 'ref' })).body.taskUid)
  await waitTask(url, (await enqueue('/indexes/nope', 'DELETE')).body.taskUid)
  const cancel = await enqueue('/tasks/cancel?uids=0', 'POST')
  t.equal(cancel.status, 200, 'POST /tasks/cancel answers 200')
  t.same(Object.keys(cancel.body), ENQUEUED_KEYS)
  t.equal(cancel.body.taskUid, 5)
  t.equal(cancel.body.indexUid, null)
  t.equal(cancel.body.type, 'taskCancelation')
  t.equal(cancel.body.status, 'enqueued')
  await waitTask(url, 5)
  const all = await Promise.all([0, 1, 2, 3, 4, 5].map(async (u) => (await get(`/${u}`)).body))

  await t.test('TaskView shape', async (t) => {
    for (const task of all) {
      t.same(Object.keys(task), TASK_KEYS, `task ${task.uid} keys`)
      t.match(task.enqueuedAt, RFC3339)
      t.match(task.startedAt, RFC3339)
      t.match(task.finishedAt, RFC3339)
      t.match(task.duration, DURATION)
      t.type(task.batchUid, 'number')
      t.ok(Date.parse(task.enqueuedAt) <= Date.parse(task.startedAt) && Date.parse(task.startedAt) <= Date.parse(task.finishedAt))
    }
    t.strictSame(all.map((x) => x.status), ['succeeded', 'succeeded', 'failed', 'succeeded', 'failed', 'succeeded'])
    t.strictSame(all.map((x) => x.type), ['indexCreation', 'indexCreation', 'indexCreation', 'indexUpdate', 'indexDeletion', 'taskCancelation'])
    t.strictSame(all.map((x) => x.indexUid), ['movies', 'books', 'movies', 'movies', 'nope', null])
    t.strictSame(all.map((x) => x.batchUid), [0, 1, 2, 3, 4, 5], 'one batch per task, numbered in order')
    t.strictSame(all[0].details, { primaryKey: 'id' })
    t.strictSame(all[1].details, { primaryKey: null })
    t.strictSame(all[2].error, err('Index `movies` already exists.', 'index_already_exists'))
    t.strictSame(all[3].details, { primaryKey: 'ref' })
    t.strictSame(all[4].details, { deletedDocuments: 0 })
    t.strictSame(all[4].error, err('Index `nope` not found.', 'index_not_found'))
    t.strictSame(all[5].details, { matchedTasks: 1, canceledTasks: 0, originalFilter: '?uids=0' }, 'a finished task cannot be canceled')
    t.equal(all[5].canceledBy, null)
    t.equal(all[0].status, 'succeeded', 'the finished task was left alone')
    // The list shows the same objects.
    const list = await get('')
    t.same(Object.keys(list.body), ['results', 'total', 'limit', 'from', 'next'])
    t.strictSame(list.body.results, [...all].reverse())
    t.equal(list.body.total, 6)
    t.equal(list.body.limit, 20)
    t.equal(list.body.from, 5)
    t.equal(list.body.next, null)
    // And the client reads them.
    const viaClient = await client.tasks.getTask(3)
    t.equal(viaClient.uid, 3)
    t.equal(viaClient.type, 'indexUpdate')
  })

  await t.test('list filters', async (t) => {
    t.strictSame(await uidsOf('?uids=0,2'), [2, 0])
    t.strictSame(await uidsOf('?uids=4'), [4])
    t.strictSame(await uidsOf('?uids=99'), [])
    t.strictSame(await uidsOf('?uids=*'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?uids=1,*'), [5, 4, 3, 2, 1, 0], '`*` in a list means all')
    t.strictSame(await uidsOf(`?batchUids=${all[1].batchUid}`), [1])
    t.strictSame(await uidsOf(`?batchUids=${all[1].batchUid},${all[4].batchUid}`), [4, 1])
    t.strictSame(await uidsOf('?batchUids=77'), [])
    t.strictSame(await uidsOf('?indexUids=movies'), [3, 2, 0])
    t.strictSame(await uidsOf('?indexUids=movies,nope'), [4, 3, 2, 0])
    t.strictSame(await uidsOf('?indexUids=*,pasteque'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?indexUids=pasteque'), [])
    t.strictSame(await uidsOf('?statuses=failed'), [4, 2])
    t.strictSame(await uidsOf('?statuses=succeeded'), [5, 3, 1, 0])
    t.strictSame(await uidsOf('?statuses=enqueued,processing,canceled'), [])
    t.strictSame(await uidsOf('?statuses=succeeded,*'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?types=indexCreation'), [2, 1, 0])
    t.strictSame(await uidsOf('?types=indexUpdate,indexDeletion'), [4, 3])
    t.strictSame(await uidsOf('?types=taskCancelation'), [5])
    t.strictSame(await uidsOf('?types=*'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?canceledBy=5'), [])
    t.strictSame(await uidsOf('?canceledBy=*'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?indexUids=movies&statuses=succeeded'), [3, 0])
    t.strictSame(await uidsOf('?indexUids=movies&types=indexUpdate&statuses=succeeded'), [3])
    t.strictSame(await uidsOf('?indexUids=movies&statuses=failed&uids=0,1'), [])
    const filtered = await get('?statuses=failed')
    t.equal(filtered.body.total, 2, 'total counts the matching tasks')
  })

  await t.test('date filters (exclusive bounds)', async (t) => {
    const enc = encodeURIComponent
    const e2 = all[2].enqueuedAt
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${enc(e2)}`), [5, 4, 3])
    t.strictSame(await uidsOf(`?beforeEnqueuedAt=${enc(e2)}`), [1, 0])
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${enc(all[1].enqueuedAt)}&beforeEnqueuedAt=${enc(all[4].enqueuedAt)}`), [3, 2])
    t.strictSame(await uidsOf(`?afterStartedAt=${enc(all[3].startedAt)}`), [5, 4])
    t.strictSame(await uidsOf(`?beforeStartedAt=${enc(all[3].startedAt)}`), [2, 1, 0])
    t.strictSame(await uidsOf(`?afterFinishedAt=${enc(all[3].finishedAt)}`), [5, 4])
    t.strictSame(await uidsOf(`?beforeFinishedAt=${enc(all[3].finishedAt)}`), [2, 1, 0])
    t.strictSame(await uidsOf(`?afterStartedAt=${enc(all[0].startedAt)}&beforeFinishedAt=${enc(all[2].finishedAt)}`), [1])
    t.strictSame(await uidsOf('?afterEnqueuedAt=*&beforeFinishedAt=*'), [5, 4, 3, 2, 1, 0])
    // A bare date: `after` means after that whole day, `before` means before it starts.
    const day = all[0].enqueuedAt.slice(0, 10)
    const next = new Date(Date.parse(day + 'T00:00:00Z') + 86_400_000).toISOString().slice(0, 10)
    const prev = new Date(Date.parse(day + 'T00:00:00Z') - 86_400_000).toISOString().slice(0, 10)
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${day}`), [])
    t.strictSame(await uidsOf(`?beforeEnqueuedAt=${day}`), [])
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${prev}`), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf(`?beforeEnqueuedAt=${next}`), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf(`?beforeFinishedAt=${next}&afterStartedAt=${prev}`), [5, 4, 3, 2, 1, 0])
    // Offsets and long fractions.
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${enc('1997-11-12T09:55:06-06:20')}`), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf(`?beforeEnqueuedAt=${enc('1997-11-12T09:55:06.200000300Z')}`), [])
    // The same instant written with an offset: 1 hour ahead.
    const shifted = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 13) + iso.slice(13, -1) + '+01:00'
    t.strictSame(await uidsOf(`?afterEnqueuedAt=${enc(shifted(e2))}`), [5, 4, 3])
  })

  await t.test('paging with limit, from, reverse and next', async (t) => {
    let r = await get('?limit=2')
    t.strictSame(r.body.results.map((x: any) => x.uid), [5, 4])
    t.strictSame({ ...r.body, results: null }, { results: null, total: 6, limit: 2, from: 5, next: 3 })
    // Follow `next` to the end.
    const seen: number[] = []
    let from: number | null = null
    let pages = 0
    do {
      r = await get(`?limit=2${from === null ? '' : `&from=${from}`}`)
      seen.push(...r.body.results.map((x: any) => x.uid))
      t.equal(r.body.total, 6)
      from = r.body.next
      pages++
    } while (from !== null && pages < 10)
    t.equal(pages, 3)
    t.strictSame(seen, [5, 4, 3, 2, 1, 0], 'every uid exactly once')
    // Pages of 4: the last page is short.
    r = await get('?limit=4&from=1')
    t.strictSame({ ...r.body, results: r.body.results.map((x: any) => x.uid) }, { results: [1, 0], total: 6, limit: 4, from: 1, next: null })
    // Reverse: ascending.
    r = await get('?reverse=true&limit=4')
    t.strictSame({ ...r.body, results: r.body.results.map((x: any) => x.uid) }, { results: [0, 1, 2, 3], total: 6, limit: 4, from: 0, next: 4 })
    r = await get('?reverse=true&limit=4&from=4')
    t.strictSame({ ...r.body, results: r.body.results.map((x: any) => x.uid) }, { results: [4, 5], total: 6, limit: 4, from: 4, next: null })
    const ascending: number[] = []
    from = null
    pages = 0
    do {
      r = await get(`?reverse=true&limit=1${from === null ? '' : `&from=${from}`}`)
      ascending.push(...r.body.results.map((x: any) => x.uid))
      from = r.body.next
      pages++
    } while (from !== null && pages < 20)
    t.strictSame(ascending, [0, 1, 2, 3, 4, 5])
    t.equal(pages, 6)
    t.strictSame(await uidsOf('?reverse=false'), [5, 4, 3, 2, 1, 0])
    // Edge cases.
    r = await get('?limit=0')
    t.strictSame(r.body, { results: [], total: 6, limit: 0, from: null, next: 5 })
    t.strictSame(await uidsOf('?from=100'), [5, 4, 3, 2, 1, 0])
    t.strictSame(await uidsOf('?from=2'), [2, 1, 0])
    t.strictSame(await uidsOf('?from=100&reverse=true'), [])
    r = await get('?from=100&reverse=true')
    t.strictSame(r.body, { results: [], total: 6, limit: 20, from: null, next: null })
    // Filters and paging together: total counts the filtered set.
    r = await get('?statuses=succeeded&limit=1&from=4')
    t.strictSame({ ...r.body, results: r.body.results.map((x: any) => x.uid) }, { results: [3], total: 4, limit: 1, from: 3, next: 1 })
    // The client pages the same way.
    const page = await client.tasks.getTasks({ limit: 2, from: 3 })
    t.strictSame(page.results.map((x) => x.uid), [3, 2])
    t.equal(page.next, 1)
  })

  await t.test('GET /tasks/{uid} errors', async (t) => {
    let r = await get('/4294967295')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Task `4294967295` not found.', 'task_not_found'))
    r = await get('/6')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Task `6` not found.', 'task_not_found'))
    r = await get('/abc')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Task uid `abc` is invalid. It should only contain numeric characters.', 'invalid_task_uids'))
    r = await get('/-1')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Task uid `-1` is invalid. It should only contain numeric characters.', 'invalid_task_uids'))
    r = await get('/4294967296')
    t.equal(r.status, 400)
    t.equal(r.body.code, 'invalid_task_uids')
  })

  await t.test('invalid parameters of GET /tasks', async (t) => {
    const cases: [string, string, string][] = [
      ['uids=doggo', 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer'],
      ['uids=1,dogo', 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer'],
      ['uids=cat,*,dog', 'invalid_task_uids', 'Invalid value in parameter `uids[0]`: could not parse `cat` as a positive integer'],
      ['uids=-1', 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `-1` as a positive integer'],
      ['canceledBy=doggo', 'invalid_task_canceled_by', 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer'],
      ['statuses=doggo', 'invalid_task_statuses', 'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
      ['statuses=succeeded,doggo', 'invalid_task_statuses', 'Invalid value in parameter `statuses[1]`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.'],
      ['types=doggo', 'invalid_task_types', `Invalid value in parameter \`types\`: \`doggo\` is not a valid task type. Available types are ${TYPES}.`],
      ['indexUids=the%20good%20doggo', 'invalid_index_uid', `Invalid value in parameter \`indexUids\`: \`the good doggo\` ${UID_TAIL}`],
      ['indexUids=1,h%C3%A9', 'invalid_index_uid', `Invalid value in parameter \`indexUids[1]\`: \`hé\` ${UID_TAIL}`],
      ['limit=doggo', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
      ['limit=-2', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `-2` as a positive integer'],
      ['from=doggo', 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `doggo` as a positive integer'],
      ['from=*', 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `*` as a positive integer'],
      ['from=-1', 'invalid_task_from', 'Invalid value in parameter `from`: could not parse `-1` as a positive integer'],
      ['reverse=doggo', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
      ['reverse=*', 'invalid_task_reverse', 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`'],
      ['lol=pied', 'bad_request', `Unknown parameter \`lol\`: expected one of ${GET_LIST}`],
      ['foo=1', 'bad_request', `Unknown parameter \`foo\`: expected one of ${GET_LIST}`],
    ]
    const dates: [string, string][] = [
      ['afterEnqueuedAt', 'invalid_task_after_enqueued_at'], ['beforeEnqueuedAt', 'invalid_task_before_enqueued_at'],
      ['afterStartedAt', 'invalid_task_after_started_at'], ['beforeStartedAt', 'invalid_task_before_started_at'],
      ['afterFinishedAt', 'invalid_task_after_finished_at'], ['beforeFinishedAt', 'invalid_task_before_finished_at'],
    ]
    for (const [param, code] of dates) {
      cases.push([`${param}=doggo`, code, `Invalid value in parameter \`${param}\`: \`doggo\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`])
    }
    for (const bad of ['2021', '2021-12', '2021-12-03T23', '2021-12-03T23:45']) {
      cases.push([`afterEnqueuedAt=${encodeURIComponent(bad)}`, 'invalid_task_after_enqueued_at', `Invalid value in parameter \`afterEnqueuedAt\`: \`${bad}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`])
    }
    for (const [query, code, message] of cases) {
      const r = await get(`?${query}`)
      t.equal(r.status, 400, query)
      t.strictSame(r.body, err(message, code), query)
    }
    // batchUids is validated too.
    const b = await get('?batchUids=doggo')
    t.equal(b.status, 400)
    t.equal(b.body.message, 'Invalid value in parameter `batchUids`: could not parse `doggo` as a positive integer')
  })

  await t.test('invalid parameters of cancel and delete', async (t) => {
    for (const [method, path, action] of [['POST', '/tasks/cancel', 'cancel'], ['DELETE', '/tasks', 'delete']] as const) {
      const send = (q: string) => call(`${url}${path}${q}`, { method })
      let r = await send('')
      t.equal(r.status, 400, `${action} without filters`)
      t.strictSame(r.body, err(MISSING(action), 'missing_task_filters'))
      r = await send('?')
      t.strictSame(r.body, err(MISSING(action), 'missing_task_filters'))
      for (const p of ['limit', 'from', 'reverse']) {
        r = await send(`?${p}=1`)
        t.equal(r.status, 400)
        t.strictSame(r.body, err(`Unknown parameter \`${p}\`: expected one of ${FILTER_LIST}`, 'bad_request'), `${action} ${p}`)
      }
      r = await send('?lol=pied')
      t.strictSame(r.body, err(`Unknown parameter \`lol\`: expected one of ${FILTER_LIST}`, 'bad_request'))
      // Deserialization errors come before the empty check.
      r = await send('?uids=doggo')
      t.strictSame(r.body, err('Invalid value in parameter `uids`: could not parse `doggo` as a positive integer', 'invalid_task_uids'))
      r = await send('?statuses=doggo')
      t.equal(r.body.code, 'invalid_task_statuses')
      r = await send('?beforeStartedAt=doggo')
      t.equal(r.body.code, 'invalid_task_before_started_at')
    }
    t.equal((await get('')).body.total, 6, 'none of them registered a task')
  })

  await t.test('a filter of `*` is not empty', async (t) => {
    const r = await call(`${url}/tasks/cancel?statuses=*`, { method: 'POST' })
    t.equal(r.status, 200)
    const done = await waitTask(url, r.body.taskUid)
    // Matches every task registered before it; none of them can be canceled any more.
    t.strictSame(done.details, { matchedTasks: 6, canceledTasks: 0, originalFilter: '?statuses=*' })
  })

  await t.test('deleting finished tasks', async (t) => {
    const r = await call(`${url}/tasks?statuses=failed`, { method: 'DELETE' })
    t.equal(r.status, 200, 'DELETE /tasks answers 200')
    t.same(Object.keys(r.body), ENQUEUED_KEYS)
    t.equal(r.body.type, 'taskDeletion')
    t.equal(r.body.indexUid, null)
    const done = await waitTask(url, r.body.taskUid)
    t.equal(done.status, 'succeeded')
    t.strictSame(done.details, { matchedTasks: 2, deletedTasks: 2, originalFilter: '?statuses=failed' })
    t.equal((await get('/2')).status, 404)
    t.strictSame((await get('/4')).body, err('Task `4` not found.', 'task_not_found'))
    t.strictSame(await uidsOf('?statuses=failed'), [])
    t.strictSame(await uidsOf('?indexUids=movies'), [3, 0])
    t.strictSame(await uidsOf('?uids=2,3,4'), [3])
    // A deletion can delete the deletions before it (but not itself).
    const again = await call(`${url}/tasks?types=taskDeletion,taskCancelation`, { method: 'DELETE' })
    const done2 = await waitTask(url, again.body.taskUid)
    t.strictSame(done2.details, { matchedTasks: 3, deletedTasks: 3, originalFilter: '?types=taskDeletion,taskCancelation' })
    t.strictSame(await uidsOf(''), [again.body.taskUid, 3, 1, 0])
    // Percent-encoding is kept in originalFilter.
    const enc = await call(`${url}/tasks?indexUids=mo%76ies&uids=0`, { method: 'DELETE' })
    const done3 = await waitTask(url, enc.body.taskUid)
    t.strictSame(done3.details, { matchedTasks: 1, deletedTasks: 1, originalFilter: '?indexUids=mo%76ies&uids=0' })
    t.equal((await get('/0')).status, 404)
  })
})

t.test('cancelation and deletion while batches are held', async (t) => {
  const gate = batchGate(t, true)
  const { url } = await serverFor(t, { env: gate.env })
  const post = (path: string, json?: unknown) => call(`${url}${path}`, { method: 'POST', json })
  const get = (path: string) => call(`${url}${path}`)

  // 0 is held in processing (until the gate opens); 1, 2 and 3 wait.
  await post('/indexes', { uid: 'c0' })
  await post('/indexes', { uid: 'c1' })
  await post('/indexes', { uid: 'c2', primaryKey: 'pk' })
  await call(`${url}/indexes/c9`, { method: 'DELETE' })
  const processing = await waitStatus(url, 0, 'processing')
  t.same(Object.keys(processing), TASK_KEYS)
  t.equal(processing.batchUid, 0)
  t.match(processing.startedAt, RFC3339)
  t.equal(processing.finishedAt, null)
  t.equal(processing.duration, null)
  const waiting = (await get('/tasks/1')).body
  t.strictSame({ ...waiting, enqueuedAt: 'x' }, {
    uid: 1, batchUid: null, indexUid: 'c1', status: 'enqueued', type: 'indexCreation', canceledBy: null,
    details: { primaryKey: null }, error: null, duration: null, enqueuedAt: 'x', startedAt: null, finishedAt: null,
  })
  t.strictSame((await get('/tasks?statuses=processing')).body.results.map((x: any) => x.uid), [0])
  t.strictSame((await get('/tasks?statuses=enqueued')).body.results.map((x: any) => x.uid), [3, 2, 1])
  t.strictSame((await get('/tasks?batchUids=0')).body.results.map((x: any) => x.uid), [0], 'a processing task is in its batch')
  // Enqueued tasks have no start or finish: date bounds on them never match.
  t.strictSame((await get('/tasks?afterStartedAt=2000-01-01')).body.results.map((x: any) => x.uid), [0])
  t.strictSame((await get('/tasks?beforeFinishedAt=2999-01-01')).body.results.map((x: any) => x.uid), [])

  // Cancel two enqueued tasks.
  const c = await post('/tasks/cancel?uids=1,2')
  t.equal(c.status, 200)
  t.equal(c.body.taskUid, 4)
  const pending = (await get('/tasks/4')).body
  t.strictSame(pending.details, { matchedTasks: 2, canceledTasks: null, originalFilter: '?uids=1,2' })
  t.equal(pending.status, 'enqueued')
  gate.open()
  const cancelTask = await waitTask(url, 4)
  t.equal(cancelTask.status, 'succeeded')
  t.strictSame(cancelTask.details, { matchedTasks: 2, canceledTasks: 2, originalFilter: '?uids=1,2' })
  for (const uid of [1, 2]) {
    const x = (await get(`/tasks/${uid}`)).body
    t.same(Object.keys(x), TASK_KEYS)
    t.equal(x.status, 'canceled', `task ${uid} canceled`)
    t.equal(x.canceledBy, 4)
    t.equal(x.error, null)
    t.equal(x.batchUid, cancelTask.batchUid, 'canceled tasks belong to the cancelation batch')
    t.equal(x.startedAt, cancelTask.startedAt)
    t.equal(x.finishedAt, cancelTask.finishedAt)
    t.match(x.duration, DURATION)
  }
  t.strictSame((await get('/tasks/1')).body.details, { primaryKey: null })
  t.strictSame((await get('/tasks/2')).body.details, { primaryKey: 'pk' })
  t.equal((await waitTask(url, 0)).status, 'succeeded', 'the processing task was not targeted')
  t.equal((await get('/indexes/c0')).status, 200)
  t.equal((await get('/indexes/c1')).status, 404)
  t.equal((await get('/indexes/c2')).status, 404)
  t.strictSame((await get('/tasks?canceledBy=4')).body.results.map((x: any) => x.uid), [2, 1])
  t.strictSame((await get('/tasks?canceledBy=4,99')).body.results.map((x: any) => x.uid), [2, 1])
  t.strictSame((await get('/tasks?statuses=canceled')).body.results.map((x: any) => x.uid), [2, 1])
  // The cancelation ran before task 3, which was registered earlier: cancelations come first.
  const t3 = await waitTask(url, 3)
  t.equal(t3.status, 'failed')
  t.ok(t3.batchUid > cancelTask.batchUid)

  // Cancel a processing task: its effect is not applied.
  gate.close()
  const p = await post('/indexes', { uid: 'p0' })
  t.equal(p.body.taskUid, 5)
  await waitStatus(url, 5, 'processing')
  const c2 = await post('/tasks/cancel?uids=5&statuses=processing')
  t.equal(c2.status, 200)
  gate.open()
  const cancel2 = await waitTask(url, c2.body.taskUid)
  t.strictSame(cancel2.details, { matchedTasks: 1, canceledTasks: 1, originalFilter: '?uids=5&statuses=processing' })
  const p0 = (await get('/tasks/5')).body
  t.equal(p0.status, 'canceled')
  t.equal(p0.canceledBy, c2.body.taskUid)
  t.equal(p0.batchUid, cancel2.batchUid)
  t.match(p0.startedAt, RFC3339)
  t.strictSame(p0.details, { primaryKey: null })
  const missing = await get('/indexes/p0')
  t.equal(missing.status, 404, 'the canceled creation left no index')
  t.strictSame(missing.body, err('Index `p0` not found.', 'index_not_found'))
  // The abandoned batch left no trace: batch uids stay contiguous.
  const batches = (await get('/batches?limit=100')).body
  t.strictSame(batches.results.map((b: any) => b.uid), [...Array(batches.total).keys()].reverse())
  t.equal(cancel2.batchUid, batches.total - 1)

  // Deletion takes only finished tasks: 7 is processing when the deletion is registered, 8 waits.
  gate.close()
  const q0 = await post('/indexes', { uid: 'q0' })
  const q1 = await post('/indexes', { uid: 'q1' })
  await waitStatus(url, q0.body.taskUid, 'processing')
  const victims = [0, 1, 2, q0.body.taskUid, q1.body.taskUid]
  const d = await call(`${url}/tasks?uids=${victims.join(',')}`, { method: 'DELETE' })
  t.equal(d.status, 200)
  const dPending = (await get(`/tasks/${d.body.taskUid}`)).body
  t.strictSame(dPending.details, { matchedTasks: 5, deletedTasks: null, originalFilter: `?uids=${victims.join(',')}` })
  gate.open()
  const deletion = await waitTask(url, d.body.taskUid)
  // 0, 1, 2 were finished; q0 finished before the deletion ran (deletions wait for the running batch); q1 waited.
  t.strictSame(deletion.details, { matchedTasks: 5, deletedTasks: 4, originalFilter: `?uids=${victims.join(',')}` })
  for (const uid of [0, 1, 2, q0.body.taskUid]) {
    const r = await get(`/tasks/${uid}`)
    t.equal(r.status, 404, `task ${uid} deleted`)
    t.strictSame(r.body, err(`Task \`${uid}\` not found.`, 'task_not_found'))
  }
  const survivor = await get(`/tasks/${q1.body.taskUid}`)
  t.equal(survivor.status, 200, 'an enqueued task is never deleted')
  const q1done = await waitTask(url, q1.body.taskUid)
  t.equal(q1done.status, 'succeeded')
  t.ok(Date.parse(q1done.startedAt) >= Date.parse(deletion.finishedAt), 'it was still enqueued when the deletion ran')
  t.strictSame((await get(`/tasks?uids=${victims.join(',')}`)).body.results.map((x: any) => x.uid), [q1.body.taskUid])
  // The indexes those tasks made are still there: deleting tasks deletes history only.
  t.equal((await get('/indexes/q0')).status, 200)
  t.equal((await get('/indexes/c0')).status, 200)
})

t.test('task-type filters accept every type Meilisearch defines, ignoring ASCII case (tasks.rs `Kind::from_str`)', async (t) => {
  const server = await serverFor(t)
  const created = await server.client.createIndex('kinds').waitTask()
  const all = 'documentAdditionOrUpdate,documentEdition,documentDeletion,settingsUpdate,indexCreation,indexDeletion,indexUpdate,indexSwap,taskCancelation,taskDeletion,dumpCreation,snapshotCreation,export,upgradeDatabase,indexCompaction,networkTopologyChange,dsrUpdate,dsrClear'
  const r = await call(`${server.url}/tasks?types=${all}`)
  t.equal(r.status, 200)
  t.same(r.body.results.map((x: { uid: number }) => x.uid), [created.uid])
  const folded = await call(`${server.url}/tasks?types=INDEXCREATION,dsrclear`)
  t.equal(folded.status, 200)
  t.same(folded.body.results.map((x: { uid: number }) => x.uid), [created.uid])
  t.same((await server.client.tasks.getTasks({ types: ['dsrUpdate' as never] })).results, [])
  t.equal((await call(`${server.url}/batches?types=dsrUpdate`)).status, 200)
})
