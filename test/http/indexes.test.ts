/**
 * Index routes over HTTP: POST/GET/PATCH/DELETE /indexes, rename, failures as tasks, stats, /version, /health.
 * Every exact string comes from the Meilisearch source (see research/meili-tasks-indexes.md).
 */
import t from 'tap'
import { MeilisearchApiError } from 'meilisearch'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, call, serverFor, waitStatus, waitTask } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { err } from '../helpers/meili.js'

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/

t.test('index routes', async (t) => {
  const server = await serverFor(t)
  const { url, client } = server
  const post = (path: string, json: unknown) => call(`${url}${path}`, { method: 'POST', json })
  const patch = (path: string, json: unknown) => call(`${url}${path}`, { method: 'PATCH', json })
  const del = (path: string) => call(`${url}${path}`, { method: 'DELETE' })
  const get = (path: string) => call(`${url}${path}`)
  /** Enqueue through fetch, assert the 202 shape, and wait for the task. */
  const enqueue = async (res: Promise<Awaited<ReturnType<typeof call>>>, type: string, indexUid: string | null) => {
    const r = await res
    t.equal(r.status, 202, `${type} answers 202`)
    t.same(Object.keys(r.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
    t.equal(r.body.indexUid, indexUid)
    t.equal(r.body.status, 'enqueued')
    t.equal(r.body.type, type)
    t.match(r.body.enqueuedAt, RFC3339)
    return waitTask(url, r.body.taskUid)
  }

  await t.test('create with the client, with and without a primary key', async (t) => {
    const a = await client.createIndex('cl_pk', { primaryKey: 'id' }).waitTask()
    t.equal(a.status, 'succeeded')
    t.equal(a.type, 'indexCreation')
    t.equal(a.indexUid, 'cl_pk')
    t.strictSame(a.details, { primaryKey: 'id' })
    t.equal(a.error, null)
    const b = await client.createIndex('cl_nopk').waitTask()
    t.equal(b.status, 'succeeded')
    t.strictSame(b.details, { primaryKey: null })
    const raw = await client.getRawIndex('cl_pk')
    t.equal(raw.uid, 'cl_pk')
    t.equal(raw.primaryKey, 'id')
    const idx = await client.getIndex('cl_nopk')
    t.equal(idx.uid, 'cl_nopk')
    t.equal((await client.getRawIndex('cl_nopk')).primaryKey, null)
  })

  await t.test('create with fetch; IndexView key order and dates', async (t) => {
    const task = await enqueue(post('/indexes', { uid: 'f_pk', primaryKey: 'sku' }), 'indexCreation', 'f_pk')
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { primaryKey: 'sku' })
    const task2 = await enqueue(post('/indexes', { uid: 'f_nopk' }), 'indexCreation', 'f_nopk')
    t.equal(task2.status, 'succeeded')
    t.strictSame(task2.details, { primaryKey: null })
    const explicitNull = await enqueue(post('/indexes', { uid: 'f_nullpk', primaryKey: null }), 'indexCreation', 'f_nullpk')
    t.strictSame(explicitNull.details, { primaryKey: null })

    const r = await get('/indexes/f_pk')
    t.equal(r.status, 200)
    t.same(Object.keys(r.body), ['uid', 'createdAt', 'updatedAt', 'primaryKey'])
    t.equal(r.body.uid, 'f_pk')
    t.equal(r.body.primaryKey, 'sku')
    t.match(r.body.createdAt, RFC3339)
    t.match(r.body.updatedAt, RFC3339)
    t.equal(r.body.createdAt, r.body.updatedAt, 'a fresh index was never updated')
    // The index is created while the task runs: createdAt lies between the task's start and finish.
    t.ok(Date.parse(r.body.createdAt) >= Date.parse(task.startedAt) - 1 && Date.parse(r.body.createdAt) <= Date.parse(task.finishedAt) + 1)
    const r2 = await get('/indexes/f_nopk')
    t.strictSame(r2.body.primaryKey, null)
    t.same(Object.keys(r2.body), ['uid', 'createdAt', 'updatedAt', 'primaryKey'])
  })

  await t.test('list with offset and limit', async (t) => {
    const all = await get('/indexes')
    t.equal(all.status, 200)
    t.same(Object.keys(all.body), ['results', 'offset', 'limit', 'total'])
    const uids = ['cl_nopk', 'cl_pk', 'f_nopk', 'f_nullpk', 'f_pk']
    t.strictSame(all.body.results.map((i: any) => i.uid), uids, 'sorted by uid')
    t.equal(all.body.offset, 0)
    t.equal(all.body.limit, 20)
    t.equal(all.body.total, 5)
    for (const view of all.body.results) t.same(Object.keys(view), ['uid', 'createdAt', 'updatedAt', 'primaryKey'])

    const page = await get('/indexes?offset=1&limit=2')
    t.strictSame(page.body.results.map((i: any) => i.uid), ['cl_pk', 'f_nopk'])
    t.equal(page.body.offset, 1)
    t.equal(page.body.limit, 2)
    t.equal(page.body.total, 5)

    const past = await get('/indexes?offset=10')
    t.strictSame(past.body, { results: [], offset: 10, limit: 20, total: 5 })
    const zero = await get('/indexes?limit=0')
    t.strictSame(zero.body, { results: [], offset: 0, limit: 0, total: 5 })

    const viaClient = await client.getRawIndexes({ offset: 3, limit: 1 })
    t.strictSame(viaClient.results.map((i) => i.uid), ['f_nullpk'])
    t.equal(viaClient.total, 5)
  })

  await t.test('invalid list parameters', async (t) => {
    let r = await get('/indexes?offset=doggo')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value in parameter `offset`: could not parse `doggo` as a positive integer', 'invalid_index_offset'))
    r = await get('/indexes?limit=doggo')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value in parameter `limit`: could not parse `doggo` as a positive integer', 'invalid_index_limit'))
    r = await get('/indexes?doggo=nolimit')
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Unknown parameter `doggo`: expected one of `offset`, `limit`', 'bad_request'))
  })

  await t.test('invalid create payloads', async (t) => {
    let r = await post('/indexes', { primaryKey: 'doggo' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Missing field `uid`', 'missing_index_uid'))
    r = await post('/indexes', { uid: 'the best doggo' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value at `.uid`: `the best doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.', 'invalid_index_uid'))
    r = await post('/indexes', { uid: true })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value type at `.uid`: expected a string, but found a boolean: `true`', 'invalid_index_uid'))
    r = await post('/indexes', { uid: 'doggo', primaryKey: ['the', 'best', 'doggo'] })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value type at `.primaryKey`: expected a string, but found an array: `["the","best","doggo"]`', 'invalid_index_primary_key'))
    r = await post('/indexes', { uid: 'doggo', doggo: 'bernese' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Unknown field `doggo`: expected one of `uid`, `primaryKey`', 'bad_request'))
    // None of those registered a task on `doggo`.
    const tasks = await get('/tasks?indexUids=doggo')
    t.equal(tasks.body.total, 0)
  })

  await t.test('invalid uid in the path', async (t) => {
    const message = '`the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const r = await call(`${url}/indexes/the%20good%20doggo`, { method, ...(method === 'PATCH' ? { json: { primaryKey: 'x' } } : {}) })
      t.equal(r.status, 400, method)
      t.strictSame(r.body, err(message, 'invalid_index_uid'), method)
    }
  })

  await t.test('GET of a missing index is a 404', async (t) => {
    const r = await get('/indexes/missing')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Index `missing` not found.', 'index_not_found'))
    const s = await get('/indexes/missing/stats')
    t.equal(s.status, 404)
    t.strictSame(s.body, err('Index `missing` not found.', 'index_not_found'))
    await t.rejects(client.getIndex('missing'), MeilisearchApiError)
    try {
      await client.getRawIndex('missing')
      t.fail('should have thrown')
    } catch (e) {
      t.equal((e as MeilisearchApiError).cause?.code, 'index_not_found')
      t.equal((e as MeilisearchApiError).response.status, 404)
    }
  })

  await t.test('creating an existing index fails as a task', async (t) => {
    const task = await enqueue(post('/indexes', { uid: 'f_pk', primaryKey: 'doggos' }), 'indexCreation', 'f_pk')
    t.equal(task.status, 'failed')
    t.strictSame(task.details, { primaryKey: 'doggos' })
    t.strictSame(task.error, err('Index `f_pk` already exists.', 'index_already_exists'))
    // The existing index is untouched.
    t.equal((await get('/indexes/f_pk')).body.primaryKey, 'sku')
    const task2 = await enqueue(post('/indexes', { uid: 'f_pk' }), 'indexCreation', 'f_pk')
    t.strictSame(task2.details, { primaryKey: null })
    t.equal(task2.error.code, 'index_already_exists')
  })

  await t.test('update the primary key', async (t) => {
    const before = (await get('/indexes/f_nopk')).body
    await new Promise((r) => setTimeout(r, 5))
    const task = await enqueue(patch('/indexes/f_nopk', { primaryKey: 'bones' }), 'indexUpdate', 'f_nopk')
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { primaryKey: 'bones' })
    const after = (await get('/indexes/f_nopk')).body
    t.equal(after.primaryKey, 'bones')
    t.equal(after.createdAt, before.createdAt)
    t.ok(Date.parse(after.updatedAt) > Date.parse(before.updatedAt), 'updatedAt moves')
    // With the client.
    const viaClient = await client.updateIndex('cl_nopk', { primaryKey: 'ref' }).waitTask()
    t.equal(viaClient.status, 'succeeded')
    t.equal(viaClient.type, 'indexUpdate')
    t.equal((await client.getRawIndex('cl_nopk')).primaryKey, 'ref')
    // An empty PATCH changes nothing and reports a null primary key.
    const empty = await enqueue(patch('/indexes/f_nopk', {}), 'indexUpdate', 'f_nopk')
    t.equal(empty.status, 'succeeded')
    t.strictSame(empty.details, { primaryKey: null })
    t.equal((await get('/indexes/f_nopk')).body.primaryKey, 'bones')
  })

  await t.test('invalid update payloads', async (t) => {
    let r = await patch('/indexes/f_pk', { primaryKey: ['doggo'] })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid value type at `.primaryKey`: expected a string, but found an array: `["doggo"]`', 'invalid_index_primary_key'))
    r = await patch('/indexes/f_pk', { createdAt: 'doggo' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Immutable field `createdAt`: expected one of `primaryKey`, `uid`', 'immutable_index_created_at'))
    r = await patch('/indexes/f_pk', { updatedAt: 'doggo' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Immutable field `updatedAt`: expected one of `primaryKey`, `uid`', 'immutable_index_updated_at'))
    r = await patch('/indexes/f_pk', { doggo: 'bork' })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Unknown field `doggo`: expected one of `primaryKey`, `uid`', 'bad_request'))
    r = await patch('/indexes/f_pk', { uid: 'Invalid UID!' })
    t.equal(r.status, 400)
    t.equal(r.body.code, 'invalid_index_uid')
  })

  await t.test('update of a missing index fails as a task', async (t) => {
    const task = await enqueue(patch('/indexes/nope', { primaryKey: 'id' }), 'indexUpdate', 'nope')
    t.equal(task.status, 'failed')
    t.strictSame(task.details, { primaryKey: 'id' })
    t.strictSame(task.error, err('Index `nope` not found.', 'index_not_found'))
    const bare = await enqueue(patch('/indexes/nope', {}), 'indexUpdate', 'nope')
    t.equal(bare.status, 'failed')
    t.strictSame(bare.details, { primaryKey: null })
    t.strictSame(bare.error, err('Index `nope` not found.', 'index_not_found'))
    const rename = await enqueue(patch('/indexes/nope', { uid: 'nope2' }), 'indexUpdate', 'nope')
    t.equal(rename.status, 'failed')
    t.strictSame(rename.error, err('Index `nope` not found.', 'index_not_found'))
    t.equal((await get('/indexes/nope2')).status, 404)
  })

  await t.test('rename through PATCH {uid}', async (t) => {
    const created = await enqueue(post('/indexes', { uid: 'ren_a', primaryKey: 'id' }), 'indexCreation', 'ren_a')
    const upd = await enqueue(patch('/indexes/ren_a', { primaryKey: 'id' }), 'indexUpdate', 'ren_a')
    const before = (await get('/indexes/ren_a')).body
    const task = await enqueue(patch('/indexes/ren_a', { uid: 'ren_b' }), 'indexUpdate', 'ren_a')
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { primaryKey: null, oldIndexUid: 'ren_a', newIndexUid: 'ren_b' })
    t.same(Object.keys(task.details), ['primaryKey', 'oldIndexUid', 'newIndexUid'])
    const old = await get('/indexes/ren_a')
    t.equal(old.status, 404)
    t.strictSame(old.body, err('Index `ren_a` not found.', 'index_not_found'))
    const now = await get('/indexes/ren_b')
    t.equal(now.status, 200)
    t.equal(now.body.uid, 'ren_b')
    t.equal(now.body.primaryKey, 'id', 'the primary key moves with the index')
    t.equal(now.body.createdAt, before.createdAt, 'same index, same creation date')
    // History follows the index: earlier tasks now name it by its new uid, and keep their own dates.
    const createdAfter = (await get(`/tasks/${created.uid}`)).body
    t.equal(createdAfter.indexUid, 'ren_b')
    t.equal(createdAfter.finishedAt, created.finishedAt, 'rewriting history does not touch dates')
    t.equal(createdAfter.startedAt, created.startedAt)
    t.equal(createdAfter.batchUid, created.batchUid)
    t.equal((await get(`/tasks/${upd.uid}`)).body.indexUid, 'ren_b')
    // The rename task itself keeps the uid it was registered with (Meilisearch rewrites older tasks only)...
    const renameAfter = (await get(`/tasks/${task.uid}`)).body
    t.equal(renameAfter.indexUid, 'ren_a')
    t.strictSame(renameAfter.details, { primaryKey: null, oldIndexUid: 'ren_a', newIndexUid: 'ren_b' })
    // ...and concerns both names.
    const byNew = await get('/tasks?indexUids=ren_b')
    t.strictSame(byNew.body.results.map((x: any) => x.uid), [task.uid, upd.uid, created.uid])
    const byOld = await get('/tasks?indexUids=ren_a')
    t.strictSame(byOld.body.results.map((x: any) => x.uid), [task.uid])
    // Rename and primary key in one update.
    const both = await enqueue(patch('/indexes/ren_b', { uid: 'ren_c', primaryKey: 'id' }), 'indexUpdate', 'ren_b')
    t.equal(both.status, 'succeeded')
    t.strictSame(both.details, { primaryKey: 'id', oldIndexUid: 'ren_b', newIndexUid: 'ren_c' })
    t.equal((await get('/indexes/ren_c')).body.primaryKey, 'id')
    t.equal((await get('/indexes/ren_b')).status, 404)
  })

  await t.test('rename onto an existing index fails as a task', async (t) => {
    const task = await enqueue(patch('/indexes/ren_c', { uid: 'f_pk' }), 'indexUpdate', 'ren_c')
    t.equal(task.status, 'failed')
    t.strictSame(task.error, err('Index `f_pk` already exists.', 'index_already_exists'))
    t.equal((await get('/indexes/ren_c')).status, 200)
    t.equal((await get('/indexes/f_pk')).body.primaryKey, 'sku')
  })

  await t.test('delete', async (t) => {
    const task = await enqueue(del('/indexes/f_nullpk'), 'indexDeletion', 'f_nullpk')
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { deletedDocuments: 0 })
    t.equal((await get('/indexes/f_nullpk')).status, 404)
    const viaClient = await client.deleteIndex('cl_pk').waitTask()
    t.equal(viaClient.status, 'succeeded')
    t.equal(viaClient.type, 'indexDeletion')
    t.strictSame(viaClient.details, { deletedDocuments: 0 })
    t.equal((await get('/indexes/cl_pk')).status, 404)
    // Deleting a missing index fails as a task.
    const missing = await enqueue(del('/indexes/f_nullpk'), 'indexDeletion', 'f_nullpk')
    t.equal(missing.status, 'failed')
    t.strictSame(missing.details, { deletedDocuments: 0 })
    t.strictSame(missing.error, err('Index `f_nullpk` not found.', 'index_not_found'))
    // A deleted uid can be created again.
    const again = await enqueue(post('/indexes', { uid: 'f_nullpk' }), 'indexCreation', 'f_nullpk')
    t.equal(again.status, 'succeeded')
    t.equal((await get('/indexes/f_nullpk')).status, 200)
  })

  await t.test('index stats', async (t) => {
    const r = await get('/indexes/f_pk/stats')
    t.equal(r.status, 200)
    t.same(Object.keys(r.body), ['numberOfDocuments', 'rawDocumentDbSize', 'avgDocumentSize', 'isIndexing', 'numberOfEmbeddings', 'numberOfEmbeddedDocuments', 'fieldDistribution'])
    t.strictSame(r.body, { numberOfDocuments: 0, rawDocumentDbSize: 0, avgDocumentSize: 0, isIndexing: false, numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0, fieldDistribution: {} })
    const viaClient = await client.index('f_pk').getStats()
    t.equal(viaClient.numberOfDocuments, 0)
    t.equal(viaClient.isIndexing, false)
  })

  await t.test('global stats', async (t) => {
    const r = await get('/stats')
    t.equal(r.status, 200)
    t.same(Object.keys(r.body), ['databaseSize', 'usedDatabaseSize', 'lastUpdate', 'indexes'])
    t.type(r.body.databaseSize, 'number')
    t.ok(r.body.databaseSize > 0, 'the database takes some space')
    t.type(r.body.usedDatabaseSize, 'number')
    t.ok(r.body.usedDatabaseSize <= r.body.databaseSize)
    const list = (await get('/indexes')).body.results
    const uids = list.map((i: any) => i.uid)
    t.strictSame(Object.keys(r.body.indexes), [...uids].sort())
    t.strictSame(Object.keys(r.body.indexes), ['cl_nopk', 'f_nopk', 'f_nullpk', 'f_pk', 'ren_c'])
    const latest = list.map((i: any) => i.updatedAt).sort((a: string, b: string) => Date.parse(b) - Date.parse(a) || (a < b ? 1 : -1))[0]
    t.match(r.body.lastUpdate, RFC3339)
    t.equal(r.body.lastUpdate, latest, 'lastUpdate is the latest updatedAt')
    for (const s of Object.values(r.body.indexes) as any[]) {
      t.same(Object.keys(s), ['numberOfDocuments', 'rawDocumentDbSize', 'avgDocumentSize', 'isIndexing', 'numberOfEmbeddings', 'numberOfEmbeddedDocuments', 'fieldDistribution'])
    }
  })

  await t.test('/version and /health', async (t) => {
    const v = await get('/version')
    t.equal(v.status, 200)
    t.same(Object.keys(v.body), ['commitSha', 'commitDate', 'pkgVersion'])
    t.equal(v.body.pkgVersion, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version)
    t.type(v.body.commitSha, 'string')
    t.type(v.body.commitDate, 'string')
    const h = await get('/health')
    t.equal(h.status, 200)
    t.strictSame(h.body, { status: 'available' })
    t.strictSame(await client.health(), { status: 'available' })
    t.equal(await client.isHealthy(), true)
  })
})

t.test('GET /stats with no index has a null lastUpdate', async (t) => {
  const server = await serverFor(t)
  const r = await call(`${server.url}/stats`)
  t.equal(r.status, 200)
  t.same(Object.keys(r.body), ['databaseSize', 'usedDatabaseSize', 'lastUpdate', 'indexes'])
  t.equal(r.body.lastUpdate, null)
  t.strictSame(r.body.indexes, {})
  const list = await call(`${server.url}/indexes`)
  t.strictSame(list.body, { results: [], offset: 0, limit: 20, total: 0 })
})

t.test('isIndexing is true while a batch of the index is processing, not while its tasks wait', async (t) => {
  // As Meilisearch's `is_index_processing`: only a running batch counts.
  const gate = batchGate(t, true)
  const server = await serverFor(t, { env: gate.env })
  const { url } = server
  const c = await call(`${url}/indexes`, { method: 'POST', json: { uid: 'busy' } })
  gate.pass()
  await waitTask(url, c.body.taskUid)
  const blocker = await call(`${url}/indexes`, { method: 'POST', json: { uid: 'other' } })
  const u = await call(`${url}/indexes/busy`, { method: 'PATCH', json: { primaryKey: 'id' } })
  await waitStatus(url, blocker.body.taskUid, 'processing')
  t.equal((await call(`${url}/tasks/${u.body.taskUid}`)).body.status, 'enqueued')
  t.equal((await call(`${url}/indexes/busy/stats`)).body.isIndexing, false, 'enqueued behind another index: not indexing')
  gate.pass()
  await waitStatus(url, u.body.taskUid, 'processing')
  t.equal((await call(`${url}/indexes/busy/stats`)).body.isIndexing, true)
  const g = await call(`${url}/stats`)
  t.equal(g.body.indexes.busy.isIndexing, true)
  t.equal(g.body.indexes.other.isIndexing, false)
  gate.open()
  await waitTask(url, u.body.taskUid)
  t.equal((await call(`${url}/indexes/busy/stats`)).body.isIndexing, false)
})

t.test('tasks registered after a rename keep the old name', async (t) => {
  const gate = batchGate(t, true)
  const server = await serverFor(t, { env: gate.env })
  const { url } = server
  const post = (json: unknown) => call(`${url}/indexes`, { method: 'POST', json })
  const c = await post({ uid: 'old', primaryKey: 'a' })
  const rename = await call(`${url}/indexes/old`, { method: 'PATCH', json: { uid: 'new' } })
  // Registered while the rename waits: it names `old`, which is free again once the rename ran.
  const again = await post({ uid: 'old', primaryKey: 'b' })
  gate.open()
  const renamed = await waitTask(url, rename.body.taskUid)
  t.equal(renamed.status, 'succeeded')
  const later = await waitTask(url, again.body.taskUid)
  t.equal(later.indexUid, 'old')
  t.equal(later.status, 'succeeded', 'the later creation made a new `old`')
  t.equal((await call(`${url}/indexes/old`)).body.primaryKey, 'b')
  t.equal((await call(`${url}/indexes/new`)).body.primaryKey, 'a')
  t.equal((await call(`${url}/tasks/${c.body.taskUid}`)).body.indexUid, 'new')
  const ofOld = await call(`${url}/tasks?indexUids=old`)
  t.strictSame(ofOld.body.results.map((x: any) => x.uid), [again.body.taskUid, rename.body.taskUid])
})
