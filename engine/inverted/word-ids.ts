/**
 * Word → id of an index's words (ids are the index's: given by the caller), open addressing over typed arrays with
 * the word interner's hash (word-interner.ts). Two reasons over a `Map`:
 * - a word is found from a range of a longer string without making a string of it: a batch's chunks come from the
 *   pool with their words in one string (extract.ts, `WordList`), and most of a chunk's words are known ones;
 *   making a string per word (msgpackr decoding tens of thousands per chunk) then hashing it for a Map was the
 *   largest part of the indexing thread's own work on GCIDE, and those short-lived strings its collections;
 * - an entry is 24 bytes in typed arrays and one string reference, against a Map's ~40 bytes the collector walks.
 */
import { hashRange, hashString } from './word-interner.js'

const EMPTY = -1

export class WordIds {
  /** Entry k: its word, hash and id (in the order entries were added). */
  private keys: string[] = []
  private hashes: Int32Array<ArrayBuffer> = new Int32Array(16)
  private ids: Int32Array<ArrayBuffer> = new Int32Array(16)
  /** Slot → entry, or EMPTY. */
  private slots = new Int32Array(32).fill(EMPTY)
  private mask = 31

  get size(): number {
    return this.keys.length
  }

  get(word: string): number | undefined {
    const k = this.find(word, hashString(word))
    return k === EMPTY ? undefined : this.ids[k]
  }

  /** The id of the word `text[start, end)` (code units as they are), found without making a string of it. */
  getRange(text: string, start: number, end: number): number | undefined {
    const h = hashRange(text, start, end)
    const { slots, mask, hashes, keys } = this
    const length = end - start
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = slots[slot]!
      if (k === EMPTY) return undefined
      if (hashes[k] !== h) continue
      const known = keys[k]!
      if (known.length !== length) continue
      let i = 0
      while (i < length && known.charCodeAt(i) === text.charCodeAt(start + i)) i++
      if (i === length) return this.ids[k]
    }
  }

  /** Give `word` the id `id` (a word already present gets the new one). */
  set(word: string, id: number): void {
    const h = hashString(word)
    const k = this.find(word, h)
    if (k !== EMPTY) {
      this.ids[k] = id
      return
    }
    const entry = this.keys.length
    if (entry === this.ids.length) {
      this.ids = grow(this.ids)
      this.hashes = grow(this.hashes)
    }
    this.keys.push(word)
    this.hashes[entry] = h
    this.ids[entry] = id
    // At most half full: probes stay short.
    if (2 * this.keys.length > this.slots.length) this.rehash()
    else this.slots[this.free(h)] = entry
  }

  /** A copy to change while this one is read. */
  clone(): WordIds {
    const out = new WordIds()
    out.keys = this.keys.slice()
    out.hashes = this.hashes.slice()
    out.ids = this.ids.slice()
    out.slots = this.slots.slice()
    out.mask = this.mask
    return out
  }

  /** [word, id] of every entry, in the order they were added. */
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (let k = 0; k < this.keys.length; k++) yield [this.keys[k]!, this.ids[k]!]
  }

  private find(word: string, h: number): number {
    const { slots, mask, hashes, keys } = this
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = slots[slot]!
      if (k === EMPTY || (hashes[k] === h && keys[k] === word)) return k
    }
  }

  /** The first empty slot of hash `h`'s probe sequence. */
  private free(h: number): number {
    let slot = h & this.mask
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask
    return slot
  }

  private rehash(): void {
    const size = this.slots.length * 2
    this.slots = new Int32Array(size).fill(EMPTY)
    this.mask = size - 1
    for (let k = 0; k < this.keys.length; k++) this.slots[this.free(this.hashes[k]!)] = k
  }
}

function grow(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2)
  out.set(array)
  return out
}
