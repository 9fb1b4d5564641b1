/**
 * The term dictionary: every indexed word, sorted, answering "words starting with X" (a binary-searched range) and
 * "words within 1 or 2 typos of X" (a Levenshtein walk over a trie of the words, built on first use after a
 * change, in flat typed arrays: a subtree whose every row of the edit-distance table is over the distance is
 * skipped whole, and a subtree's words are a contiguous range of the sorted list).
 *
 * Distances are Damerau–Levenshtein with adjacent transpositions (optimal string alignment), counted in UTF-16
 * units, as milli's Levenshtein automata count one edit per character (transpositions included).
 *
 * The thread that indexes holds the words as strings (a batch merges its new words in); `view()` hands other
 * threads the same words and trie in shared memory (word-arena.ts, trie.ts), and `fromView` is such a thread's
 * read-only dictionary, answering the same lookups and word → id.
 */
import { straight, type Steps } from '../util/turns.js'
import { buildTrie, buildTrieSteps, stringWords, type TrieArrays, type TrieWords } from './trie.js'
import { WordArena, type WordArenaView } from './word-arena.js'

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

/** A published dictionary as another thread is handed it. */
export interface DictionaryView {
  words: WordArenaView
  trie: TrieArrays
}

export class Dictionary {
  /** Sorted, unique (a reader's dictionary: empty, its words are in `arena`). */
  private words: string[]
  /** Built on first fuzzy lookup after a change (or handed over with a view). */
  private trie: TrieArrays | null = null
  /** The words in shared memory: built for `view()`, or a reader's own words. */
  private arena: WordArena | null = null
  /** A reader over a view: never changed. */
  private readonly reader: boolean
  /** See `viewTaken`. */
  private taken = false

  constructor(words: Iterable<string> = [], arena?: WordArena, trie?: TrieArrays) {
    this.words = [...new Set(words)].sort()
    this.reader = arena !== undefined
    if (arena) this.arena = arena
    if (trie) this.trie = trie
  }

  /** A read-only dictionary over a view handed over by another thread. */
  static fromView(view: DictionaryView): Dictionary {
    return new Dictionary([], WordArena.fromView(view.words), view.trie)
  }

  /**
   * The words and trie in shared memory, for readers on other threads (built on the first call after a change;
   * `idOf` gives each word's id).
   */
  view(idOf: (word: string) => number): DictionaryView {
    this.taken = true
    if (!this.arena) this.arena = WordArena.build(this.words, idOf)
    return { words: this.arena.view(), trie: this.trieOf() }
  }

  /** Whether `view()` was called: threads have been handed this dictionary (so they will want the next one). */
  get viewTaken(): boolean {
    return this.taken
  }

  /** Whether the trie and the shared words are built (a `view()` now costs nothing). */
  get viewBuilt(): boolean {
    return this.trie !== null && this.arena !== null
  }

  /** A word's id, for a reader's dictionary (undefined: not a word of it, or not a reader). */
  idOf(word: string): number | undefined {
    return this.reader ? this.arena!.idOf(word) : undefined
  }

  get size(): number {
    return this.reader ? this.arena!.length : this.words.length
  }

  /** Add words (merging sorted runs: O(n) for a batch of new words). */
  add(added: readonly string[]): void {
    if (added.length === 0) return
    if (this.reader) throw new Error('a dictionary read from a view is never changed')
    this.words = mergeSorted(this.words, [...added].sort())
    this.trie = null
    this.arena = null
  }

  /** The words, sorted (not to be changed: a dictionary's list is replaced, never edited). */
  get sorted(): readonly string[] {
    if (this.reader) throw new Error('a dictionary read from a view holds its words in shared memory')
    return this.words
  }

  /** A dictionary of words already sorted and unique (taken as they are). */
  static fromSorted(words: readonly string[]): Dictionary {
    const out = new Dictionary()
    out.words = words as string[]
    return out
  }

  /**
   * The same with its trie and shared words built, in steps that may pause: a batch prepares its next dictionary
   * so, before it publishes (finalize.ts). Built on first use instead, GCIDE's 345,000 words held the thread that
   * serves requests for ~250 ms at the first search after each publish that added a word.
   */
  static *preparedSteps(words: readonly string[], idOf: (word: string) => number): Steps<Dictionary> {
    const out = Dictionary.fromSorted(words)
    out.trie = yield* buildTrieSteps(stringWords(out.words))
    out.arena = yield* WordArena.buildSteps(out.words, idOf)
    return out
  }

  /** Words starting with `prefix` (the word itself included), in order; at most `limit`. */
  withPrefix(prefix: string, limit = Infinity): string[] {
    const out: string[] = []
    if (limit > 0) this.forEachWithPrefix(prefix, (w) => out.push(w) < limit)
    return out
  }

  /** Calls `fn` for each word starting with `prefix`; stops when it returns false. */
  forEachWithPrefix(prefix: string, fn: (word: string) => boolean | void): void {
    if (this.reader) {
      const arena = this.arena!
      for (let i = arena.lowerBound(prefix); i < arena.length; i++) if (!arena.startsWith(i, prefix) || fn(arena.at(i)) === false) break
      return
    }
    for (let i = lowerBound(this.words, prefix); i < this.words.length; i++) {
      const w = this.words[i]!
      if (!w.startsWith(prefix) || fn(w) === false) break
    }
  }

  private trieOf(): TrieArrays {
    if (!this.trie) this.trie = buildTrie(this.reader ? arenaWords(this.arena!) : stringWords(this.words))
    return this.trie
  }

  /**
   * Words within `maxDistance` edits of `query` (the query word itself excluded), in sorted order, with their
   * distance (see `FuzzyOptions`).
   */
  fuzzy(query: string, maxDistance: number, options: FuzzyOptions = {}): FuzzyMatch[] {
    const out: FuzzyMatch[] = []
    const m = query.length
    if (m === 0 || maxDistance <= 0 || this.size === 0) return out
    const trie = this.trieOf()
    const { unit, firstChild, nextSibling, lo, hi } = trie
    const words = this.words
    const arena = this.reader ? this.arena! : null
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
      const word = arena ? arena.at(index) : words[index]!
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

function arenaWords(arena: WordArena): TrieWords {
  return { count: arena.length, lengthOf: (i) => arena.wordLength(i), unitAt: (i, d) => arena.unit(i, d) }
}
