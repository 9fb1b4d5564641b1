/**
 * Rows a batch writes by the hundred thousand (an index's postings and forward records), described without an object
 * per row: one column, keys `u32 indexId ‖ u32 tail`, values as ranges of one buffer. A batch's commit used to carry
 * them as one `WriteOp` per row (an object, a key buffer and a view of the value: ~250 bytes of heap each); on GCIDE's
 * 126k definitions that was 470,000 writes, a third of the HTTP thread's heap at the end of the batch, all garbage
 * once the commit was encoded. wire.ts encodes a run straight from these arrays.
 *
 * Both columns are `unread` (see WriteOp): they are served from memory once an index is loaded, so a commit in flight
 * needs no shadow of their old values, and neither holds documents (the read fence does not look at them).
 */
import { grown } from '../util/typed.js'

/** `starts[k]` of a delete. */
export const DELETED_ROW = 0xffffffff

export interface RowRun {
  run: 'postings' | 'positions'
  indexId: number
  /** Rows in this run. */
  count: number
  /** Row k's key tail (an internal id), and its value `values[starts[k] .. ends[k])`, or a delete. */
  tails: Uint32Array
  starts: Uint32Array
  ends: Uint32Array
  values: Uint8Array
}

/** A run's rows as they are made: values copied into the run's own buffer, or ranges of a buffer given up front. */
export class RowRunBuilder {
  private count = 0
  private tails = new Uint32Array(256)
  private starts = new Uint32Array(256)
  private ends = new Uint32Array(256)
  private used = 0
  private values: Uint8Array
  private readonly source: boolean

  /** `over`: the buffer `range` rows are ranges of; without it, rows are `copy`'d into a buffer of the run's own. */
  constructor(private readonly column: RowRun['run'], private readonly indexId: number, over?: Uint8Array) {
    this.source = over !== undefined
    this.values = over ?? new Uint8Array(4096)
  }

  /** A put whose value is copied into the run. */
  copy(tail: number, value: Uint8Array): void {
    if (this.source) throw new Error('copy on a run over a given buffer')
    this.values = grown(this.values, this.used + value.byteLength, this.used)
    this.values.set(value, this.used)
    this.push(tail, this.used, (this.used += value.byteLength))
  }

  /** A put whose value is `values[start .. end)` of the buffer the run is over. */
  range(tail: number, start: number, end: number): void {
    if (!this.source) throw new Error('range on a run of its own values')
    this.push(tail, start, end)
  }

  delete(tail: number): void {
    this.push(tail, DELETED_ROW, 0)
  }

  /** The run (null when it has no rows). */
  finish(): RowRun | null {
    if (this.count === 0) return null
    const values = this.source ? this.values : this.values.subarray(0, this.used)
    return { run: this.column, indexId: this.indexId, count: this.count, tails: this.tails, starts: this.starts, ends: this.ends, values }
  }

  private push(tail: number, start: number, end: number): void {
    const k = this.count++
    if (k === this.tails.length) {
      this.tails = grown(this.tails, k + 1)
      this.starts = grown(this.starts, k + 1)
      this.ends = grown(this.ends, k + 1)
    }
    this.tails[k] = tail
    this.starts[k] = start
    this.ends[k] = end
  }
}

/** Bytes of row k's value, or -1 for a delete. */
export function rowValueLength(run: RowRun, k: number): number {
  return run.starts[k] === DELETED_ROW ? -1 : run.ends[k]! - run.starts[k]!
}
