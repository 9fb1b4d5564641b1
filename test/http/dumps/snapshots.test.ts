/**
 * Snapshots through the public surface: `POST /snapshots` writes `<snapshot-dir>/<db-name>.snapshot` (read-only),
 * `--import-snapshot` starts an identical instance from it, a snapshot taken while writes arrive reflects one point
 * of the commit order, `--schedule-snapshot` registers snapshot tasks on its own, and start-up follows
 * Meilisearch's rules.
 */
import t from 'tap'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, seedIndex, serverFor, tempDir, waitTask } from '../../helpers/server.js'
import { startExpectingExit } from './start.js'

const snapshotTaskUids = async (url: string): Promise<Set<number>> =>
  new Set((await call(`${url}/tasks?types=snapshotCreation&limit=1000`)).body.results.map((x: any) => x.uid))

t.test('a snapshot restores an identical instance', async (t) => {
  const snapshotDir = tempDir('tessera-snapshots-')
  const dbPath = join(tempDir('tessera-snap-db-'), 'data.ms')
  const a = await serverFor(t, { dbPath, args: ['--snapshot-dir', snapshotDir] })
  await seedIndex(a.url, 'movies', { filterableAttributes: ['genre'], rankingRules: ['words', 'typo', 'sort'] }, [{ id: 1, title: 'Carol', genre: 'drama' }, { id: 2, title: 'Heat', genre: 'crime' }])
  await seedIndex(a.url, 'books', {}, [{ id: 'b', title: 'Dune' }])
  await call(`${a.url}/experimental-features`, { method: 'PATCH', json: { containsFilter: true } })

  const created = await call(`${a.url}/snapshots`, { method: 'POST' })
  t.equal(created.status, 202)
  t.same(Object.keys(created.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
  t.equal(created.body.type, 'snapshotCreation')
  const task = await waitTask(a.url, created.body.taskUid)
  t.match(task, { status: 'succeeded', type: 'snapshotCreation', error: null })
  t.notOk('details' in task, 'a snapshot task has no details')
  t.same(readdirSync(snapshotDir), ['data.ms.snapshot'], 'named after the data directory, no temporary file left')
  const file = join(snapshotDir, 'data.ms.snapshot')
  t.equal(statSync(file).mode & 0o777, 0o444, 'read-only')

  const b = await serverFor(t, { args: ['--import-snapshot', file] })
  for (const path of ['/indexes', '/indexes/movies/settings', '/indexes/movies/documents', '/indexes/books/documents', '/experimental-features']) {
    t.same((await call(`${b.url}${path}`)).body, (await call(`${a.url}${path}`)).body, path)
  }
  // The snapshot's own task is not in the copy (as in Meilisearch); every other task and batch is.
  const without = (list: any[]) => list.filter((x) => x.uid !== task.uid && x.uid !== task.batchUid)
  const tasksB = (await call(`${b.url}/tasks?limit=1000`)).body.results
  t.same(tasksB, (await call(`${a.url}/tasks?limit=1000`)).body.results.filter((x: any) => x.uid !== task.uid))
  t.same((await call(`${b.url}/batches?limit=1000`)).body.results, without((await call(`${a.url}/batches?limit=1000`)).body.results))
  // Its uids go on; no snapshot runs again there.
  t.same([...await snapshotTaskUids(b.url)], [])
  const next = await call(`${b.url}/indexes/movies/documents`, { method: 'POST', json: [{ id: 3, title: 'Alien' }] })
  t.equal((await waitTask(b.url, next.body.taskUid)).batchUid, task.batchUid, 'the batch uid the snapshot held is free in the copy')
})

t.test('a snapshot taken while writes arrive reflects one point of the commit order', async (t) => {
  const snapshotDir = tempDir('tessera-snapshots-')
  const a = await serverFor(t, { args: ['--snapshot-dir', snapshotDir] })
  await seedIndex(a.url, 'items', {}, [{ id: 0 }])
  let writing = true
  const registered: number[] = []
  const writers = [0, 1, 2].map(async (w) => {
    for (let i = 1; writing; i++) {
      const r = await call(`${a.url}/indexes/items/documents`, { method: 'POST', json: [{ id: `${w}-${i}`, w, i }] })
      if (r.status === 202) registered.push(r.body.taskUid)
    }
  })
  await new Promise((r) => setTimeout(r, 100))
  const snap = await call(`${a.url}/snapshots`, { method: 'POST' })
  const task = await waitTask(a.url, snap.body.taskUid, 60_000)
  t.equal(task.status, 'succeeded')
  await new Promise((r) => setTimeout(r, 100))
  writing = false
  await Promise.all(writers)
  t.ok(registered.some((u) => u > task.uid), 'writes were registered while the snapshot ran')

  const b = await serverFor(t, { args: ['--import-snapshot', join(snapshotDir, readdirSync(snapshotDir)[0]!)] })
  const listB = (await call(`${b.url}/tasks?limit=100000`)).body.results as any[]
  const uids = listB.map((x) => x.uid).sort((x, y) => x - y)
  // A prefix of the queue: every uid up to the last one (the snapshot's own uid left out).
  const last = uids[uids.length - 1]
  const expected = Array.from({ length: last + 1 }, (_, i) => i).filter((u) => u !== task.uid)
  t.same(uids, expected, 'the tasks of the copy are a prefix of the queue')
  // Every task of the copy runs to its end there (waiting ones with their payloads), and the documents are exactly
  // those of the copy's tasks.
  for (const x of listB) if (x.status === 'enqueued' || x.status === 'processing') t.equal((await waitTask(b.url, x.uid, 60_000)).status, 'succeeded', `task ${x.uid}`)
  const docs = (await call(`${b.url}/indexes/items/documents?limit=100000&fields=id`)).body.results.map((d: any) => String(d.id)).sort()
  const docsA = new Map((await call(`${a.url}/tasks?limit=100000&types=documentAdditionOrUpdate`)).body.results.map((x: any) => [x.uid, x]))
  let expectedDocs = 0
  for (const u of uids) if (docsA.has(u)) expectedDocs += (docsA.get(u) as any).details.receivedDocuments
  t.equal(docs.length, expectedDocs, 'one document per task of the copy')
})

t.test('--schedule-snapshot registers snapshot tasks on its own', async (t) => {
  const snapshotDir = tempDir('tessera-snapshots-')
  const a = await serverFor(t, { args: ['--snapshot-dir', snapshotDir, '--schedule-snapshot', '1'] })
  let found: any = null
  for (let i = 0; i < 1500 && !found; i++) {
    const list = (await call(`${a.url}/tasks?types=snapshotCreation&statuses=succeeded`)).body.results
    found = list[0] ?? null
    if (!found) await new Promise((r) => setTimeout(r, 20))
  }
  t.ok(found, 'a scheduled snapshot task succeeded')
  t.ok(existsSync(join(snapshotDir, `${a.dbPath.split('/').pop()}.snapshot`)), 'its file is written')
})

t.test('start-up rules and bad snapshots', async (t) => {
  const snapshotDir = tempDir('tessera-snapshots-')
  const a = await serverFor(t, { args: ['--snapshot-dir', snapshotDir] })
  const task = await waitTask(a.url, (await call(`${a.url}/snapshots`, { method: 'POST' })).body.taskUid)
  t.equal(task.status, 'succeeded')
  const file = join(snapshotDir, readdirSync(snapshotDir)[0]!)

  const refused = await startExpectingExit(['--db-path', a.dbPath, '--import-snapshot', file])
  t.equal(refused.code, 1)
  t.match(refused.stderr, `error: database already exists at "${a.dbPath}", try to delete it or rename it`)
  await a.stop()
  const kept = await serverFor(t, { dbPath: a.dbPath, args: ['--import-snapshot', file, '--ignore-snapshot-if-db-exists'] })
  t.equal((await call(`${kept.url}/health`)).status, 200)
  await kept.stop()

  const dir = tempDir('tessera-bad-snapshots-')
  const missing = join(dir, 'nope.snapshot')
  const fresh = join(dir, 'fresh.ms')
  const refusedMissing = await startExpectingExit(['--db-path', fresh, '--import-snapshot', missing])
  t.equal(refusedMissing.code, 1)
  t.match(refusedMissing.stderr, `error: snapshot doesn't exist at ${missing}`)
  t.notOk(existsSync(fresh))
  const started = await serverFor(t, { dbPath: fresh, args: ['--import-snapshot', missing, '--ignore-missing-snapshot'] })
  t.equal((await call(`${started.url}/health`)).status, 200)

  const truncated = join(dir, 'truncated.snapshot')
  const bytes = readFileSync(file)
  writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
  const target = join(dir, 'from-truncated.ms')
  const bad = await startExpectingExit(['--db-path', target, '--import-snapshot', truncated])
  t.equal(bad.code, 1)
  t.match(bad.stderr, /cannot be imported: the snapshot is not a readable gzipped tar/)
  t.notOk(existsSync(target), 'nothing half-imported')
  t.same(readdirSync(dir).filter((n) => n.startsWith('.')), [], 'no work directory is left')

  const both = await startExpectingExit(['--db-path', join(dir, 'x'), '--import-snapshot', file, '--import-dump', file])
  t.equal(both.code, 2)
  t.match(both.stderr, '--import-dump and --import-snapshot cannot be used together')
})
