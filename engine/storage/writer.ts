/**
 * The storage writer thread. It opens the main thread's database through its handle and applies commits with
 * `sync: true`. Commits that arrive while a write is in progress are grouped into the next WriteBatch, so one
 * fsync makes many commits durable (group commit) and the main thread never waits on the disk.
 *
 * Protocol: the main thread posts `{id, ops, sync}` where `ops` is a commit in the wire form of wire.ts (transferred);
 * the thread answers `{ids, error?}` once those commits are durable (or failed together).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { COLUMNS } from './columns.js'
import { decodeWrites } from './wire.js'

const require = createRequire(import.meta.url)
const { RocksLevel } = require('@nxtedition/rocksdb')

interface Commit { id: number; ops: Uint8Array; sync: boolean }

const port = parentPort!
const db = new RocksLevel(workerData.handle, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
await db.open()
const handles = COLUMNS.map((name) => db.columns[name])

let pending: Commit[] = []
let writing = false

function flush(): void {
  if (writing || pending.length === 0) return
  writing = true
  // Take the group after the current burst of messages has been delivered, so it is as large as it can be.
  setImmediate(() => {
    const group = pending
    pending = []
    const ids = group.map((c) => c.id)
    try {
      // The binding's own batch, not abstract-level's wrapper: the wrapper keeps every batch it hands out
      // registered with the database until it is closed through its public API, which grows the heap without end.
      const batch = db._chainedBatch()
      const put = (column: number, key: Buffer, value: Buffer) => batch._put(key, value, { column: handles[column] })
      const del = (column: number, key: Buffer) => batch._del(key, { column: handles[column] })
      for (const commit of group) decodeWrites(commit.ops, put, del)
      // One synced commit syncs the group (and every write before it: the log is sequential).
      batch._writeSync({ sync: group.some((c) => c.sync) })
      batch._closeSync()
    } catch (err) {
      const e = err as Error & { code?: string }
      port.postMessage({ ids, error: { message: e.message, code: e.code } })
      writing = false
      flush()
      return
    }
    // Written: the buffers go back to the main thread for reuse (see Store.buffer); the answer never turns into a
    // failure, whatever happens to the hand-back.
    const buffers = group.map((c) => c.ops.buffer as ArrayBuffer)
    try {
      port.postMessage({ ids, buffers }, buffers)
    } catch {
      port.postMessage({ ids })
    }
    writing = false
    flush()
  })
}

port.on('message', (msg: Commit | 'close') => {
  if (msg === 'close') {
    // The opening thread closes the database; this thread only stops taking work.
    port.close()
    return
  }
  pending.push(msg)
  flush()
})
port.postMessage({ ready: true })
