/**
 * How an inverted index is stored (RocksDB, the index's key range in two column families):
 * - `postings`: `id ‖ u32 wordId` → `u16 length ‖ word ‖ portable roaring bitmap`; `id` alone → the meta record
 *   (fields, next word id), JSON;
 * - `positions`: `id ‖ u32 docid` → the document's forward record (u32 little-endian).
 */
import roaring from '../util/roaring.js'
import { keys } from '../storage/index.js'
import { LITTLE_ENDIAN } from './forward.js'

type Bitmap = InstanceType<typeof roaring.RoaringBitmap32>

export interface Meta {
  fields: string[]
  nextWordId: number
}

export const metaKey = (indexId: number) => keys.indexKey(indexId)
export const postingKey = (indexId: number, wordId: number) => keys.indexKey(indexId, keys.u32(wordId))
export const forwardKey = (indexId: number, docid: number) => keys.indexKey(indexId, keys.u32(docid))

export function encodePosting(word: string, docids: Bitmap): Buffer {
  const w = Buffer.from(word, 'utf8')
  const bits = docids.serialize('portable')
  const out = Buffer.allocUnsafe(2 + w.byteLength + bits.byteLength)
  out.writeUInt16BE(w.byteLength, 0)
  w.copy(out, 2)
  out.set(bits, 2 + w.byteLength)
  return out
}

/** A stored forward record; a view of `raw` when it can be (the arena copies it). */
export function decodeForward(raw: Buffer): Uint32Array {
  if (LITTLE_ENDIAN && raw.byteOffset % 4 === 0) return new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength >>> 2)
  const out = new Uint32Array(raw.byteLength >>> 2)
  for (let i = 0; i < out.length; i++) out[i] = raw.readUInt32LE(i * 4)
  return out
}
