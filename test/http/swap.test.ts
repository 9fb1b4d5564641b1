/**
 * POST /swap-indexes: successful swaps and renames, asynchronous failures (task `failed`) and synchronous 400s.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../helpers/server.js'
import { err } from '../helpers/meili.js'


t.test('swap-indexes', async (t) => {
  const { url, client } = await serverFor(t)
  const swap = (json: unknown) => call(`${url}/swap-indexes`, { method: 'POST', json })
  const create = async (uid: string, primaryKey: string | null) => {
    const r = await call(`${url}/indexes`, { method: 'POST', json: { uid, primaryKey } })
    const task = await waitTask(url, r.body.taskUid)
    t.equal(task.status, 'succeeded', `created ${uid}`)
    return task
  }
  const index = async (uid: string) => call(`${url}/indexes/${uid}`)
  /** POST a swap, check the 202 body, wait for the task. */
  const swapTask = async (json: unknown) => {
    const r = await swap(json)
    t.equal(r.status, 202)
    t.same(Object.keys(r.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
    t.equal(r.body.indexUid, null)
    t.equal(r.body.type, 'indexSwap')
    t.equal(r.body.status, 'enqueued')
    return waitTask(url, r.body.taskUid)
  }

  await t.test('two indexes trade names', async (t) => {
    const ca = await create('sa', 'ida')
    const cb = await create('sb', 'idb')
    const a0 = (await index('sa')).body
    const task = await swapTask([{ indexes: ['sa', 'sb'] }])
    t.equal(task.status, 'succeeded')
    t.equal(task.type, 'indexSwap')
    t.equal(task.indexUid, null)
    t.equal(task.error, null)
    t.strictSame(task.details, { swaps: [{ indexes: ['sa', 'sb'], rename: false }] })
    const a = (await index('sa')).body
    const b = (await index('sb')).body
    t.equal(a.primaryKey, 'idb', 'the old `sb` is now called `sa`')
    t.equal(b.primaryKey, 'ida')
    t.equal(b.createdAt, a0.createdAt, 'the index keeps its creation date under its new name')
    // Task history follows the indexes; the swap task itself is untouched.
    t.equal((await call(`${url}/tasks/${ca.uid}`)).body.indexUid, 'sb')
    t.equal((await call(`${url}/tasks/${cb.uid}`)).body.indexUid, 'sa')
    t.strictSame((await call(`${url}/tasks/${task.uid}`)).body.details, { swaps: [{ indexes: ['sa', 'sb'], rename: false }] })
    const ofA = await call(`${url}/tasks?indexUids=sa&types=indexCreation,indexSwap`)
    t.strictSame(ofA.body.results.map((x: any) => x.uid), [task.uid, cb.uid])
    // The batch of a swap: alone, no indexUids in its stats.
    const batch = (await call(`${url}/batches/${task.batchUid}`)).body
    const { progressTrace, ...stats } = batch.stats
    t.strictSame(stats, { totalNbTasks: 1, status: { succeeded: 1 }, types: { indexSwap: 1 }, indexUids: {} })
    t.type(progressTrace, 'object', 'the batch carries its progress trace')
    t.equal(batch.batchStrategy, `created batch containing only task with id ${task.uid} of type \`indexSwap\` that cannot be batched with any other task.`)
    // Swapping back through the client; the earlier swap's details are rewritten by the later one.
    const back = await client.swapIndexes([{ indexes: ['sb', 'sa'], rename: false }]).waitTask()
    t.equal(back.status, 'succeeded')
    t.strictSame(back.details, { swaps: [{ indexes: ['sb', 'sa'], rename: false }] })
    t.equal((await index('sa')).body.primaryKey, 'ida')
    t.equal((await index('sb')).body.primaryKey, 'idb')
    t.strictSame((await call(`${url}/tasks/${task.uid}`)).body.details, { swaps: [{ indexes: ['sb', 'sa'], rename: false }] })
    t.equal((await call(`${url}/tasks/${ca.uid}`)).body.indexUid, 'sa')
  })

  await t.test('several swaps in one task', async (t) => {
    await create('m1', 'p1')
    await create('m2', 'p2')
    await create('m3', 'p3')
    await create('m4', 'p4')
    const task = await swapTask([{ indexes: ['m1', 'm2'] }, { indexes: ['m3', 'm4'], rename: false }])
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { swaps: [{ indexes: ['m1', 'm2'], rename: false }, { indexes: ['m3', 'm4'], rename: false }] })
    const pks = await Promise.all(['m1', 'm2', 'm3', 'm4'].map(async (u) => (await index(u)).body.primaryKey))
    t.strictSame(pks, ['p2', 'p1', 'p4', 'p3'])
  })

  await t.test('rename: true moves an index to a free name', async (t) => {
    const c = await create('rn_src', 'k')
    const task = await swapTask([{ indexes: ['rn_src', 'rn_dst'], rename: true }])
    t.equal(task.status, 'succeeded')
    t.strictSame(task.details, { swaps: [{ indexes: ['rn_src', 'rn_dst'], rename: true }] })
    const old = await index('rn_src')
    t.equal(old.status, 404)
    t.strictSame(old.body, err('Index `rn_src` not found.', 'index_not_found'))
    const now = await index('rn_dst')
    t.equal(now.status, 200)
    t.equal(now.body.primaryKey, 'k')
    t.equal((await call(`${url}/tasks/${c.uid}`)).body.indexUid, 'rn_dst')
  })

  await t.test('failures are tasks', async (t) => {
    let task = await swapTask([{ indexes: ['doggos', 'cattos'] }])
    t.equal(task.status, 'failed')
    t.strictSame(task.error, err('Indexes `cattos`, `doggos` not found.', 'index_not_found'))
    t.strictSame(task.details, { swaps: [{ indexes: ['doggos', 'cattos'], rename: false }] })
    task = await swapTask([{ indexes: ['sa', 'xmissing'] }])
    t.equal(task.status, 'failed')
    t.strictSame(task.error, err('Index `xmissing` not found.', 'index_not_found'))
    task = await swapTask([{ indexes: ['zz_missing', 'sa'] }, { indexes: ['aa_missing', 'sb'] }])
    t.strictSame(task.error, err('Indexes `aa_missing`, `zz_missing` not found.', 'index_not_found'))
    // Nothing moved.
    t.equal((await index('sa')).body.primaryKey, 'ida')
    t.equal((await index('sb')).body.primaryKey, 'idb')
    // rename: true onto an existing index.
    task = await swapTask([{ indexes: ['sa', 'sb'], rename: true }])
    t.equal(task.status, 'failed')
    t.strictSame(task.error, err('Cannot rename `sa` to `sb` as the index already exists. Hint: You can remove `sb` first and then do your remove.', 'index_already_exists'))
    task = await swapTask([{ indexes: ['sa', 'm1'], rename: true }, { indexes: ['sb', 'm2'], rename: true }])
    t.strictSame(task.error, err("The following indexes are being renamed but cannot because their new name conflicts with an already existing index: `m1`, `m2`. Renaming doesn't overwrite the other index name.", 'index_already_exists'))
    // rename: true from a missing index.
    task = await swapTask([{ indexes: ['ghost', 'ghost2'], rename: true }])
    t.strictSame(task.error, err('Index `ghost` not found.', 'index_not_found'))
    t.equal((await index('sa')).body.primaryKey, 'ida')
    t.equal((await index('m1')).body.primaryKey, 'p2')
  })

  await t.test('synchronous 400s', async (t) => {
    const before = (await call(`${url}/tasks?limit=0`)).body.total
    const cases: [unknown, string, string][] = [
      ['doggo', 'bad_request', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
      [['doggo'], 'bad_request', 'Invalid value type at `[0]`: expected an object, but found a string: `"doggo"`'],
      [[{ indexes: 'doggo' }], 'invalid_swap_indexes', 'Invalid value type at `[0].indexes`: expected an array, but found a string: `"doggo"`'],
      [[{ indexes: ['doggo'] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `["doggo"]` contains 1 indexes.'],
      [[{ indexes: ['doggo', 'crabo', 'croco'] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `["doggo", "crabo", "croco"]` contains 3 indexes.'],
      [[{ indexes: [] }], 'invalid_swap_indexes', 'Two indexes must be given for each swap. The list `[]` contains 0 indexes.'],
      [[{ indexes: ['doggo', 'doggo'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `doggo` was specified several times.'],
      [[{ indexes: ['doggo', 'catto'] }, { indexes: ['girafo', 'doggo'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `doggo` was specified several times.'],
      [[{ indexes: ['a', 'b'] }, { indexes: ['b', 'a'] }], 'invalid_swap_duplicate_index_found', 'Indexes must be declared only once during a swap. `a`, `b` were specified several times.'],
      [[{ indexes: ['kefir', 'intel'], rename: 'hello' }], 'invalid_swap_rename', 'Invalid value type at `[0].rename`: expected a boolean, but found a string: `"hello"`'],
      [[{}], 'missing_swap_indexes', 'Missing field `indexes` inside `[0]`'],
      [[{ indexes: ['a', 'b'] }, { rename: true }], 'missing_swap_indexes', 'Missing field `indexes` inside `[1]`'],
      [[{ indexes: ['a', 'b'], foo: 1 }], 'bad_request', 'Unknown field `foo` inside `[0]`: expected one of `indexes`, `rename`'],
      [[{ indexes: ['a'] }, { foo: 1 }], 'bad_request', 'Unknown field `foo` inside `[1]`: expected one of `indexes`, `rename`'],
      [[{ indexes: ['a', 'x y'] }], 'invalid_swap_indexes', 'Invalid value at `[0].indexes[1]`: `x y` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'],
    ]
    for (const [body, code, message] of cases) {
      const r = await swap(body)
      t.equal(r.status, 400, JSON.stringify(body))
      t.strictSame(r.body, err(message, code), JSON.stringify(body))
    }
    t.equal((await call(`${url}/tasks?limit=0`)).body.total, before, 'no task was registered')
    // An empty list is a valid (empty) swap.
    const empty = await swapTask([])
    t.equal(empty.status, 'succeeded')
    t.strictSame(empty.details, { swaps: [] })
  })
})
