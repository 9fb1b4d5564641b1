/**
 * Index patterns of keys (`tests/auth/authorization.rs`): a key reaches only the indexes its patterns allow (the
 * route's index, a created index, both sides of a swap, each multi-search query), listings of tasks, batches,
 * indexes and stats show only those indexes, and a key without `indexes.create` cannot create an index by
 * writing to a missing one (the task fails with `index_not_found`).
 */
import t from 'tap'
import { err } from '../../helpers/meili.js'
import { authServerFor, MASTER_KEY } from './auth-server.js'

const INVALID = err('The provided API key is invalid.', 'invalid_api_key', 'auth')

t.test('patterns, creations, swaps, multi-search and listings', async (t) => {
  const server = await authServerFor(t)
  for (const uid of ['products_1', 'products', 'test']) {
    const r = await server.as(MASTER_KEY, `/indexes/${uid}/documents`, { method: 'POST', json: [{ id: 1, title: uid }] })
    t.equal((await server.wait(r.body.taskUid)).status, 'succeeded')
  }
  const swapAll = await server.as(MASTER_KEY, '/swap-indexes', { method: 'POST', json: [{ indexes: ['products', 'test'] }] })
  await server.wait(swapAll.body.taskUid)

  const { key } = await server.createKey({ actions: ['documents.*', 'indexes.*', 'tasks.*', 'stats.get', 'search'], indexes: ['products_*'] })
  t.equal((await server.as(key, '/indexes/products_1/documents', { method: 'POST', json: [{ id: 2 }] })).status, 202)
  const refused = await server.as(key, '/indexes/products/documents', { method: 'POST', json: [{ id: 2 }] })
  t.same([refused.status, refused.body], [403, err('The API key cannot acces the index `products`, authorized indexes are ["products_*"].', 'invalid_api_key', 'auth')])
  t.same(await server.as(key, '/indexes', { method: 'POST', json: { uid: 'test_1' } }).then((r) => [r.status, r.body]), [403, INVALID], 'creating an index it does not allow')
  t.equal((await server.as(key, '/indexes', { method: 'POST', json: { uid: 'products_*' } })).status, 400, 'an invalid uid is a 400 first')
  t.equal((await server.as(key, '/indexes', { method: 'POST', json: { uid: 'products_2' } })).status, 202)
  t.same(await server.as(key, '/swap-indexes', { method: 'POST', json: [{ indexes: ['products_1', 'test'] }] }).then((r) => [r.status, r.body]), [403, INVALID], 'one side of a swap outside its patterns')
  t.same(await server.as(key, '/indexes/products_1', { method: 'PATCH', json: { uid: 'renamed' } }).then((r) => [r.status, r.body]), [403, INVALID], 'renaming to a name outside its patterns')
  const multi = await server.as(key, '/multi-search', { method: 'POST', json: { queries: [{ indexUid: 'products_1' }, { indexUid: 'test' }] } })
  t.same([multi.status, multi.body], [403, err('Inside `.queries[1]`: The provided API key is invalid.', 'invalid_api_key', 'auth')])
  const federated = await server.as(key, '/multi-search', { method: 'POST', json: { federation: {}, queries: [{ indexUid: 'test' }] } })
  t.same([federated.status, federated.body.message], [403, 'Inside `.queries[0]`: The provided API key is invalid.'])

  const tasks = (await server.as(key, '/tasks?limit=100')).body.results
  t.ok(tasks.length > 0 && tasks.every((task: any) => task.indexUid?.startsWith('products_')), 'only tasks of its indexes')
  t.notOk(tasks.some((task: any) => task.type === 'indexSwap'), 'no task that is about several indexes')
  const all = (await server.as(MASTER_KEY, '/tasks?limit=100')).body.results
  const foreign = all.find((task: any) => task.indexUid === 'test')
  t.same((await server.as(key, `/tasks/${foreign.uid}`)).body, err(`Task \`${foreign.uid}\` not found.`, 'task_not_found'), 'another index\'s task is not found')
  t.same((await server.as(key, `/batches/${foreign.batchUid}`)).body.code, 'batch_not_found')
  t.ok((await server.as(key, '/batches')).body.results.every((b: any) => Object.keys(b.stats.indexUids).every((u) => u.startsWith('products_'))))
  t.same((await server.as(key, '/indexes')).body.results.map((i: any) => i.uid), ['products_1', 'products_2'])
  t.equal((await server.as(key, '/indexes')).body.total, 2)
  t.same(Object.keys((await server.as(key, '/stats')).body.indexes), ['products_1', 'products_2'])
  t.same(Object.keys((await server.as(MASTER_KEY, '/stats')).body.indexes).sort(), ['products', 'products_1', 'products_2', 'test'])

  const deleted = await server.as(key, '/tasks?statuses=succeeded,failed', { method: 'DELETE' })
  const done = await server.wait(deleted.body.taskUid)
  t.ok(done.details.deletedTasks > 0)
  t.ok((await server.as(MASTER_KEY, `/tasks/${foreign.uid}`)).status === 200, 'deleting tasks leaves those of other indexes')
})

t.test('a key without indexes.create writes to existing indexes only', async (t) => {
  const server = await authServerFor(t)
  const r = await server.as(MASTER_KEY, '/indexes', { method: 'POST', json: { uid: 'exists' } })
  await server.wait(r.body.taskUid)
  const { key } = await server.createKey({ actions: ['documents.add', 'settings.update', 'tasks.get'], indexes: ['*'] })
  const missing = err('Index `test` not found.', 'index_not_found')
  const docs = await server.as(key, '/indexes/test/documents', { method: 'POST', json: [{ id: 1 }] })
  t.equal(docs.status, 202)
  t.same((await server.wait(docs.body.taskUid)).error, missing, 'documents: the task fails')
  const settings = await server.as(key, '/indexes/test/settings', { method: 'PATCH', json: { distinctAttribute: 'test' } })
  t.same((await server.wait(settings.body.taskUid)).error, missing, 'settings: the task fails')
  const sub = await server.as(key, '/indexes/test/settings/distinct-attribute', { method: 'PUT', json: 'test' })
  t.same((await server.wait(sub.body.taskUid)).error, missing, 'a settings sub-route: the task fails')
  t.equal((await server.as(MASTER_KEY, '/indexes/test')).status, 404, 'no index was made')
  const ok = await server.as(key, '/indexes/exists/documents', { method: 'POST', json: [{ id: 1 }] })
  t.equal((await server.wait(ok.body.taskUid)).status, 'succeeded', 'an existing index is fine')
  const { key: creator } = await server.createKey({ actions: ['documents.add', 'indexes.create'], indexes: ['*'] })
  const made = await server.as(creator, '/indexes/made/documents', { method: 'POST', json: [{ id: 1 }] })
  t.equal((await server.wait(made.body.taskUid)).status, 'succeeded', 'with indexes.create the index is made')
})
