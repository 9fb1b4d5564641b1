/**
 * The term dictionary: every indexed word, sorted, answering "words starting with X" (a binary-searched range) and
 * "words within 1 or 2 typos of X" (a Levenshtein walk over the sorted words that shares the work of common
 * prefixes and skips every word below a prefix that is already too far, as a trie walk would).
 *
 * Distances are Damerau–Levenshtein with adjacent transpositions (optimal string alignment), counted in UTF-16
 * units, as milli's Levenshtein automata count one edit per character (transpositions included).
 */

/** A word found by a fuzzy lookup, with its distance to the query word. */
export interface FuzzyMatch {
  word: string
  distance: number
}

function lowerBound(words: readonly string[], key: string, from = 0, to = words.length): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (words[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The end of the run of words starting with `prefix`, from `from` (inside or at the start of that run). */
function prefixEnd(words: readonly string[], prefix: string, from: number): number {
  let lo = from
  let hi = words.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (words[mid]!.startsWith(prefix)) lo = mid + 1
    else hi = mid
  }
  return lo
}

export class Dictionary {
  /** Sorted, unique. */
  private words: string[]

  constructor(words: Iterable<string> = []) {
    this.words = [...new Set(words)].sort()
  }

  get size(): number {
    return this.words.length
  }

  /** Add words (merging sorted runs: O(n) for a batch of new words). */
  add(added: readonly string[]): void {
    if (added.length === 0) return
    const fresh = [...added].sort()
    const merged: string[] = new Array(this.words.length + fresh.length)
    let i = 0
    let j = 0
    let k = 0
    const old = this.words
    while (i < old.length || j < fresh.length) {
      const next = j >= fresh.length || (i < old.length && old[i]! <= fresh[j]!) ? old[i++]! : fresh[j++]!
      if (k === 0 || merged[k - 1] !== next) merged[k++] = next
    }
    merged.length = k
    this.words = merged
  }

  /** Words starting with `prefix` (the word itself included), in order; at most `limit`. */
  withPrefix(prefix: string, limit = Infinity): string[] {
    const start = lowerBound(this.words, prefix)
    const out: string[] = []
    for (let i = start; i < this.words.length && out.length < limit; i++) {
      const w = this.words[i]!
      if (!w.startsWith(prefix)) break
      out.push(w)
    }
    return out
  }

  /** Calls `fn` for each word starting with `prefix`; stops when it returns false. */
  forEachWithPrefix(prefix: string, fn: (word: string) => boolean | void): void {
    for (let i = lowerBound(this.words, prefix); i < this.words.length; i++) {
      const w = this.words[i]!
      if (!w.startsWith(prefix) || fn(w) === false) break
    }
  }

  /**
   * Words within `maxDistance` edits of `query` (the query word itself excluded). With `prefix`, a word matches when
   * one of its prefixes is within the distance (the distance reported is the smallest). With `sameFirst`, only words
   * whose first character is the query's are considered (milli's typo derivations keep the first letter).
   */
  fuzzy(query: string, maxDistance: number, options: { prefix?: boolean; sameFirst?: boolean; limit?: number } = {}): FuzzyMatch[] {
    const out: FuzzyMatch[] = []
    const m = query.length
    if (m === 0 || maxDistance <= 0) return out
    const limit = options.limit ?? Infinity
    const words = this.words
    let from = 0
    let to = words.length
    if (options.sameFirst) {
      const first = String.fromCharCode(query.charCodeAt(0))
      from = lowerBound(words, first)
      to = prefixEnd(words, first, from)
    }
    const q = new Uint16Array(m)
    for (let j = 0; j < m; j++) q[j] = query.charCodeAt(j)
    // rows[d] is the DP row after the first d characters of the current word; rows[0] is 0..m.
    const rows: Int32Array[] = [Int32Array.from({ length: m + 1 }, (_, j) => j)]
    // rowMin[d] = smallest value of rows[d]; best[d] = smallest "whole query vs a prefix of length ≤ d" (prefix mode)
    const rowMin: number[] = [0]
    const bestPrefix: number[] = [m]
    let prev = ''
    for (let i = from; i < to && out.length < limit; i++) {
      const word = words[i]!
      // Reuse the rows of the common prefix with the previous word.
      let common = 0
      const maxCommon = Math.min(prev.length, word.length)
      while (common < maxCommon && prev.charCodeAt(common) === word.charCodeAt(common)) common++
      let pruneAt = -1
      for (let d = common + 1; d <= word.length; d++) {
        let row = rows[d]
        if (!row) rows[d] = row = new Int32Array(m + 1)
        const above = rows[d - 1]!
        const c = word.charCodeAt(d - 1)
        row[0] = d
        let min = d
        for (let j = 1; j <= m; j++) {
          const cost = q[j - 1] === c ? 0 : 1
          let v = above[j - 1]! + cost
          const del = above[j]! + 1
          if (del < v) v = del
          const ins = row[j - 1]! + 1
          if (ins < v) v = ins
          if (d > 1 && j > 1 && c === q[j - 2] && word.charCodeAt(d - 2) === q[j - 1]) {
            const t = rows[d - 2]![j - 2]! + 1
            if (t < v) v = t
          }
          row[j] = v
          if (v < min) min = v
        }
        rowMin[d] = min
        bestPrefix[d] = Math.min(bestPrefix[d - 1]!, row[m]!)
        if (min > maxDistance) { pruneAt = d; break }
      }
      prev = word
      if (pruneAt !== -1) {
        // No extension of word[0, pruneAt) can come back within the distance: skip them all.
        const stem = word.slice(0, pruneAt)
        const end = prefixEnd(words, stem, i)
        // In prefix mode, a shorter prefix may already match: then every word below the stem does, at that distance.
        const reached = bestPrefix[pruneAt - 1]!
        if (options.prefix && reached <= maxDistance) {
          for (let k = i; k < end && out.length < limit; k++) if (words[k] !== query) out.push({ word: words[k]!, distance: reached })
        }
        i = end - 1
        prev = stem
        continue
      }
      const distance = options.prefix ? bestPrefix[word.length]! : rows[word.length]![m]!
      if (distance <= maxDistance && word !== query) out.push({ word, distance })
    }
    return out
  }
}
