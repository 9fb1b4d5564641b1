/**
 * The storage module: the only code that touches RocksDB. One database per data directory, one column family
 * per kind of data (see columns.ts). Reads run on the caller's thread (RocksDB reads are memtable/block-cache
 * lookups); every write goes through `commit`, which is atomic and durable when its promise resolves.
 */
import type { Worker } from 'node:worker_threads'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { DiskSize } from './disk-size.js'
import { WriteBuffer, encodeSteps, encodeWrites } from './wire.js'
import { Shadows } from './shadows.js'
import { ReadFence } from './read-fence.js'
import type { SharedReads } from './shared-reads.js'
import { inTurns } from '../util/turns.js'
import { COLUMNS, type Column, type Write, type WriteOp } from './columns.js'
import { copyColumns } from './checkpoint.js'
import { allColumnOptions } from './tuning.js'
import { openDatabase, startWriter, type RocksHandle, type StorageLogLevel } from './open.js'
import { RECOVERY_FREE_BYTES, RECOVERY_POLL_MS, freeBytes, isStickyWriteError, pause } from './recovery.js'

export { COLUMNS, type Column, type Write, type WriteOp } from './columns.js'
export { DELETED_ROW, RowRunBuilder, type RowRun } from './row-run.js'
export type { StorageLogLevel } from './open.js'
export { WriteBuffer } from './wire.js'
export * as keys from './keys.js'
export { encode, decode } from './codec.js'


export interface ScanOptions {
  gte?: Uint8Array
  gt?: Uint8Array
  lt?: Uint8Array
  lte?: Uint8Array
  reverse?: boolean
  limit?: number
}

/** Written commits' buffers kept for reuse: how many, and up to what size. */
const SPARES = 2
const SPARE_MAX_BYTES = 12 << 20


/**
 * Reads are synchronous on purpose, and this is the one place that does them. A search ranks on the published
 * in-memory view and then reads the hit documents; a batch commits while shadowing the values it replaces
 * (`commitShadowed`). Both hold only because a reader reads in the same tick as it looked at the view: the binding
 * has no snapshots, so an asynchronous read could return a document of a batch published after the view the reader
 * ranked with (invariant 4: no reader sees half of a batch). The binding's one synchronous multi-get is
 * `_getManySync`, underscored (outside its documented API, so the package is pinned to an exact version); its
 * public synchronous alternative, `querySync`, is a range read: measured here at 23 µs per key against 8 µs per key
 * for the multi-get (20 random documents: 456 against 160 µs), which a search pays on every page of hits. The
 * method is looked up once at open, so a binding without it fails at start-up, not on a read.
 */
function syncMultiGet(db: RocksHandle): (keys: Buffer[], options: { column: unknown }) => (Buffer | null | undefined)[] {
  const read = db._getManySync
  if (typeof read !== 'function') throw new Error('@nxtedition/rocksdb has no synchronous multi-get (_getManySync): the pinned version 12.2.12 is required')
  return read.bind(db)
}

export class Store {
  readonly path: string
  private db: RocksHandle
  private multiGet: ReturnType<typeof syncMultiGet>
  private writer: Worker
  private nextCommitId = 1
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>()
  private closed = false
  /** Buffers of written commits, for the next ones (see `buffer`). */
  private readonly spares: ArrayBuffer[] = []
  /** Set when the writer thread died: every later commit fails instead of waiting forever. */
  private writerDead: Error | null = null
  /** Commits sent to the writer and not acknowledged yet. */
  private inFlight = 0
  /** While a checkpoint takes its read view: commits wait here, in order, instead of going to the writer. */
  private held: (() => void)[] | null = null
  /** The error RocksDB keeps failing writes with (a full disk) until the database is reopened (see recovery.ts). */
  private unwritable: Error | null = null
  /** Callers of `writable` waiting for the reopen. */
  private readonly onWritable: (() => void)[] = []
  /** The old database is closed and the new one not open yet (a reopen failed): reads fail meanwhile. */
  private detached = false
  /** What RocksDB logs to `db/LOG` (kept for the reopen after a full disk). */
  private logLevel: StorageLogLevel = 'error'

  private constructor(path: string, db: RocksHandle, writer: Worker) {
    this.path = path
    this.db = db
    this.multiGet = syncMultiGet(db)
    this.writer = writer
    this.listen(writer)
  }

