/**
 * The wire form of a commit, from the thread that makes it to the writer thread: one buffer, written in a single
 * pass and transferred (not copied); the writer hands RocksDB views into it (RocksDB copies them into its batch).
 *
 * Each write is `u8 column ‖ u32 keyLength ‖ key ‖ i32 valueLength ‖ value`, little-endian; a value length of -1
 * is a delete (no value bytes follow). A generic encoder (msgpack) cost a third of a large batch's commit time and
 * two extra copies of it.
 */
import { COLUMNS, type Column, type Write, type WriteOp } from './columns.js'
import { rowValueLength, type RowRun } from './row-run.js'
import { grown } from '../util/typed.js'
import { straight, type Steps } from '../util/turns.js'

const DELETE = -1
const COLUMN_INDEX = new Map<Column, number>(COLUMNS.map((c, i) => [c, i]))

/**
 * Puts written straight into the wire form as they are made (no object per write): for the rows a batch writes
 * by the hundred thousand. Keys are per-index keys (`u32 indexId ‖ tail`, see keys.ts), the tail an internal id
 * (u32) or a string (UTF-8).
 */
export class WriteBuffer {
  private bytes = new Uint8Array(1 << 16)
  private view = new DataView(this.bytes.buffer)
  private text = Buffer.from(this.bytes.buffer)
  /** Bytes written. */
  length = 0

  /** A put of `value` (bytes, or a u32 big-endian) under `indexId ‖ tail` in `column`. */
  put(column: Column, indexId: number, tail: number | string, value: Uint8Array | number): void {
    const tailBytes = typeof tail === 'number' ? 4 : Buffer.byteLength(tail)
    const valueBytes = typeof value === 'number' ? 4 : value.byteLength
    this.reserve(this.length + 13 + tailBytes + valueBytes)
    const { bytes, view } = this
    let at = this.length
    bytes[at] = COLUMN_INDEX.get(column)!
    view.setUint32(at + 1, 4 + tailBytes, true)
    view.setUint32(at + 5, indexId >>> 0)
    at += 9
    if (typeof tail === 'number') view.setUint32(at, tail >>> 0)
    else this.text.write(tail, at, 'utf8')
    at += tailBytes
    view.setInt32(at, valueBytes, true)
    at += 4
    if (typeof value === 'number') view.setUint32(at, value >>> 0)
    else bytes.set(value, at)
    this.length = at + valueBytes
  }

  /** The writes so far, copied into a buffer of `alloc`'s (transferable); the buffer is empty again. */
  take(alloc: (size: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    const out = alloc(this.length)
    out.set(this.bytes.subarray(0, this.length))
    this.length = 0
    return out
  }

  private reserve(size: number): void {
    if (size <= this.bytes.length) return
    this.bytes = grown(this.bytes, size, this.length)
    this.view = new DataView(this.bytes.buffer)
    this.text = Buffer.from(this.bytes.buffer)
  }
}

/** Writes encoded between two points where the encoding may pause. */
const STEP_WRITES = 2048

/** Encode `ops` into a buffer of `alloc`'s (transferable). */
export function encodeWrites(ops: readonly Write[], alloc: (size: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return straight(encodeSteps(ops, alloc))
}

/** A run's row: `u8 column ‖ u32 keyLength (8) ‖ u32 indexId ‖ u32 tail ‖ i32 valueLength`, then the value. */
const RUN_ROW_HEAD = 1 + 4 + 8 + 4

/**
 * `encodeWrites` as steps that may pause (run with `inTurns`): a large batch's commit (GCIDE: 470,000 writes, over
 * 100 MB) would otherwise hold the indexing thread, which also serves HTTP, for 100 ms and more.
 */
export function* encodeSteps(ops: readonly Write[], alloc: (size: number) => Uint8Array<ArrayBuffer>): Steps<Uint8Array<ArrayBuffer>> {
  let size = 0
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    if ('run' in op) size += runSize(op)
    else size += 9 + op.key.byteLength + (op.value ? op.value.byteLength : 0)
    if ((i + 1) % (4 * STEP_WRITES) === 0) yield
  }
  const out = alloc(size)
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  let at = 0
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    if ('run' in op) {
      for (let from = 0; from < op.count; from += STEP_WRITES) {
        at = writeRun(op, from, Math.min(op.count, from + STEP_WRITES), out, view, at)
        yield
      }
      continue
    }
    at = writeOne(op, out, view, at)
    if ((i + 1) % STEP_WRITES === 0) yield
  }
  return out
}

function writeOne(op: WriteOp, out: Uint8Array, view: DataView, at: number): number {
  out[at] = COLUMN_INDEX.get(op.column)!
  view.setUint32(at + 1, op.key.byteLength, true)
  out.set(op.key, at + 5)
  at += 5 + op.key.byteLength
  if (!op.value) {
    view.setInt32(at, DELETE, true)
    return at + 4
  }
  view.setInt32(at, op.value.byteLength, true)
  out.set(op.value, at + 4)
  return at + 4 + op.value.byteLength
}

function runSize(run: RowRun): number {
  let size = run.count * RUN_ROW_HEAD
  for (let k = 0; k < run.count; k++) size += Math.max(0, rowValueLength(run, k))
  return size
}

/** Rows `from .. to` of a run, at `at`; returns where the next write goes. */
function writeRun(run: RowRun, from: number, to: number, out: Uint8Array, view: DataView, at: number): number {
  const column = COLUMN_INDEX.get(run.run)!
  for (let k = from; k < to; k++) {
    const length = rowValueLength(run, k)
    out[at] = column
    view.setUint32(at + 1, 8, true)
    view.setUint32(at + 5, run.indexId >>> 0)
    view.setUint32(at + 9, run.tails[k]!)
    view.setInt32(at + 13, length < 0 ? DELETE : length, true)
    at += RUN_ROW_HEAD
    if (length > 0) {
      out.set(run.values.subarray(run.starts[k]!, run.ends[k]!), at)
      at += length
    }
  }
  return at
}

/** Call `put` or `del` for each write of an encoded commit, with views into `bytes`, in order. */
export function decodeWrites(bytes: Uint8Array, put: (column: number, key: Buffer, value: Buffer) => void, del: (column: number, key: Buffer) => void): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const base = bytes.byteOffset
  let at = 0
  while (at < bytes.byteLength) {
    const column = bytes[at]!
    const keyLength = view.getUint32(at + 1, true)
    const key = Buffer.from(bytes.buffer, base + at + 5, keyLength)
    at += 5 + keyLength
    const valueLength = view.getInt32(at, true)
    at += 4
    if (valueLength === DELETE) del(column, key)
    else {
      put(column, key, Buffer.from(bytes.buffer, base + at, valueLength))
      at += valueLength
    }
  }
}
