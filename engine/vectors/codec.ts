/**
 * How the vector store lays its rows out in the `vectors` column family. Per index (its internal id first, so an
 * index stays one key range):
 * - `id ‖ 'm' ‖ embedder` → the embedder space's record (dimensions, quantized, generation, next graph slot);
 * - `id ‖ 'r' ‖ embedder ‖ 0x00 ‖ docid` → one document's vectors for that embedder, with their origin flags and
 *   the graph slots they occupy.
 * A row's value: flags (u8: 1 user-provided, 2 regenerate, 4 quantized), vector count (u16), dimensions (u32),
 * then one u32 slot per vector, then the vectors (float32 little-endian, or packed sign bits when quantized).
 */
import { keys } from '../storage/index.js'

/** One document's vectors for one embedder, as the store holds them. */
export interface VectorEntry {
  /** Full-precision vectors (empty when the space is quantized). */
  vectors: Float32Array[]
  /** Packed sign bits, one array of `ceil(dims / 8)` bytes per vector (quantized spaces only). */
  packed: Uint8Array[]
  userProvided: boolean
  regenerate: boolean
  /** The graph label of each vector (slots are never reused while a row keeps them). */
  slots: number[]
}

/** The record of one embedder's space in one index. */
export interface SpaceRecord {
  dims: number
  quantized: boolean
  /** Bumped by every batch that changes the space: the graph file saved beside the database carries it too. */
  generation: number
  nextSlot: number
}

const USER = 1
const REGENERATE = 2
const QUANTIZED = 4

export function rowPrefix(indexId: number, embedder: string): Buffer {
  return keys.indexKey(indexId, Buffer.concat([Buffer.from('r' + embedder, 'utf8'), Buffer.from([0])]))
}

export function rowKey(indexId: number, embedder: string, docid: number): Buffer {
  return Buffer.concat([rowPrefix(indexId, embedder), keys.u32(docid)])
}

export function spaceKey(indexId: number, embedder: string): Buffer {
  return keys.indexKey(indexId, 'm' + embedder)
}

/** Which kind of row a key of the index's range is, and its parts. */
export function parseKey(key: Buffer): { kind: 'space'; embedder: string } | { kind: 'row'; embedder: string; docid: number } | null {
  const tag = key[4]
  if (tag === 0x6d) return { kind: 'space', embedder: key.subarray(5).toString('utf8') }
  if (tag !== 0x72 || key.length < 10) return null
  return { kind: 'row', embedder: key.subarray(5, key.length - 5).toString('utf8'), docid: key.readUInt32BE(key.length - 4) }
}

export function packedBytes(dims: number): number {
  return (dims + 7) >> 3
}

export function encodeEntry(entry: VectorEntry, dims: number): Buffer {
  const quantized = entry.packed.length > 0
  const count = quantized ? entry.packed.length : entry.vectors.length
  const per = quantized ? packedBytes(dims) : dims * 4
  const out = Buffer.alloc(7 + count * 4 + count * per)
  out[0] = (entry.userProvided ? USER : 0) | (entry.regenerate ? REGENERATE : 0) | (quantized ? QUANTIZED : 0)
  out.writeUInt16LE(count, 1)
  out.writeUInt32LE(dims, 3)
  let at = 7
  for (let k = 0; k < count; k++, at += 4) out.writeUInt32LE(entry.slots[k] ?? 0, at)
  for (let k = 0; k < count; k++) {
    if (quantized) out.set(entry.packed[k]!, at)
    else out.set(new Uint8Array(entry.vectors[k]!.buffer, entry.vectors[k]!.byteOffset, dims * 4), at)
    at += per
  }
  return out
}

export function decodeEntry(raw: Uint8Array): VectorEntry {
  const b = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const flags = b[0]!
  const count = b.readUInt16LE(1)
  const dims = b.readUInt32LE(3)
  const quantized = (flags & QUANTIZED) !== 0
  const slots: number[] = []
  let at = 7
  for (let k = 0; k < count; k++, at += 4) slots.push(b.readUInt32LE(at))
  const vectors: Float32Array[] = []
  const packed: Uint8Array[] = []
  for (let k = 0; k < count; k++) {
    if (quantized) {
      packed.push(Uint8Array.from(b.subarray(at, at + packedBytes(dims))))
      at += packedBytes(dims)
    } else {
      // A copy: aligned, and not a view that keeps the read buffer alive.
      const v = new Float32Array(dims)
      new Uint8Array(v.buffer).set(b.subarray(at, at + dims * 4))
      vectors.push(v)
      at += dims * 4
    }
  }
  return { vectors, packed, userProvided: (flags & USER) !== 0, regenerate: (flags & REGENERATE) !== 0, slots }
}
