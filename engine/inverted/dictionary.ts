/**
 * The term dictionary: every indexed word, sorted, answering "words starting with X" (a binary-searched range) and
 * "words within 1 or 2 typos of X" (a Levenshtein walk over a trie of the words, built on first use after a
 * change, in flat typed arrays: a subtree whose every row of the edit-distance table is over the distance is
 * skipped whole, and a subtree's words are a contiguous range of the sorted list).
 *
 * Distances are Damerau–Levenshtein with adjacent transpositions (optimal string alignment), counted in UTF-16
 * units, as milli's Levenshtein automata count one edit per character (transpositions included).
 */
import { straight, type Steps } from '../util/turns.js'

/** A word found by a fuzzy lookup, with its distance to the query word. */
export interface FuzzyMatch {
  word: string
  distance: number
}

export interface FuzzyOptions {
  /** A word matches when one of its prefixes is within the distance (the smallest distance is reported). */
  prefix?: boolean
  /** Only words whose first character is the query's (milli's typo derivations keep the first letter). */
  sameFirst?: boolean
  /** Only words whose first character is not the query's. */
  otherFirst?: boolean
  /** At most this many words per distance (index: distance); the walk stops once every quota is full. */
  quota?: readonly number[]
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

/** The union of two sorted lists of words, sorted and without duplicates. */
export function mergeSorted(old: readonly string[], fresh: readonly string[]): string[] {
  return straight(mergeSortedSteps(old, fresh))
}

/** The same, pausing every 16k words (a batch's dictionary is merged in turns, see finalize.ts). */
export function* mergeSortedSteps(old: readonly string[], fresh: readonly string[]): Steps<string[]> {
  if (fresh.length === 0) return old as string[]
  const merged: string[] = new Array(old.length + fresh.length)
  let i = 0
  let j = 0
  let k = 0
  let n = 0
  while (i < old.length || j < fresh.length) {
    if ((++n & 16383) === 0) yield
    const next = j >= fresh.length || (i < old.length && old[i]! <= fresh[j]!) ? old[i++]! : fresh[j++]!
    if (k === 0 || merged[k - 1] !== next) merged[k++] = next
  }
  merged.length = k
  return merged
}

/**
 * A trie of the sorted words: node 0 is the root; each node has its UTF-16 unit, its first child and next sibling
 * (children in sorted order), the word ending there (-1: none) and the range of word indexes below it.
 */
class Trie {
  readonly unit: Uint16Array
  readonly firstChild: Int32Array
  readonly nextSibling: Int32Array
  readonly word: Int32Array
  readonly lo: Int32Array
  readonly hi: Int32Array
  readonly maxDepth: number

  constructor(words: readonly string[]) {
    let capacity = 1
    for (const w of words) capacity += w.length
    // Nodes are at most the total length (shared prefixes make fewer): sized once, then trimmed.
    const unit = new Uint16Array(capacity)
    const firstChild = new Int32Array(capacity).fill(-1)
    const nextSibling = new Int32Array(capacity).fill(-1)
    const lastChild = new Int32Array(capacity).fill(-1)
    const word = new Int32Array(capacity).fill(-1)
    const lo = new Int32Array(capacity)
    const hi = new Int32Array(capacity)
    let nodes = 1
    let maxDepth = 0
    // The path of the previous word: path[d] is the node at depth d.
    const path: number[] = [0]
    let prev = ''
    words.forEach((w, index) => {
      let common = 0
      const max = Math.min(prev.length, w.length)
      while (common < max && prev.charCodeAt(common) === w.charCodeAt(common)) common++
      // Close the subtrees of the previous word below the common prefix.
      for (let d = prev.length; d > common; d--) hi[path[d]!] = index
      path.length = common + 1
      for (let d = common; d < w.length; d++) {
        const node = nodes++
        const parent = path[d]!
        unit[node] = w.charCodeAt(d)
        lo[node] = index
        if (lastChild[parent] === -1) firstChild[parent] = node
        else nextSibling[lastChild[parent]!] = node
        lastChild[parent] = node
        path.push(node)
      }
      word[path[w.length]!] = index
      if (w.length > maxDepth) maxDepth = w.length
      prev = w
    })
    for (let d = prev.length; d > 0; d--) hi[path[d]!] = words.length
    hi[0] = words.length
    this.unit = unit.slice(0, nodes)
    this.firstChild = firstChild.slice(0, nodes)
    this.nextSibling = nextSibling.slice(0, nodes)
    this.word = word.slice(0, nodes)
    this.lo = lo.slice(0, nodes)
    this.hi = hi.slice(0, nodes)
    this.maxDepth = maxDepth
  }
}

export class Dictionary {
  /** Sorted, unique. */
  private words: string[]
  /** Built on first fuzzy lookup after a change. */
  private trie: Trie | null = null

  constructor(words: Iterable<string> = []) {
    this.words = [...new Set(words)].sort()
  }

  get size(): number {
    return this.words.length
  }

  /** Add words (merging sorted runs: O(n) for a batch of new words). */
  add(added: readonly string[]): void {
    if (added.length === 0) return
    this.words = mergeSorted(this.words, [...added].sort())
    this.trie = null
  }

  /** The words, sorted (not to be changed: a dictionary's list is replaced, never edited). */
  get sorted(): readonly string[] {
    return this.words
  }

