/**
 * The sorted words of a term dictionary in shared memory, for readers on other threads: their UTF-16 code units
 * end to end (`units`), where each word starts (`offsets`, one more than the words) and each word's id (`ids`).
 * UTF-16 units rather than UTF-8 bytes so that the order, the prefixes and the typo trie are exactly the ones of
 * JavaScript strings the dictionary is built with (UTF-8 byte order differs above U+FFFF). A word → id lookup is a
 * binary search (about 19 comparisons on GCIDE's 345,000 words) instead of a Map per thread.
 */
import { sharedArray } from '../util/shared.js'
import { straight, type Steps } from '../util/turns.js'

export interface WordArenaView {
  units: Uint16Array
  offsets: Uint32Array
  ids: Uint32Array
}

export class WordArena {
  constructor(readonly units: Uint16Array, readonly offsets: Uint32Array, readonly ids: Uint32Array) {}

  /** The arena of sorted, unique words; `idOf` gives each word's id. */
  static build(sorted: readonly string[], idOf: (word: string) => number): WordArena {
    return straight(WordArena.buildSteps(sorted, idOf))
  }

  /** `build` as steps that may pause every few thousand words. */
  static *buildSteps(sorted: readonly string[], idOf: (word: string) => number): Steps<WordArena> {
    let total = 0
    for (const w of sorted) total += w.length
    const units = sharedArray(Uint16Array, total)
    const offsets = sharedArray(Uint32Array, sorted.length + 1)
    const ids = sharedArray(Uint32Array, sorted.length)
    let at = 0
    for (let i = 0; i < sorted.length; i++) {
      if ((i & 4095) === 4095) yield
      const w = sorted[i]!
      for (let k = 0; k < w.length; k++) units[at + k] = w.charCodeAt(k)
      at += w.length
      offsets[i + 1] = at
      ids[i] = idOf(w)
    }
    return new WordArena(units, offsets, ids)
  }

  static fromView(view: WordArenaView): WordArena {
    return new WordArena(view.units, view.offsets, view.ids)
  }

  view(): WordArenaView {
    return { units: this.units, offsets: this.offsets, ids: this.ids }
  }

  get length(): number {
    return this.ids.length
  }

  /** The i-th word. */
  at(i: number): string {
    return String.fromCharCode.apply(null, this.units.subarray(this.offsets[i]!, this.offsets[i + 1]!) as unknown as number[])
  }

  wordLength(i: number): number {
    return this.offsets[i + 1]! - this.offsets[i]!
  }

  /** The d-th UTF-16 unit of the i-th word. */
  unit(i: number, d: number): number {
    return this.units[this.offsets[i]! + d]!
  }

  /** The i-th word compared with `key`, in string order (negative: before). */
  compare(i: number, key: string): number {
    const from = this.offsets[i]!
    const n = this.offsets[i + 1]! - from
    const m = key.length
    for (let k = 0, to = n < m ? n : m; k < to; k++) {
      const d = this.units[from + k]! - key.charCodeAt(k)
      if (d !== 0) return d
    }
    return n - m
  }

  /** Whether the i-th word starts with `prefix`. */
  startsWith(i: number, prefix: string): boolean {
    const from = this.offsets[i]!
    if (this.offsets[i + 1]! - from < prefix.length) return false
    for (let k = 0; k < prefix.length; k++) if (this.units[from + k] !== prefix.charCodeAt(k)) return false
    return true
  }

  /** The index of the first word not before `key`. */
  lowerBound(key: string): number {
    let lo = 0
    let hi = this.ids.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(mid, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The id of a word (undefined: not in the dictionary). */
  idOf(word: string): number | undefined {
    const i = this.lowerBound(word)
    return i < this.ids.length && this.compare(i, word) === 0 ? this.ids[i] : undefined
  }
}
