/**
 * The postings of a partition of words encoded for storage, from their documents' ids: plain data in and out, so
 * it runs in a worker (the `encodePostings` job) while the indexing thread merges the words that need the index's
 * current postings. It also sorts the partition's words, so the term dictionary is merged from sorted runs.
 */
import roaring from '../util/roaring.js'
import { portableSize, writePortable } from './portable-ids.js'
import { wordList } from './extract.js'

const { RoaringBitmap32 } = roaring

export interface PostingsPartition {
  /**
   * The words back to back in one string, word k ending at `wordEnds[k]` (UTF-16 units): one string crosses to a
   * worker many times faster than an array of a hundred thousand short ones.
   */
  words: string
  wordEnds: Uint32Array
  /** Word k's documents are `ids[offsets[k] .. offsets[k + 1])`, sorted (internal ids). */
  offsets: Uint32Array
  ids: Uint32Array
}

export interface EncodedPostings {
  /** The stored rows' values (see rows.ts) back to back: word k's ends at `ends[k]`. */
  values: Uint8Array
  ends: Uint32Array
  /** The partition's word indexes in sorted word order. */
  order: Uint32Array
}

/** A partition of `words` (their documents as `offsets` and `ids`, see PostingsPartition). */
export function postingsPartition(words: readonly string[], offsets: Uint32Array, ids: Uint32Array): PostingsPartition {
  const { text, ends } = wordList(words)
  return { words: text, wordEnds: ends, offsets, ids }
}

export function encodePostings(input: PostingsPartition): EncodedPostings {
  const { offsets, ids, wordEnds } = input
  const words: string[] = new Array(wordEnds.length)
  for (let k = 0, from = 0; k < words.length; from = wordEnds[k++]!) words[k] = input.words.slice(from, wordEnds[k])
  // Rows are written straight into one buffer (see rows.ts for their layout): a word's UTF-8 takes at most 3
  // bytes per UTF-16 unit, its ids their portable size; the few words dense enough for bitset containers are
  // serialized by roaring and may grow the buffer.
  let bound = 0
  for (let k = 0; k < words.length; k++) {
    const size = portableSize(ids, offsets[k]!, offsets[k + 1]!)
    bound += 2 + 3 * words[k]!.length + (size < 0 ? 0 : size)
  }
  let out = Buffer.allocUnsafe(bound)
  let view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  const ends = new Uint32Array(words.length)
  let at = 0
  for (let k = 0; k < words.length; k++) {
    const from = offsets[k]!
    const to = offsets[k + 1]!
    const size = portableSize(ids, from, to)
    const dense = size < 0 ? new RoaringBitmap32(ids.subarray(from, to)) : null
    const bits = dense?.serialize('portable')
    dense?.dispose()
    const room = at + 2 + 3 * words[k]!.length + (bits ? bits.byteLength : size)
    if (room > out.byteLength) {
      const larger = Buffer.allocUnsafe(Math.max(room, 2 * out.byteLength))
      out.copy(larger, 0, 0, at)
      out = larger
      view = new DataView(out.buffer, out.byteOffset, out.byteLength)
    }
    const wordBytes = out.write(words[k]!, at + 2, 'utf8')
    out.writeUInt16BE(wordBytes, at)
    at += 2 + wordBytes
    if (bits) {
      out.set(bits, at)
      at += bits.byteLength
    } else at = writePortable(ids, from, to, out, view, at)
    ends[k] = at
  }
  const order = Uint32Array.from(words.keys())
  order.sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0))
  return { values: out.subarray(0, at), ends, order }
}
