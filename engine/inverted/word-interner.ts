/**
 * The words of an extracted chunk, each numbered the first time it is seen (see extract.ts).
 *
 * A word comes either as a string or as a range of the text being tokenized (the tokenizer's plain ASCII words, see
 * `Tokenizer.forEachWord`), read lowercased. A range whose word is already known is found without making a string:
 * most of a long text's words are repeats, and a string per occurrence (a slice, then its lowercase copy, then a hash
 * of it for a Map) was half of extraction's time on real text. Open addressing over a power-of-two table; the hash
 * is FNV-1a over the word's UTF-16 code units, the same for both forms of a word, so both find the same number.
 */
const EMPTY = -1
const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** FNV-1a of a string's code units. */
export function hashString(word: string): number {
  return hashRange(word, 0, word.length)
}

/** FNV-1a of the code units `text[start, end)`: `hashString` of that word, without making it. */
export function hashRange(text: string, start: number, end: number): number {
  let h = FNV_OFFSET
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  // A 32-bit integer even for no units (the offset basis is above 2^31): hashes are kept in Int32Arrays.
  return h | 0
}

/** An ASCII code unit lowercased (A-Z to a-z), any other unchanged. */
const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c)

export class WordInterner {
  /** The words by number, in the order they were first seen. */
  readonly words: string[] = []
  private hashes: Int32Array
  /** Slot → word number, or EMPTY. */
  private slots: Int32Array
  private mask: number

  constructor(capacity = 1024) {
    let size = 16
    while (size < capacity * 2) size *= 2
    this.slots = new Int32Array(size).fill(EMPTY)
    this.mask = size - 1
    this.hashes = new Int32Array(Math.max(16, capacity))
  }

  /** The number of `word`. */
  idOf(word: string): number {
    const h = hashString(word)
    const { slots, mask, hashes, words } = this
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot]!
      if (id === EMPTY) return this.add(word, h, slot)
      if (hashes[id] === h && words[id] === word) return id
    }
  }

  /** The number of the word `text[start, end)` lowercased (ASCII letters only change). */
  idOfRange(text: string, start: number, end: number): number {
    let h = FNV_OFFSET
    for (let i = start; i < end; i++) h = Math.imul(h ^ lower(text.charCodeAt(i)), FNV_PRIME)
    const { slots, mask, hashes, words } = this
    const length = end - start
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot]!
      if (id === EMPTY) return this.add(text.slice(start, end).toLowerCase(), h, slot)
      if (hashes[id] !== h) continue
      const known = words[id]!
      if (known.length !== length) continue
      let k = 0
      while (k < length && known.charCodeAt(k) === lower(text.charCodeAt(start + k))) k++
      if (k === length) return id
    }
  }

  private add(word: string, h: number, slot: number): number {
    const id = this.words.length
    this.words.push(word)
    if (id === this.hashes.length) {
      const grown = new Int32Array(id * 2)
      grown.set(this.hashes)
      this.hashes = grown
    }
    this.hashes[id] = h
    this.slots[slot] = id
    // At most half full: probes stay short.
    if (2 * this.words.length > this.slots.length) this.rehash()
    return id
  }

  private rehash(): void {
    const size = this.slots.length * 2
    const slots = new Int32Array(size).fill(EMPTY)
    const mask = size - 1
    for (let id = 0; id < this.words.length; id++) {
      let slot = this.hashes[id]! & mask
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask
      slots[slot] = id
    }
    this.slots = slots
    this.mask = mask
  }
}
