/**
 * Documents read by other threads (search threads) through the database's handle, without a turn of the thread
 * that owns the store. Two things make that safe, both in one small shared array:
 *
 * - **Which documents.** The store commits a batch while its owner keeps serving the replaced values (shadows.ts)
 *   until it publishes the batch's view; another thread reading RocksDB meanwhile would see the new values under the
 *   old view. So each index (by slot: internal id modulo SLOTS; two indexes sharing a slot only cost a fallback) has
 *   an epoch the owner makes odd before a commit that writes its documents reaches the writer thread, and even again
 *   once the batch is published and its shadows released. A reader takes the epoch with the view, in the same tick
 *   as the view's documents are known to be the published ones, and trusts its read only when the epoch is the same
 *   before and after it (a seqlock).
 * - **That the database is open.** The binding's synchronous reads do not check it: the owner closes the fence
 *   (and waits for the reads under way, which take microseconds) before it closes or reopens the database.
 *
 * A read that cannot be trusted is not an error: the reader asks the owning thread, as before.
 */
import type { Write } from './columns.js'

/** Epoch slots: indexes beyond this many share slots (a commit to one makes readers of the other fall back). */
const SLOTS = 1024
const CLOSED = 0
const READING = 1
/** Which opening of the database the handle read is (a reopen after a full disk makes a new one). */
const GENERATION = 2
const FIRST_SLOT = 3

/** The owner's side (the store's thread). */
export class ReadFence {
  /** [closed, reads under way, generation, epoch per slot]: handed to reading threads (`ReadGate`). */
  readonly shared = new Int32Array(new SharedArrayBuffer(4 * (FIRST_SLOT + SLOTS)))

  /** The index's documents epoch now: odd while a commit that writes them is in flight. */
  epoch(indexId: number): number {
    return Atomics.load(this.shared, slotOf(indexId))
  }

  /**
   * A commit of `ops` is about to be sent to the writer: the epochs of the indexes whose documents it writes turn
   * odd; the function returned (call it once the batch is published, or abandoned) turns them even again.
   */
  writing(ops: readonly Write[]): () => void {
    const slots = new Set<number>()
    for (const op of ops) if (!('run' in op) && op.column === 'documents' && op.key.byteLength >= 4) slots.add(slotOf(readIndexId(op.key)))
    for (const slot of slots) Atomics.add(this.shared, slot, 1)
    let done = false
    return () => {
      if (done) return
      done = true
      for (const slot of slots) Atomics.add(this.shared, slot, 1)
    }
  }

  /** No read starts from now on; returns once the reads under way have ended. */
  close(): void {
    Atomics.store(this.shared, CLOSED, 1)
    const pause = new Int32Array(new SharedArrayBuffer(4))
    while (Atomics.load(this.shared, READING) > 0) Atomics.wait(pause, 0, 0, 1)
  }

  /** The database's opening whose handle readers may read. */
  get generation(): number {
    return Atomics.load(this.shared, GENERATION)
  }

  /** The database is open again (a reopen): its new handle may be read, the old one never again. */
  reopened(): void {
    Atomics.add(this.shared, GENERATION, 1)
    Atomics.store(this.shared, CLOSED, 0)
  }
}

/** A reading thread's side, over the owner's `shared` array. */
export class ReadGate {
  constructor(private readonly shared: Int32Array) {}

  /**
   * `read()`'s result if the documents of `indexId` stayed those of `epoch` (an even epoch taken with the view)
   * throughout it and the database stayed open in its opening `generation` (the one the reader's handle is of);
   * null otherwise (nothing was read, or it cannot be trusted).
   */
  readAt<T>(indexId: number, epoch: number, generation: number, read: () => T): T | null {
    if (epoch % 2 !== 0) return null
    const slot = slotOf(indexId)
    Atomics.add(this.shared, READING, 1)
    try {
      if (Atomics.load(this.shared, CLOSED) !== 0 || Atomics.load(this.shared, GENERATION) !== generation) return null
      if (Atomics.load(this.shared, slot) !== epoch) return null
      const value = read()
      return Atomics.load(this.shared, slot) === epoch ? value : null
    } finally {
      Atomics.sub(this.shared, READING, 1)
    }
  }
}

const slotOf = (indexId: number) => FIRST_SLOT + (indexId % SLOTS)
const readIndexId = (key: Uint8Array) => ((key[0]! << 24) | (key[1]! << 16) | (key[2]! << 8) | key[3]!) >>> 0