  /** Take the answers of a writer thread (only the current one's: an old one's exit during a reopen is no failure). */
  private listen(writer: Worker): void {
    writer.on('message', (msg: { ids?: number[]; buffers?: ArrayBuffer[]; error?: { message: string; code?: string } }) => {
      if (!msg.ids) return
      for (const buffer of msg.buffers ?? []) this.recycle(buffer)
      this.inFlight = Math.max(0, this.inFlight - msg.ids.length)
      const error = msg.error && Object.assign(new Error(msg.error.message), { code: msg.error.code })
      if (error && isStickyWriteError(error.message)) this.refuseWrites(error)
      for (const id of msg.ids) {
        const w = this.waiting.get(id)
        if (!w) continue
        this.waiting.delete(id)
        if (error) w.reject(error)
        else w.resolve()
      }
    })
    writer.on('error', (err) => { if (this.writer !== writer) return; this.writerDead = err; this.failAll(err) })
    writer.on('exit', () => { if (this.writer !== writer) return; this.writerDead ??= new Error('storage writer stopped'); this.failAll(this.writerDead) })
  }

  /** Open (creating it if needed) the database of a data directory; RocksDB's memory is bounded as tuning.ts says. */
  static async open(path: string, logLevel: StorageLogLevel = 'error'): Promise<Store> {
    mkdirSync(path, { recursive: true })
    const db = await openDatabase(path, logLevel)
    const store = new Store(path, db, await startWriter(db))
    store.logLevel = logLevel
    return store
  }

  /** Whether writes are refused until the database is reopened (a full disk); reads keep working meanwhile. */
  get refusingWrites(): boolean {
    return this.unwritable !== null
  }

  /**
   * Resolves true once the store takes writes (at once when it does), false if `signal` aborts or the store closes
   * first: a batch that could not record its end waits here for the disk to have room again.
   */
  writable(signal?: AbortSignal): Promise<boolean> {
    if (!this.unwritable) return Promise.resolve(!this.closed)
    if (this.closed || signal?.aborted) return Promise.resolve(false)
    return new Promise((resolve) => {
      const done = (ok: boolean) => { signal?.removeEventListener('abort', onAbort); resolve(ok) }
      const onAbort = () => { const k = this.onWritable.indexOf(onReady); if (k >= 0) this.onWritable.splice(k, 1); done(false) }
      const onReady = () => done(!this.closed)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.onWritable.push(onReady)
    })
  }

  /**
   * RocksDB failed a write with an error it keeps (a full disk): refuse writes at once from now on, with that error
   * (registrations answer `no_space_left_on_device`), and reopen the database once the file system has room.
   */
  private refuseWrites(error: Error): void {
    if (this.unwritable || this.closed) return
    this.unwritable = error
    void this.recover()
  }

  private async recover(): Promise<void> {
    while (!this.closed) {
      await pause(RECOVERY_POLL_MS)
      if (this.closed || await freeBytes(this.path) < RECOVERY_FREE_BYTES) continue
      try {
        await this.reopen()
        break
      } catch {
        // Still no room for a new log or manifest (or another I/O error): try again at the next poll.
      }
    }
    this.unwritable = null
    for (const ready of this.onWritable.splice(0)) ready()
  }

  /**
   * Close and open the database on the same path, in process, and give it a new writer thread. Every acknowledged
   * commit is in the write-ahead log, which the open replays; the failed write's torn tail is dropped. Reads in the
   * moment between the two fail; a range scan under way ends with an error.
   */
  private async reopen(): Promise<void> {
    while (this.inFlight > 0 && !this.writerDead) await pause(1)
    if (!this.detached) {
      this.detached = true
      this.fence.close()
      const old = this.writer
      old.postMessage('close')
      await old.terminate()
      await this.db.close().catch(() => {})
    }
    const db = await openDatabase(this.path, this.logLevel)
    let writer: Worker
    try {
      writer = await startWriter(db)
    } catch (err) {
      await db.close().catch(() => {})
      throw err
    }
    if (this.closed) {
      await writer.terminate()
      await db.close()
      return
    }
    this.db = db
    this.multiGet = syncMultiGet(db)
    this.writer = writer
    this.writerDead = null
    this.listen(writer)
    this.detached = false
    this.fence.reopened()
  }

  private failAll(err: Error): void {
    for (const w of this.waiting.values()) w.reject(err)
    this.waiting.clear()
    this.inFlight = 0
  }

