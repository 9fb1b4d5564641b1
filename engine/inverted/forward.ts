/**
 * The forward records of an index's documents (each a run of `wordId, fieldId << 16 | position` pairs in field
 * and position order), in one arena: ranking scans the records of tens of thousands of documents per query, and
 * records laid out in internal id order, with no object per document, are read several times faster than one
 * typed array per document (and weigh nothing on the garbage collector).
 *
 * A document's record is `data[start[docid] .. end[docid])` (empty: no record). A changed record is appended; the
 * space of the old one is counted as garbage and the arena is rewritten in internal id order once garbage
 * outweighs live records. Changes happen only when a batch is published (synchronously), so a search never sees a
 * half-applied batch.
 *
 * The arena and its tables are in shared memory (`view()`: what another thread is handed to read them in place),
 * and a publish never changes a byte a reader of an earlier view can see: records are only appended past the used
 * part, a compaction writes a new arena, and once the arrays are `seal`ed (published) the first change copies the
 * `start`/`end` tables (8 bytes a document: 1 ms per publish on GCIDE's 126k documents).
 */
import { endianness } from 'node:os'
import { grown } from '../util/typed.js'
import { sharedArray, sharedCopy, sharedCopySteps } from '../util/shared.js'
import { straight, type Steps } from '../util/turns.js'

/** A published forward arena as another thread is handed it: arrays over SharedArrayBuffers, read only. */
export interface ForwardView {
  data: Uint32Array
  start: Uint32Array
  end: Uint32Array
  count: number
}

/** Records are stored as u32 little-endian: on such a platform the arena's bytes are the stored form. */
export const LITTLE_ENDIAN = endianness() === 'LE'

export class ForwardRecords {
  data: Uint32Array = sharedArray(Uint32Array, 1024)
  start: Uint32Array = sharedArray(Uint32Array, 1024)
  end: Uint32Array = sharedArray(Uint32Array, 1024)
  /** Words of `data` in use (live and garbage). */
  private used = 0
  private garbage = 0
  /** Documents with a record. */
  count = 0
  /** The tables are part of a published view: copied before the next change (see the file's comment). */
  private sealed = false

  /** The arena as it is now, for readers on other threads (seals it: later changes leave these arrays as they are). */
  view(): ForwardView {
    this.seal()
    return { data: this.data.subarray(0, this.used), start: this.start, end: this.end, count: this.count }
  }

  /** Readers of the current arrays may exist from now on: the next change copies the tables first. */
  seal(): void {
    this.sealed = true
  }

  /** A read-only arena over a view handed over by another thread (never changed: no `set` on it). */
  static fromView(view: ForwardView): ForwardRecords {
    const out = new ForwardRecords()
    out.data = view.data
    out.start = view.start
    out.end = view.end
    out.count = view.count
    out.used = view.data.length
    out.sealed = true
    return out
  }

  /** One past the highest internal id that may have a record. */
  get limit(): number {
    return this.start.length
  }

  has(docid: number): boolean {
    return docid < this.start.length && this.end[docid]! > this.start[docid]!
  }

  /** A view of a document's record (undefined: none). Allocates a view: not for per-document loops. */
  get(docid: number): Uint32Array | undefined {
    if (!this.has(docid)) return undefined
    return this.data.subarray(this.start[docid]!, this.end[docid]!)
  }

  /** A document's record in its stored form (u32 little-endian): a view of the arena when the platform's order is that. */
  bytes(docid: number): Buffer | undefined {
    if (!this.has(docid)) return undefined
    const from = this.start[docid]!
    const to = this.end[docid]!
    if (LITTLE_ENDIAN) return Buffer.from(this.data.buffer, this.data.byteOffset + from * 4, (to - from) * 4)
    const out = Buffer.allocUnsafe((to - from) * 4)
    for (let k = from; k < to; k++) out.writeUInt32LE(this.data[k]!, (k - from) * 4)
    return out
  }

  /** Set (or, with null or an empty record, remove) a document's record. */
  set(docid: number, record: Uint32Array | null): void {
    this.own()
    this.reserveIds(docid + 1)
    const had = this.end[docid]! - this.start[docid]!
    if (had > 0) {
      this.garbage += had
      this.count--
    }
    if (!record || record.length === 0) {
      this.start[docid] = 0
      this.end[docid] = 0
      return
    }
    this.reserveData(this.used + record.length)
    this.data.set(record, this.used)
    this.start[docid] = this.used
    this.used += record.length
    this.end[docid] = this.used
    this.count++
  }

  /**
   * Rewrite the arena in internal id order when garbage outweighs the live records; else give back spare capacity
   * beyond a quarter of what is used (an arena grows by doubling).
   */
  maybeCompact(): void {
    straight(this.maybeCompactSteps())
  }

  /** `maybeCompact` as steps that may pause (a batch's arena of GCIDE's 126k definitions is ~60 MB to copy). */
  *maybeCompactSteps(): Steps<void> {
    if (this.garbage <= this.used / 2) {
      if (this.data.length > 1024 && this.data.length > this.used + (this.used >>> 2)) this.data = yield* sharedCopySteps(this.data, Math.max(1024, this.used))
      return
    }
    this.own()
    const live = this.used - this.garbage
    const data = sharedArray(Uint32Array, Math.max(1024, live))
    let at = 0
    for (let docid = 0; docid < this.start.length; docid++) {
      if ((docid & 4095) === 4095) yield
      const from = this.start[docid]!
      const to = this.end[docid]!
      if (to <= from) continue
      data.set(this.data.subarray(from, to), at)
      this.start[docid] = at
      at += to - from
      this.end[docid] = at
    }
    this.data = data
    this.used = at
    this.garbage = 0
  }

  /** A copy to edit while this one is read (the arena's used part and the offsets are copied). */
  clone(): ForwardRecords {
    const copy = new ForwardRecords()
    copy.data = sharedCopy(this.data, Math.max(1024, this.used), this.used)
    copy.start = sharedCopy(this.start, this.start.length)
    copy.end = sharedCopy(this.end, this.end.length)
    copy.used = this.used
    copy.garbage = this.garbage
    copy.count = this.count
    return copy
  }

  /** Internal ids with a record, in order. */
  *docids(): Generator<number> {
    for (let docid = 0; docid < this.start.length; docid++) if (this.end[docid]! > this.start[docid]!) yield docid
  }

  /** Tables of our own to change (a sealed view's are copied: its readers keep theirs). */
  private own(): void {
    if (!this.sealed) return
    this.start = sharedCopy(this.start, this.start.length)
    this.end = sharedCopy(this.end, this.end.length)
    this.sealed = false
  }

  private reserveIds(size: number): void {
    this.start = grown(this.start, size)
    this.end = grown(this.end, size)
  }

  private reserveData(size: number): void {
    this.data = grown(this.data, size, this.used)
  }
}
