import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store, WriteBuffer, keys, type WriteOp } from '../../../engine/storage/index.js'
import { seededRandom } from '../../helpers/random.js'

const dir = () => mkdtempSync(join(tmpdir(), 'tessera-store-'))

t.test('commits are atomic, durable across reopen, and grouped', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  // Many concurrent commits: each resolves once written, in one or a few group writes.
  await Promise.all(Array.from({ length: 500 }, (_, i) => store.commit([
    { column: 'tasks', key: keys.u32(i), value: Buffer.from(`task ${i}`) },
    { column: 'meta', key: keys.utf8(`m${i}`), value: keys.u32(i) },
  ])))
  t.equal(store.get('tasks', keys.u32(499))?.toString(), 'task 499')
  await store.commit([{ column: 'tasks', key: keys.u32(0) }])
  t.equal(store.get('tasks', keys.u32(0)), undefined, 'a write without a value deletes')
  await store.close()
  store = await Store.open(path)
  t.equal(store.get('tasks', keys.u32(1))?.toString(), 'task 1', 'data survives a reopen')
  t.same(store.getMany('tasks', [keys.u32(2), keys.u32(100000), keys.u32(3)]).map((v) => v?.toString()), ['task 2', undefined, 'task 3'])
  const scanned: number[] = []
  for await (const [k] of store.scan('tasks', { gte: keys.u32(10), lt: keys.u32(15) })) scanned.push(keys.readU32(k))
  t.same(scanned, [10, 11, 12, 13, 14], 'scans run in key order within bounds')
  const reversed: number[] = []
  for await (const [k] of store.scan('tasks', { reverse: true, limit: 3 })) reversed.push(keys.readU32(k))
  t.same(reversed, [499, 498, 497])
  await store.close()
})

t.test('column families are separate key spaces and an index is a key range', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  const store = await Store.open(path)
  t.teardown(() => store.close())
  await store.commit([
    { column: 'documents', key: keys.indexKey(7, 'a'), value: Buffer.from('7a') },
    { column: 'documents', key: keys.indexKey(7, 'b'), value: Buffer.from('7b') },
    { column: 'documents', key: keys.indexKey(8, 'a'), value: Buffer.from('8a') },
    { column: 'postings', key: keys.indexKey(7, 'a'), value: Buffer.from('p') },
  ])
  const range = keys.indexRange(7)
  await store.clearRange('documents', range.gte, range.lt)
  t.equal(store.get('documents', keys.indexKey(7, 'a')), undefined)
  t.equal(store.get('documents', keys.indexKey(8, 'a'))?.toString(), '8a', 'the neighbouring index is untouched')
  t.equal(store.get('postings', keys.indexKey(7, 'a'))?.toString(), 'p', 'other column families are untouched')
})

t.test('a failed commit rejects and writes nothing; closed storage refuses writes', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  const store = await Store.open(path)
  await store.close()
  await t.rejects(store.commit([{ column: 'tasks', key: keys.u32(1), value: Buffer.from('x') }]), /closed/)
})

t.test('a shadowed commit is invisible to readers until it is released', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  const store = await Store.open(path)
  t.teardown(() => store.close())
  await store.commit([{ column: 'tasks', key: keys.u32(1), value: Buffer.from('old') }, { column: 'tasks', key: keys.u32(2), value: Buffer.from('gone') }])
  const commit = await store.commitShadowed([
    { column: 'tasks', key: keys.u32(1), value: Buffer.from('new') },
    { column: 'tasks', key: keys.u32(2) },
    { column: 'tasks', key: keys.u32(3), value: Buffer.from('added') },
  ])
  await commit.done
  // The write is on disk now, but readers still see the state before it.
  t.equal(store.get('tasks', keys.u32(1))?.toString(), 'old')
  t.same(store.getMany('tasks', [keys.u32(2), keys.u32(3)]).map((v) => v?.toString()), ['gone', undefined])
  const seen: string[] = []
  for await (const [, v] of store.scan('tasks')) seen.push(v.toString())
  t.same(seen, ['old'], 'scans skip added keys and keep old values (a deleted key is not listed by the iterator)')
  commit.release()
  t.equal(store.get('tasks', keys.u32(1))?.toString(), 'new')
  t.same(store.getMany('tasks', [keys.u32(2), keys.u32(3)]).map((v) => v?.toString()), [undefined, 'added'])
})

