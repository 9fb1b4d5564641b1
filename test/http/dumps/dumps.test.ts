/**
 * Dumps through the public surface: `POST /dumps` writes a v6 dump (Meilisearch's layout), `--import-dump` rebuilds
 * an identical instance from it (documents, settings, keys and their values, tasks, batches), and start-up follows
 * Meilisearch's rules for an existing database and a missing file.
 */
import t from 'tap'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as tar from 'tar'
import { call, serverFor, tempDir, waitStatus, waitTask } from '../../helpers/server.js'
import { batchGate } from '../../helpers/batch-gate.js'
import { startExpectingExit } from './start.js'

const MASTER_KEY = 'a-master-key-of-sixteen-bytes-or-more'
const auth = { authorization: `Bearer ${MASTER_KEY}` }

t.test('a dump made by Tessera restores an identical instance', async (t) => {
  const dumpDir = tempDir('tessera-dumps-')
  const a = await serverFor(t, { args: ['--master-key', MASTER_KEY, '--dump-dir', dumpDir] })
  const as = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${a.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as object) } })

  const settings = await as('/indexes/movies/settings', { method: 'PATCH', json: { filterableAttributes: ['genre'], sortableAttributes: ['year'], synonyms: { film: ['movie'] } } })
  const docs = await as('/indexes/movies/documents?primaryKey=id', { method: 'POST', json: [
    { id: 1, title: 'Carol', genre: 'drama', year: 2015 }, { id: 2, title: 'Wonder Woman', genre: 'action', year: 2017 }, { id: 'x-3', title: 'Alien', genre: 'horror', year: 1979 },
  ] })
  const other = await as('/indexes/books/documents', { method: 'POST', json: [{ id: 'b-978', title: 'Dune' }] })
  for (const r of [settings, docs, other]) t.equal(r.status, 202)
  t.equal((await as('/experimental-features', { method: 'PATCH', json: { network: true } })).status, 200)
  const network = await as('/network', { method: 'PATCH', json: { self: 'a', remotes: { a: { url: 'http://127.0.0.1:7700' }, b: { url: 'http://127.0.0.1:7701', searchApiKey: 'sk', writeApiKey: 'wk' } } } })
  t.equal(network.status, 200)
  const key = await as('/keys', { method: 'POST', json: { name: 'movies-search', actions: ['search', 'documents.get'], indexes: ['movies'], expiresAt: '2090-01-01T00:00:00+02:00' } })
  t.equal(key.status, 201)
  await waitAll(a.url, auth)

  const created = await as('/dumps', { method: 'POST' })
  t.equal(created.status, 202)
  t.same(Object.keys(created.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
  t.equal(created.body.type, 'dumpCreation')
  const task = await waitTaskAs(a.url, created.body.taskUid)
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  t.match(task.details.dumpUid, /^\d{8}-\d{9}$/)
  const file = join(dumpDir, `${task.details.dumpUid}.dump`)
  t.ok(existsSync(file), 'the dump file is written')
  t.same(readdirSync(dumpDir), [`${task.details.dumpUid}.dump`], 'no temporary file is left')

  // The layout is Meilisearch's v6.
  const unpacked = tempDir('tessera-dump-layout-')
  await tar.x({ file, cwd: unpacked })
  for (const path of ['metadata.json', 'keys.jsonl', 'experimental-features.json', 'network.json', 'tasks/queue.jsonl', 'batches/queue.jsonl',
    'indexes/movies/metadata.json', 'indexes/movies/settings.json', 'indexes/movies/documents.jsonl', 'indexes/books/documents.jsonl']) {
    t.ok(existsSync(join(unpacked, path)), path)
  }
  t.match(JSON.parse(readFileSync(join(unpacked, 'metadata.json'), 'utf8')), { dumpVersion: 'V6', dbVersion: String, dumpDate: String })
  const firstTask = JSON.parse(readFileSync(join(unpacked, 'tasks/queue.jsonl'), 'utf8').split('\n')[0]!)
  t.match(firstTask, { uid: 0, status: 'succeeded', type: { settings: { is_deletion: false } }, details: { SettingsUpdate: { settings: { filterableAttributes: ['genre'] } } } })
  const keyLine = readFileSync(join(unpacked, 'keys.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((k) => k.name === 'movies-search')
  t.match(keyLine, { uid: key.body.uid, actions: ['search', 'documents.get'], indexes: ['movies'], expires_at: '2090-01-01T00:00:00+02:00' })
  t.notOk('key' in keyLine, 'a key value is never written')
  t.equal(readFileSync(join(unpacked, 'indexes/movies/documents.jsonl'), 'utf8').trim().split('\n').length, 3)

  // Import into a fresh instance (same master key: the same key values).
  const b = await serverFor(t, { args: ['--master-key', MASTER_KEY, '--import-dump', file] })
  const bs = (path: string) => call(`${b.url}${path}`, { headers: auth })
  for (const path of ['/indexes', '/indexes/movies/settings', '/indexes/books/settings', '/indexes/movies/documents?limit=100', '/indexes/books/documents', '/keys?limit=100', '/experimental-features', '/network']) {
    t.same((await bs(path)).body, (await as(path)).body, path)
  }
  const search = { method: 'POST', json: { q: 'film', filter: 'genre = drama', sort: ['year:asc'] } } as const
  t.same((await call(`${b.url}/indexes/movies/search`, { ...search, headers: auth })).body.hits, (await as('/indexes/movies/search', search)).body.hits)
  // Tasks and batches are the same, but for the dump's own task, finished in the dump a moment before it really was.
  const tasksA = (await as('/tasks?limit=1000')).body.results
  const tasksB = (await bs('/tasks?limit=1000')).body.results
  t.same(tasksB.filter((x: any) => x.uid !== task.uid), tasksA.filter((x: any) => x.uid !== task.uid))
  t.match(tasksB.find((x: any) => x.uid === task.uid), { status: 'succeeded', type: 'dumpCreation', details: { dumpUid: task.details.dumpUid } })
  t.same((await bs('/batches?limit=1000')).body.results.filter((x: any) => x.uid !== task.batchUid), (await as('/batches?limit=1000')).body.results.filter((x: any) => x.uid !== task.batchUid))
  // The key works with the same value.
  const value = key.body.key
  t.equal((await call(`${b.url}/indexes/movies/search`, { method: 'POST', json: { q: 'carol' }, headers: { authorization: `Bearer ${value}` } })).status, 200)
  // New tasks continue the uids.
  const next = await call(`${b.url}/indexes/movies/documents`, { method: 'POST', json: [{ id: 9, title: 'Heat' }], headers: auth })
  t.equal(next.body.taskUid, task.uid + 1)
})

t.test('waiting document additions travel with the dump and run after the import', async (t) => {
  const dumpDir = tempDir('tessera-dumps-')
  const gate = batchGate(t, true)
  const a = await serverFor(t, { args: ['--dump-dir', dumpDir], env: gate.env })
  const first = await call(`${a.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 1, n: 'one' }] })
  await waitStatus(a.url, first.body.taskUid, 'processing')
  // The dump jumps ahead of the waiting addition (dumps run before index tasks), which stays enqueued in it.
  await call(`${a.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 2, n: 'two' }, { id: 3, n: 'three' }] })
  const dump = await call(`${a.url}/dumps`, { method: 'POST' })
  gate.open()
  const task = await waitTask(a.url, dump.body.taskUid)
  t.equal(task.status, 'succeeded')
  const unpacked = tempDir('tessera-dump-layout-')
  await tar.x({ file: join(dumpDir, `${task.details.dumpUid}.dump`), cwd: unpacked })
  const queue = readFileSync(join(unpacked, 'tasks/queue.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const waiting = queue.filter((x) => x.status === 'enqueued')
  t.equal(waiting.length, 1, 'the second addition waits in the dump')
  for (const w of waiting) t.ok(existsSync(join(unpacked, `tasks/update_files/${w.uid}.jsonl`)), `update file of task ${w.uid}`)

  const b = await serverFor(t, { args: ['--import-dump', join(dumpDir, `${task.details.dumpUid}.dump`)] })
  for (const w of waiting) t.equal((await waitTask(b.url, w.uid)).status, 'succeeded')
  const docs = (await call(`${b.url}/indexes/items/documents`)).body
  t.same(docs.results.map((d: any) => d.id).sort(), [1, 2, 3])
})

t.test('vectors travel with the documents', async (t) => {
  const dumpDir = tempDir('tessera-dumps-')
  const a = await serverFor(t, { args: ['--dump-dir', dumpDir] })
  const settings = await call(`${a.url}/indexes/points/settings`, { method: 'PATCH', json: { embedders: { manual: { source: 'userProvided', dimensions: 3 } } } })
  t.equal((await waitTask(a.url, settings.body.taskUid)).status, 'succeeded')
  const docs = await call(`${a.url}/indexes/points/documents?primaryKey=id`, { method: 'POST', json: [
    { id: 1, name: 'x', _vectors: { manual: [1, 0, 0] } }, { id: 2, name: 'y', _vectors: { manual: [0, 1, 0] } }, { id: 3, name: 'z', _vectors: { manual: [0.5, 0.5, 0.25] } },
  ] })
  t.equal((await waitTask(a.url, docs.body.taskUid)).status, 'succeeded')
  const dump = await waitTask(a.url, (await call(`${a.url}/dumps`, { method: 'POST' })).body.taskUid)
  t.equal(dump.status, 'succeeded')
  const b = await serverFor(t, { args: ['--import-dump', join(dumpDir, `${dump.details.dumpUid}.dump`)] })
  const path = '/indexes/points/documents?retrieveVectors=true'
  const before = (await call(`${a.url}${path}`)).body
  t.same((await call(`${b.url}${path}`)).body, before)
  t.same(before.results[2]._vectors, { manual: { embeddings: [[0.5, 0.5, 0.25]], regenerate: false } })
  const query = { method: 'POST', json: { vector: [0, 1, 0.1], hybrid: { embedder: 'manual', semanticRatio: 1 }, showRankingScore: true } } as const
  const hitsA = (await call(`${a.url}/indexes/points/search`, query)).body.hits
  t.same((await call(`${b.url}/indexes/points/search`, query)).body.hits, hitsA)
  t.equal(hitsA[0].id, 2)
})

t.test('a dump in Meilisearch\'s layout is imported', async (t) => {
  const { buildMeiliDump, MEILI_DUMP_KEY_UID } = await import('../../helpers/meili-dump.js')
  const file = join(tempDir('tessera-meili-dump-'), 'meili.dump')
  await buildMeiliDump(file)
  const s = await serverFor(t, { args: ['--master-key', MASTER_KEY, '--import-dump', file] })
  const get = async (path: string) => (await call(`${s.url}${path}`, { headers: auth })).body
  t.same(await get('/indexes'), { results: [{ uid: 'doggos', createdAt: '2024-11-20T10:00:01Z', updatedAt: '2024-11-20T10:01:02Z', primaryKey: 'id' }], offset: 0, limit: 20, total: 1 })
  const settings = await get('/indexes/doggos/settings')
  t.same(settings.filterableAttributes, ['race', 'age'])
  t.same(settings.sortableAttributes, ['age'])
  // The waiting addition (task 3, with its update file) runs after the start.
  t.equal((await waitTaskAs(s.url, 3)).status, 'succeeded')
  const docs = await get('/indexes/doggos/documents?limit=10')
  t.same(docs.results.map((d: any) => d.id), [1, 2, 3, 4, 5])
  t.same((await get('/tasks/0')), {
    uid: 0, batchUid: 0, indexUid: 'doggos', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
    details: { receivedDocuments: 3, indexedDocuments: 3 }, error: null, duration: 'PT1.500S',
    enqueuedAt: '2024-11-20T10:00:00Z', startedAt: '2024-11-20T10:00:01Z', finishedAt: '2024-11-20T10:00:02.5Z',
  })
  t.match(await get('/tasks/1'), { type: 'settingsUpdate', details: { filterableAttributes: ['race', 'age'], sortableAttributes: ['age'] } })
  t.match(await get('/tasks/2'), { status: 'failed', type: 'indexCreation', error: { code: 'index_already_exists' }, details: { primaryKey: null } })
  t.match(await get('/batches/1'), { uid: 1, batchStrategy: 'batched all enqueued tasks for index `doggos`', stats: { types: { settingsUpdate: 1 } } })
  const key = await get(`/keys/${MEILI_DUMP_KEY_UID}`)
  t.match(key, { name: 'doggos_key', uid: MEILI_DUMP_KEY_UID, actions: ['documents.*', 'search'], indexes: ['doggos'], expiresAt: '4130-03-14T12:21:00Z', createdAt: '1960-11-15T00:00:00Z' })
  // Its value derives from the master key: it searches doggos.
  t.equal((await call(`${s.url}/indexes/doggos/search`, { method: 'POST', json: { q: 'patou' }, headers: { authorization: `Bearer ${key.key}` } })).body.hits.length, 2)
  t.same((await get('/experimental-features')).editDocumentsByFunction, true)
  // network.json: fields Tessera does not have (`sharding`) are dropped, missing ones take their defaults.
  t.match(await get('/network'), {
    self: 'ms-0', leader: null, shards: {},
    remotes: { 'ms-0': { url: 'http://localhost:7700', searchApiKey: null, writeApiKey: null }, 'ms-1': { url: 'http://localhost:7701', searchApiKey: 'foo', writeApiKey: 'bar' } },
  })
})

t.test('start-up rules: an existing database, a missing dump', async (t) => {
  const { buildMeiliDump } = await import('../../helpers/meili-dump.js')
  const file = join(tempDir('tessera-meili-dump-'), 'meili.dump')
  await buildMeiliDump(file)
  const existing = tempDir('tessera-existing-')
  const s = await serverFor(t, { dbPath: existing })
  await s.stop()

  const refused = await startExpectingExit(['--db-path', existing, '--import-dump', file])
  t.equal(refused.code, 1)
  t.match(refused.stderr, `error: database already exists at "${existing}", try to delete it or rename it`)
  const ignored = await serverFor(t, { dbPath: existing, args: ['--import-dump', file, '--ignore-dump-if-db-exists'] })
  t.same((await call(`${ignored.url}/indexes`)).body.results, [], 'the existing database is kept, the dump ignored')
  await ignored.stop()

  const fresh = join(tempDir('tessera-fresh-'), 'data.ms')
  const missing = join(tempDir('tessera-nothing-'), 'nope.dump')
  const refusedMissing = await startExpectingExit(['--db-path', fresh, '--import-dump', missing])
  t.equal(refusedMissing.code, 1)
  t.match(refusedMissing.stderr, `error: dump doesn't exist at "${missing}"`)
  t.notOk(existsSync(fresh), 'no database is created')
  const started = await serverFor(t, { dbPath: fresh, args: ['--import-dump', missing, '--ignore-missing-dump'] })
  t.equal((await call(`${started.url}/health`)).status, 200)
  await started.stop()

  // An empty directory is no database yet: the dump fills it.
  const empty = tempDir('tessera-empty-')
  const filled = await serverFor(t, { dbPath: empty, args: ['--import-dump', file] })
  t.same((await call(`${filled.url}/indexes`)).body.results.map((i: any) => i.uid), ['doggos'])
})

t.test('a bad dump is refused and leaves no database behind', async (t) => {
  const { buildMeiliDump } = await import('../../helpers/meili-dump.js')
  const dir = tempDir('tessera-bad-dumps-')
  const good = join(dir, 'good.dump')
  await buildMeiliDump(good)
  const truncated = join(dir, 'truncated.dump')
  const bytes = readFileSync(good)
  writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
  const v5 = join(dir, 'v5.dump')
  await buildMeiliDump(v5, { version: 'V5' })
  const badLine = join(dir, 'bad-line.dump')
  await buildMeiliDump(badLine, { extraTaskLine: '{"uid": 9, "status": "enqueued", "type": "documentClear", "enqu' })
  const duplicate = join(dir, 'duplicate.dump')
  await buildMeiliDump(duplicate, { extraTaskLine: JSON.stringify({ uid: 1, status: 'enqueued', type: 'documentClear', indexUid: 'doggos', enqueuedAt: '2024-11-20T10:05:00Z' }) })
  const notGzip = join(dir, 'text.dump')
  writeFileSync(notGzip, 'hello')
  for (const [file, message] of [
    [truncated, /cannot be imported: the file is not a readable gzipped tar/],
    [notGzip, /cannot be imported: the file is not a readable gzipped tar/],
    [v5, /cannot be imported: dump version "V5" is not supported: Tessera imports version V6 dumps/],
    [badLine, /cannot be imported: `tasks\/queue.jsonl` line 5 is not valid JSON/],
    [duplicate, /cannot be imported: task 1 appears twice in `tasks\/queue.jsonl`/],
  ] as const) {
    const dbPath = join(dir, `db-${Math.random().toString(36).slice(2)}`)
    const r = await startExpectingExit(['--db-path', dbPath, '--import-dump', file])
    t.equal(r.code, 1, file)
    t.match(r.stderr, message, file)
    t.notOk(existsSync(dbPath), 'nothing half-imported')
    t.same(readdirSync(dir).filter((n) => n.startsWith('.')), [], 'no work directory is left')
  }
})

async function waitAll(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { body } = await call(`${url}/tasks?statuses=enqueued,processing`, { headers })
    if (body.total === 0) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('tasks did not finish')
}

async function waitTaskAs(url: string, uid: number): Promise<any> {
  for (let i = 0; i < 1000; i++) {
    const { body } = await call(`${url}/tasks/${uid}`, { headers: auth })
    if (body && ['succeeded', 'failed', 'canceled'].includes(body.status)) return body
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`task ${uid} did not finish`)
}