  /**
   * What another thread needs to read documents itself (shared-reads.ts, read-fence.ts): the database's handle (it
   * opens the database through it, as the writer thread does), the fence's shared array and the handle's generation;
   * null while the database is not open.
   */
  get sharedReads(): SharedReads | null {
    if (this.detached || this.closed) return null
    return { handle: this.db.handle, fence: this.fence.shared, generation: this.fence.generation }
  }

  private column(c: Column): unknown {
    return this.db.columns[c]
  }

  /**
   * Apply `ops` atomically; resolves once they are on disk (WAL fsynced). With `sync: false` it resolves once they
   * are written but not synced (a crash may lose them; the next synced commit makes them durable too): for rows
   * nothing reaches until a later synced commit.
   */
  commit(ops: readonly Write[] | WriteBuffer, { sync = true }: { sync?: boolean } = {}): Promise<void> {
    const refused = this.refusal()
    if (refused) return refused
    if (ops.length === 0) return Promise.resolve()
    // One buffer of its own, transferred to the writer instead of cloned (and back for reuse once written).
    const alloc = (size: number) => this.buffer(size)
    return this.post(ops instanceof WriteBuffer ? ops.take(alloc) : encodeWrites(ops, alloc), sync)
  }

  /** A rejected promise when no commit can be taken now (closed, writer dead, disk refusing), else null. */
  private refusal(): Promise<void> | null {
    if (this.closed) return Promise.reject(new Error('storage is closed'))
    if (this.writerDead) return Promise.reject(this.writerDead)
    if (this.unwritable) return Promise.reject(this.unwritable)
    return null
  }

