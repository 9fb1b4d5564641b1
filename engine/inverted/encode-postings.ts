/**
 * The postings of a partition of words encoded for storage, from their documents' ids: plain data in and out, so
 * it runs in a worker (the `encodePostings` job) while the indexing thread merges the words that need the index's
 * current postings. It also sorts the partition's words, so the term dictionary is merged from sorted runs.
 */
import roaring from 'roaring'
import { encodePosting } from './rows.js'

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
  const wordEnds = new Uint32Array(words.length)
  let end = 0
  for (let k = 0; k < words.length; k++) wordEnds[k] = end += words[k]!.length
  return { words: words.join(''), wordEnds, offsets, ids }
}

export function encodePostings(input: PostingsPartition): EncodedPostings {
  const { offsets, ids, wordEnds } = input
  const words: string[] = new Array(wordEnds.length)
  for (let k = 0, from = 0; k < words.length; from = wordEnds[k++]!) words[k] = input.words.slice(from, wordEnds[k])
  const parts: Buffer[] = new Array(words.length)
  const ends = new Uint32Array(words.length)
  let length = 0
  for (let k = 0; k < words.length; k++) {
    const bitmap = new RoaringBitmap32(ids.subarray(offsets[k]!, offsets[k + 1]!))
    parts[k] = encodePosting(words[k]!, bitmap)
    bitmap.dispose()
    length += parts[k]!.byteLength
    ends[k] = length
  }
  const order = Uint32Array.from(words.keys())
  order.sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0))
  return { values: Buffer.concat(parts, length), ends, order }
}
