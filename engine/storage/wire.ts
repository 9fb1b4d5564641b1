/**
 * The wire form of a commit, from the thread that makes it to the writer thread: one buffer, written in a single
 * pass and transferred (not copied); the writer hands RocksDB views into it (RocksDB copies them into its batch).
 *
 * Each write is `u8 column ‖ u32 keyLength ‖ key ‖ i32 valueLength ‖ value`, little-endian; a value length of -1
 * is a delete (no value bytes follow). A generic encoder (msgpack) cost a third of a large batch's commit time and
 * two extra copies of it.
 */
import type { WriteOp } from './columns.js'

const DELETE = -1

/** Encode `ops` (`columnIndex` maps a column to its index in COLUMNS) into a buffer of its own (transferable). */
export function encodeWrites(ops: readonly WriteOp[], columnIndex: (op: WriteOp) => number): Uint8Array<ArrayBuffer> {
  let size = 0
  for (const op of ops) size += 9 + op.key.byteLength + (op.value ? op.value.byteLength : 0)
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  let at = 0
  for (const op of ops) {
    out[at] = columnIndex(op)
    view.setUint32(at + 1, op.key.byteLength, true)
    out.set(op.key, at + 5)
    at += 5 + op.key.byteLength
    if (op.value) {
      view.setInt32(at, op.value.byteLength, true)
      out.set(op.value, at + 4)
      at += 4 + op.value.byteLength
    } else {
      view.setInt32(at, DELETE, true)
      at += 4
    }
  }
  return out
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