  /** Hand an encoded commit to the writer thread (after the commits held back by a checkpoint, if any). */
  private post(owned: Uint8Array<ArrayBuffer>, sync: boolean): Promise<void> {
    const id = this.nextCommitId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      const post = () => {
        this.inFlight++
        this.writer.postMessage({ id, ops: owned, sync }, [owned.buffer])
      }
      if (this.held) this.held.push(post)
      else post()
    })
  }

  /**
   * A consistent copy of the whole database, written as a new RocksDB in `<dir>/db` (compacted: live rows only).
   * The binding has no checkpoint API; an iterator reads the database as it was when the iterator was made, so
   * commits are held back for the moment it takes to drain the ones in flight and open one iterator per column
   * (in one tick), which makes the copy a single point in the commit order. Writes then resume at once; the copy
   * streams from the iterators while the service goes on. `edits` are applied to the copy only.
   */
  async checkpoint(dir: string, edits: readonly WriteOp[] = []): Promise<void> {
    if (this.closed) throw new Error('storage is closed')
    const views = await this.frozen(() => COLUMNS.map((c) => this.db.iterator({ column: this.column(c), keys: true, values: true })))
    await copyColumns(views, join(dir, 'db'), allColumnOptions(), edits)
  }

  /** Run `take` once no commit is in flight, holding new ones back until it returned. */
  private async frozen<T>(take: () => T): Promise<T> {
    this.held ??= []
    try {
      while (this.inFlight > 0 && !this.writerDead) await new Promise((resolve) => setTimeout(resolve, 1))
      return take()
    } finally {
      const held = this.held ?? []
      this.held = null
      for (const post of held) post()
    }
  }

  /**
   * A buffer for a commit of `size` bytes: a written commit's buffer when one is big enough. Transferred buffers
   * are garbage to the thread they went to until its next collection, which large external allocations do not
   * hasten: handing them back and reusing them keeps a stream of commits from piling up dead buffers there.
   */
  private buffer(size: number): Uint8Array<ArrayBuffer> {
    const k = this.spares.findIndex((b) => b.byteLength >= size && b.byteLength <= 4 * size + 4096)
    if (k < 0) return new Uint8Array(size)
    const [spare] = this.spares.splice(k, 1)
    return new Uint8Array(spare!, 0, size)
  }

  private recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength > SPARE_MAX_BYTES || buffer.byteLength < 4096) return
    this.spares.push(buffer)
    if (this.spares.length > SPARES) this.spares.sort((a, b) => b.byteLength - a.byteLength).pop()
  }

  /**
   * Commit `ops` (durably, through the writer thread) while this thread keeps reading the values they replace,
   * until `release()`. The scheduler commits batches this way: it publishes its new in-memory view and releases in
   * the same tick once the commit is durable, so no reader ever sees a batch on disk that is not yet published,
   * and the HTTP thread never waits on the disk.
   */
  async commitShadowed(ops: Write[]): Promise<{ done: Promise<void>; release(): void }> {
    // Capturing and encoding a large batch's writes run in turns, so requests are served meanwhile; nothing is
    // posted before both end, so readers in between read the old values from disk.
    // Other threads' reads of the documents these ops write are not trusted from now until the release (the
    // batch published): RocksDB has the new values before this thread's view does.
    const written = this.fence.writing(ops)
    let unshadow: () => void
    try {
      unshadow = await inTurns(this.shadows.capture(ops, (column, key) => this.read(column, key)))
    } catch (err) {
      written()
      throw err
    }
    const release = () => { unshadow(); written() }
    try {
      const refused = this.refusal()
      const done = refused ?? (ops.length === 0 ? Promise.resolve() : this.post(await inTurns(encodeSteps(ops, (size) => this.buffer(size))), true))
      return { done, release }
    } catch (err) {
      release()
      throw err
    }
  }

  /** Values being replaced by shadowed commits in flight. */
  private readonly shadows = new Shadows()

  /** Documents read by other threads through the handle: when they may be trusted (read-fence.ts). */
  readonly fence = new ReadFence()

  private read(column: Column, key: Uint8Array): Buffer | undefined {
    this.attached()
    const [value] = this.multiGet([Buffer.from(key.buffer, key.byteOffset, key.byteLength)], { column: this.column(column) })
    return value ?? undefined
  }

  /** The binding's synchronous reads do not check that the database is open: in a reopen's gap, fail them here. */
  private attached(): void {
    if (this.detached) throw this.unwritable ?? new Error('storage is reopening')
  }

  get(column: Column, key: Uint8Array): Buffer | undefined {
    const shadowed = this.shadows.of(column, key)
    return shadowed ? shadowed.value : this.read(column, key)
  }

  getMany(column: Column, keys: Uint8Array[]): (Buffer | undefined)[] {
    if (keys.length === 0) return []
    this.attached()
    const values = this.multiGet(keys.map((k) => Buffer.from(k.buffer, k.byteOffset, k.byteLength)), { column: this.column(column) })
    return values.map((v: Buffer | null | undefined, i: number) => {
      const shadowed = this.shadows.of(column, keys[i]!)
      return shadowed ? shadowed.value : v ?? undefined
    })
  }

  /** Entries of a key range in key order (or reverse), read in chunks. */
  async *scan(column: Column, options: ScanOptions = {}): AsyncGenerator<[Buffer, Buffer]> {
    const it = this.db.iterator({ ...options, column: this.column(column), keys: true, values: true })
    try {
      while (true) {
        const entries: [Buffer, Buffer][] = await it.nextv(1000)
        if (entries.length === 0) return
        for (const [key, value] of entries) {
          const shadowed = this.shadows.of(column, key)
          if (!shadowed) yield [key, value]
          else if (shadowed.value !== undefined) yield [key, shadowed.value]
        }
      }
    } finally {
      await it.close()
    }
  }


  /**
   * Drop a key range with one range tombstone. Not atomic with commits: use it only for data that is already
   * unreachable (an index whose metadata was deleted in a committed batch).
   */
  async clearRange(column: Column, gte: Uint8Array, lt: Uint8Array): Promise<void> {
    await this.db.clear({ column: this.column(column), gte: Buffer.from(gte), lt: Buffer.from(lt) })
  }

  /**
   * Bytes used by the data directory on disk (disk-size.ts: walked asynchronously, shared, reused for a second).
   */
  sizeOnDisk(): Promise<number> {
    return (this.diskSize ??= new DiskSize(this.path)).read()
  }

  private diskSize: DiskSize | null = null

  /** RocksDB's estimate of the bytes of live data (what compaction would keep). */
  liveDataSize(): number {
    if (this.detached) return 0
    const v = Number(this.db.getProperty('rocksdb.estimate-live-data-size'))
    return Number.isFinite(v) ? v : 0
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const ready of this.onWritable.splice(0)) ready()
    // Let in-flight commits finish before the writer goes away; then the opening thread closes last.
    while (this.waiting.size > 0) await new Promise((r) => setTimeout(r, 2))
    this.writer.postMessage('close')
    await this.writer.terminate()
    this.fence.close()
    await this.db.close()
  }
}
