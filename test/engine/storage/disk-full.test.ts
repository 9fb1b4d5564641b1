/**
 * A full disk, for real (a small tmpfs): RocksDB fails the write and keeps failing every later one; the store
 * refuses writes at once with that error, keeps serving reads, and once space is freed reopens the database by
 * itself — every acknowledged commit still there, writes accepted again — without the process restarting.
 */
import t from 'tap'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { Store, keys } from '../../../engine/storage/index.js'
import { smallDisk } from '../../helpers/small-disk.js'

const disk = smallDisk(48)
t.test('a full disk refuses writes, keeps reads, and writes resume once space is freed', { skip: typeof disk === 'string' ? `needs a tmpfs: ${disk}` : false }, async (t) => {
  if (typeof disk === 'string') return
  t.teardown(() => disk.unmount())
  const store = await Store.open(join(disk.path, 'data'))
  t.teardown(() => store.close())
  const value = () => randomBytes(64 << 10) // incompressible: it takes its size on disk
  const acknowledged: number[] = []
  for (let i = 0; i < 20; i++) { await store.commit([{ column: 'documents', key: keys.u32(i), value: value() }]); acknowledged.push(i) }
  disk.fill()

  // Writes until RocksDB reports the full disk (some may still fit in what the filler left).
  let refused: Error | null = null
  for (let i = 20; i < 2000 && !refused; i++) {
    try {
      await store.commit([{ column: 'documents', key: keys.u32(i), value: value() }])
      acknowledged.push(i)
    } catch (err) {
      refused = err as Error
    }
  }
  t.match(refused?.message, /No space left on device/, 'the full disk fails a commit')
  t.ok(store.refusingWrites, 'the store now refuses writes')
  await t.rejects(store.commit([{ column: 'meta', key: keys.utf8('x'), value: Buffer.from('y') }]), /No space left on device/, 'a later commit is refused with the same error')
  t.equal(store.get('documents', keys.u32(0))?.length, 64 << 10, 'reads keep working')

  // Still full: no reopen happens.
  await new Promise((r) => setTimeout(r, 1500))
  t.ok(store.refusingWrites, 'still refusing while the disk is full')

  disk.free()
  const bound = new AbortController()
  const timer = setTimeout(() => bound.abort(), 60_000)
  t.equal(await store.writable(bound.signal), true, 'writable again once space is freed, without a restart')
  clearTimeout(timer)
  t.notOk(store.refusingWrites)
  await store.commit([{ column: 'meta', key: keys.utf8('after'), value: Buffer.from('yes') }])
  t.equal(store.get('meta', keys.utf8('after'))?.toString(), 'yes', 'a new commit is written and read back')
  const missing = acknowledged.filter((i) => store.get('documents', keys.u32(i))?.length !== 64 << 10)
  t.same(missing, [], `all ${acknowledged.length} acknowledged commits are still there`)
  let scanned = 0
  for await (const _ of store.scan('documents')) scanned++
  t.ok(scanned >= acknowledged.length, 'scans work on the reopened database')
})
