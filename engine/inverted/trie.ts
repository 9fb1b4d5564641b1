/**
 * A trie of a dictionary's sorted words, for typo lookups (dictionary.ts): node 0 is the root; each node has its
 * UTF-16 unit, its first child and next sibling (children in sorted order), the index of the word ending there
 * (-1: none) and the range of word indexes below it. Flat typed arrays in shared memory: built once per published
 * dictionary and read in place by every search thread (`TrieArrays` is what a thread is handed).
 */
import { fillSteps, sharedCopySteps } from '../util/shared.js'
import { straight, type Steps } from '../util/turns.js'

export interface TrieArrays {
  unit: Uint16Array
  firstChild: Int32Array
  nextSibling: Int32Array
  word: Int32Array
  lo: Int32Array
  hi: Int32Array
  maxDepth: number
}

/** The words a trie is built from, sorted and unique: how many, each one's length, its d-th UTF-16 unit. */
export interface TrieWords {
  count: number
  lengthOf(i: number): number
  unitAt(i: number, d: number): number
}

/** Words given as strings. */
export function stringWords(words: readonly string[]): TrieWords {
  return { count: words.length, lengthOf: (i) => words[i]!.length, unitAt: (i, d) => words[i]!.charCodeAt(d) }
}

export function buildTrie(words: TrieWords): TrieArrays {
  return straight(buildTrieSteps(words))
}

/** `buildTrie` as steps that may pause every few thousand words (GCIDE's 345,000 words took ~200 ms in one go). */
export function* buildTrieSteps(words: TrieWords): Steps<TrieArrays> {
  let capacity = 1
  for (let i = 0; i < words.count; i++) capacity += words.lengthOf(i)
  // Nodes are at most the total length (shared prefixes make fewer): sized once, then trimmed.
  const unit = new Uint16Array(capacity)
  const firstChild = new Int32Array(capacity)
  const nextSibling = new Int32Array(capacity)
  const lastChild = new Int32Array(capacity)
  const word = new Int32Array(capacity)
  for (const array of [firstChild, nextSibling, lastChild, word]) yield* fillSteps(array, -1)
  const lo = new Int32Array(capacity)
  const hi = new Int32Array(capacity)
  let nodes = 1
  let maxDepth = 0
  // The path of the previous word: path[d] is the node at depth d.
  const path: number[] = [0]
  let prevLength = 0
  for (let index = 0; index < words.count; index++) {
    if ((index & 4095) === 4095) yield
    const length = words.lengthOf(index)
    let common = 0
    const max = Math.min(prevLength, length)
    while (common < max && words.unitAt(index - 1, common) === words.unitAt(index, common)) common++
    // Close the subtrees of the previous word below the common prefix.
    for (let d = prevLength; d > common; d--) hi[path[d]!] = index
    path.length = common + 1
    for (let d = common; d < length; d++) {
      const node = nodes++
      const parent = path[d]!
      unit[node] = words.unitAt(index, d)
      lo[node] = index
      if (lastChild[parent] === -1) firstChild[parent] = node
      else nextSibling[lastChild[parent]!] = node
      lastChild[parent] = node
      path.push(node)
    }
    word[path[length]!] = index
    if (length > maxDepth) maxDepth = length
    prevLength = length
  }
  for (let d = prevLength; d > 0; d--) hi[path[d]!] = words.count
  hi[0] = words.count
  return {
    unit: yield* sharedCopySteps(unit, nodes),
    firstChild: yield* sharedCopySteps(firstChild, nodes),
    nextSibling: yield* sharedCopySteps(nextSibling, nodes),
    word: yield* sharedCopySteps(word, nodes),
    lo: yield* sharedCopySteps(lo, nodes),
    hi: yield* sharedCopySteps(hi, nodes),
    maxDepth,
  }
}