t.test('a large shadowed commit is captured and encoded in turns, readers seeing the old values meanwhile', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  const store = await Store.open(path)
  t.teardown(() => store.close())
  await store.commit([{ column: 'tasks', key: keys.u32(1), value: Buffer.from('old') }])
  const ops: WriteOp[] = [{ column: 'tasks', key: keys.u32(1), value: Buffer.from('new') }]
  for (let i = 0; i < 300_000; i++) ops.push({ column: 'postings', key: keys.u32(10 + i), value: Buffer.from('v'), unread: true })
  // Other work gets turns while the commit is prepared, and reads in them see the state before the commit.
  const seen = new Set<string>()
  let turns = 0
  let preparing = true
  const reader = (async () => {
    while (preparing) {
      await new Promise((r) => setImmediate(r))
      turns++
      seen.add(store.get('tasks', keys.u32(1))?.toString() ?? 'none')
    }
  })()
  const commit = await store.commitShadowed(ops)
  preparing = false
  await reader
  t.ok(turns > 1, `the event loop had turns while the commit was prepared (${turns})`)
  t.same([...seen], ['old'])
  await commit.done
  t.equal(store.get('tasks', keys.u32(1))?.toString(), 'old', 'still shadowed until released')
  commit.release()
  t.equal(store.get('tasks', keys.u32(1))?.toString(), 'new')
  t.equal(store.get('postings', keys.u32(300_009))?.toString(), 'v', 'every write committed')
})

t.test('commits of every size, through reused buffers, write exactly their rows', async (t) => {
  // Written commits' buffers come back from the writer thread and carry later, smaller commits: a commit must never
  // see bytes of an earlier one. Row-by-row WriteBuffers and op lists, synced or not, in flight together.
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  const rand = seededRandom(3).int
  const expected = new Map<number, string>()
  let next = 0
  for (let round = 0; round < 12; round++) {
    const pending: Promise<void>[] = []
    for (let c = 0; c < 4; c++) {
      const rows = 1 + rand(400)
      const buffer = new WriteBuffer()
      const ops: WriteOp[] = []
      const asOps = rand(2) === 0
      for (let r = 0; r < rows; r++) {
        const id = next++
        const value = `${id}:` + 'x'.repeat(rand(300))
        expected.set(id, value)
        if (asOps) ops.push({ column: 'positions', key: keys.indexKey(9, keys.u32(id)), value: Buffer.from(value) })
        else buffer.put('positions', 9, id, Buffer.from(value))
      }
      // Deleting an earlier row in the same commits.
      if (next > 10 && rand(3) === 0) {
        const gone = rand(next - rows)
        expected.delete(gone)
        ops.push({ column: 'positions', key: keys.indexKey(9, keys.u32(gone)) })
      }
      pending.push(store.commit(asOps ? ops : buffer, { sync: rand(2) === 0 }))
      if (!asOps && ops.length > 0) pending.push(store.commit(ops))
    }
    await Promise.all(pending)
  }
  const check = async (label: string) => {
    let wrong = 0
    let seen = 0
    for await (const [key, value] of store.scan('positions', keys.indexRange(9))) {
      seen++
      if (expected.get(keys.readU32(key, 4)) !== value.toString()) wrong++
    }
    t.same({ wrong, seen }, { wrong: 0, seen: expected.size }, label)
  }
  await check('read back')
  await store.close()
  store = await Store.open(path)
  await check('after a reopen')
  await store.close()
})

t.test('RocksDB logs flush events to db/LOG only when asked (the soak reads memtable sizes there)', async (t) => {
  // Past one 64 MB memtable of one column family, RocksDB flushes it; at `info` the LOG says which and how large.
  const fill = async (store: Store) => {
    const value = Buffer.alloc(64 << 10, 7)
    for (let round = 0; round < 12; round++) {
      await store.commit(Array.from({ length: 100 }, (_, i) => ({ column: 'documents' as const, key: keys.u32(round * 100 + i), value })))
    }
  }
  const logOf = (path: string) => { try { return readFileSync(join(path, 'db', 'LOG'), 'utf8') } catch { return '' } }
  const quiet = dir()
  const verbose = dir()
  t.teardown(() => { rmSync(quiet, { recursive: true, force: true }); rmSync(verbose, { recursive: true, force: true }) })
  const a = await Store.open(quiet)
  await fill(a)
  const b = await Store.open(verbose, 'info')
  await fill(b)
  const deadline = Date.now() + 60_000
  while (!/flush_started/.test(logOf(verbose)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  await a.close()
  await b.close()
  t.match(logOf(verbose), /\[documents\][^\n]*Flushing memtable/, 'the flushed column family is named')
  t.match(logOf(verbose), /"event": "flush_started"[^\n]*"memory_usage": \d+/, 'with the memtable bytes')
  t.notMatch(logOf(quiet), /flush_started/, 'by default only errors are logged')
})