  /** A dictionary of words already sorted and unique (taken as they are). */
  static fromSorted(words: readonly string[]): Dictionary {
    const out = new Dictionary()
    out.words = words as string[]
    return out
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

  private trieOf(): Trie {
    if (!this.trie) this.trie = new Trie(this.words)
    return this.trie
  }

  /**
   * Words within `maxDistance` edits of `query` (the query word itself excluded), in sorted order, with their
   * distance (see `FuzzyOptions`).
   */
  fuzzy(query: string, maxDistance: number, options: FuzzyOptions = {}): FuzzyMatch[] {
    const out: FuzzyMatch[] = []
    const m = query.length
    if (m === 0 || maxDistance <= 0 || this.words.length === 0) return out
    const trie = this.trieOf()
    const { unit, firstChild, nextSibling, lo, hi } = trie
    const words = this.words
    const prefix = options.prefix === true
    const quota = options.quota
    const taken = [0, 0, 0, 0]
    let open = 0
    if (quota) for (let d = 1; d <= maxDistance; d++) if ((quota[d] ?? Infinity) > 0) open++
    const q = new Uint16Array(m)
    for (let j = 0; j < m; j++) q[j] = query.charCodeAt(j)
    const width = m + 1
    // Above the distance: every cell outside the band.
    const far = maxDistance + 1
    const depthCap = trie.maxDepth + 1
    // rows[d * width + j]: the edit distance between the first d units of the path and the first j of the query.
    const rows = new Int32Array(depthCap * width)
    for (let j = 0; j <= m; j++) rows[j] = j
    // best[d]: the smallest distance of the whole query to a prefix of the path of length ≤ d (prefix mode).
    const best = new Int32Array(depthCap)
    best[0] = m
    const path = new Uint16Array(depthCap)
    /** Record a match; false once every quota is full. */
    const emit = (index: number, distance: number): boolean => {
      const word = words[index]!
      if (word === query) return true
      if (quota) {
        const limit = quota[distance] ?? Infinity
        if (taken[distance]! >= limit) return true
        if (++taken[distance]! === limit && --open === 0) { out.push({ word, distance }); return false }
      }
      out.push({ word, distance })
      return true
    }
    // Depth-first, children in order, without a stack: pathNode[d] is the node at depth d of the current path.
    const pathNode = new Int32Array(depthCap)
    const firstUnit = q[0]!
    /** The first child of the root to visit from `node` on (sameFirst / otherFirst filter). */
    const rootFrom = (node: number): number => {
      for (let c = node; c !== -1; c = nextSibling[c]!) {
        if (options.sameFirst ? unit[c] === firstUnit : !(options.otherFirst && unit[c] === firstUnit)) return c
        if (options.sameFirst && unit[c]! > firstUnit) return -1
      }
      return -1
    }
    let d = 1
    let node = rootFrom(firstChild[0]!)
    for (;;) {
      if (node === -1) {
        // Climb to the next sibling of an ancestor.
        d--
        if (d === 0) break
        const sibling = nextSibling[pathNode[d]!]!
        node = d === 1 ? (options.sameFirst ? -1 : rootFrom(sibling)) : sibling
        continue
      }
      pathNode[d] = node
      const c = unit[node]!
      path[d] = c
      const row = d * width
      const above = row - width
      // Only the band |j − d| ≤ maxDistance can stay within the distance: the cells around it hold `far`.
      const bandLo = d - maxDistance > 1 ? d - maxDistance : 1
      const bandHi = d + maxDistance < m ? d + maxDistance : m
      rows[row] = d
      if (bandLo > 1 && bandLo <= m + 1) rows[row + bandLo - 1] = far
      if (bandHi < m) rows[row + bandHi + 1] = far
      let min = d <= maxDistance ? d : far
      for (let j = bandLo; j <= bandHi; j++) {
        let v = rows[above + j - 1]! + (q[j - 1] === c ? 0 : 1)
        const del = rows[above + j]! + 1
        if (del < v) v = del
        const ins = rows[row + j - 1]! + 1
        if (ins < v) v = ins
        if (d > 1 && j > 1 && c === q[j - 2] && path[d - 1] === q[j - 1]) {
          const t = rows[row - 2 * width + j - 2]! + 1
          if (t < v) v = t
        }
        rows[row + j] = v
        if (v < min) min = v
      }
      const whole = m <= bandHi ? rows[row + m]! : far
      const reached = best[d - 1]!
      const bestHere = whole < reached ? whole : reached
      best[d] = bestHere
      if (min > maxDistance) {
        // No extension can come back within the distance. In prefix mode, a shorter prefix may already match:
        // then every word below does, at that distance.
        if (prefix && reached <= maxDistance) {
          for (let k = lo[node]!, end = hi[node]!; k < end; k++) if (!emit(k, reached)) return out
        }
        node = d === 1 ? (options.sameFirst ? -1 : rootFrom(nextSibling[node]!)) : nextSibling[node]!
        continue
      }
      const w = trie.word[node]!
      if (w !== -1) {
        const distance = prefix ? bestHere : whole
        if (distance <= maxDistance && !emit(w, distance)) return out
      }
      const child = firstChild[node]!
      if (child !== -1) {
        d++
        node = child
      } else {
        node = d === 1 ? (options.sameFirst ? -1 : rootFrom(nextSibling[node]!)) : nextSibling[node]!
      }
    }
    return out
  }
}
