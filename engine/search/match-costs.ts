/**
 * The proximity and exactness costs of one matched document (search/matcher.ts found its occurrences): the two
 * components that compare occurrences with each other rather than take a minimum over them.
 */
import { grown } from '../util/typed.js'
import { EXACT_MATCH, MATCHES_START, NO_EXACT_MATCH } from './rules/components.js'
import type { Term } from './terms.js'

/** Occurrence flags: the term's own word; a phrase's first / last word. */
export const EXACT = 1
export const ROLE_FIRST = 2
export const ROLE_LAST = 4

/** A document's occurrences as the matcher holds them (occurrence `i < n`; see `Matcher`). */
export interface MatchedDocument {
  readonly n: number
  readonly term: Int32Array
  readonly at: Uint32Array
  readonly typo: Int32Array
  readonly span: Int32Array
  readonly flags: Uint8Array
  /** Per term, the cheapest typo among its occurrences (set by `measure` first). */
  readonly minTypo: Int32Array
  readonly byAttribute: boolean
  /** The number of words the document has in a field (all its words, searched or not). */
  fieldWords(fid: number): number
}

/**
 * The proximity cost of a pair of terms adjacent in the query: 0 when the right follows the left, 1 when one word
 * sits between them or they are swapped, 2 for two words between or swapped one apart, else 3 (byAttribute: 0
 * when a field holds both). `leftWords`: the words of the left term (an ngram's last word is what the right follows).
 *
 * Every pair of a left and a right occurrence is a candidate, so comparing all of them costs their product: in a
 * long record two frequent words (a man page's `the` and `of`) are hundreds of occurrences each. Past a small
 * product the occurrences are compared as two sorted lists of positions instead, each right occurrence against the
 * few left positions within reach (`sweptCost`): the same minimum over the same pairs.
 */
export function pairCost(m: MatchedDocument, left: number, right: number, leftWords: number): number {
  const { n, term, typo, flags, span, minTypo } = m
  const lt = minTypo[left]!
  const rt = minTypo[right]!
  // Each side's occurrences that count, gathered once (a document's query words can be many).
  pairScratch.rights = grown(pairScratch.rights, n, 0)
  pairScratch.lefts = grown(pairScratch.lefts, n, 0)
  const { rights, lefts } = pairScratch
  let r = 0
  let l = 0
  // An ngram occurrence pairs with the other half of itself (see `pairedCost`): such documents keep that path.
  let ngrams = false
  for (let j = 0; j < n; j++) {
    const t = term[j]!
    if (t === right && typo[j] === rt && (flags[j]! & ROLE_LAST) === 0) {
      rights[r++] = j
      if (span[j]! > 1) ngrams = true
    }
    if (t === left && typo[j] === lt && (flags[j]! & ROLE_FIRST) === 0) {
      lefts[l++] = j
      if (span[j]! > 1) ngrams = true
    }
  }
  if (r === 0 || l === 0) return 3
  if (l * r <= SWEEP_MIN_PAIRS || ngrams || m.byAttribute) return pairedCost(m, l, r, leftWords)
  return sweptCost(m, l, r, leftWords)
}

/** Below this many candidate pairs, comparing every pair is cheaper than sorting (and allocates nothing more). */
const SWEEP_MIN_PAIRS = 64

/** Scratch of `pairCost` (searches are synchronous): occurrence indexes, then sortable positions. */
const pairScratch = {
  rights: new Int32Array(64),
  lefts: new Int32Array(64),
  rightKeys: new Float64Array(64),
  leftKeys: new Float64Array(64),
}

/** Every pair of the gathered left and right occurrences compared. */
function pairedCost(m: MatchedDocument, l: number, r: number, leftWords: number): number {
  const { flags, at, span } = m
  const { rights, lefts } = pairScratch
  let min = 3
  for (let a = 0; a < l; a++) {
    const i = lefts[a]!
    const la = at[i]!
    const lastWord = (flags[i]! & ROLE_LAST) !== 0
    for (let k = 0; k < r; k++) {
      const j = rights[k]!
      const ra = at[j]!
      if (la >>> 16 !== ra >>> 16) continue
      if (m.byAttribute) return 0
      // Both halves of one ngram occurrence.
      if (span[i]! > 1 && span[j]! > 1 && la === ra) { if (min > 1) min = 1; continue }
      const c = distanceCost((ra & 0xffff) - ((la & 0xffff) + (lastWord ? 0 : leftWords - 1)))
      if (c < min) min = c
      if (min === 0) return 0
    }
  }
  return min
}

/**
 * The same minimum from sorted positions: a left occurrence's key is its field and the position the right one is
 * measured from (its last word's), a right one's its field and position; a field's keys are 2^17 apart from the
 * next field's, more than any position plus an ngram's words, so keys within reach (−2 … +3) share a field.
 */
function sweptCost(m: MatchedDocument, l: number, r: number, leftWords: number): number {
  const { flags, at } = m
  pairScratch.leftKeys = grown(pairScratch.leftKeys, l, 0)
  pairScratch.rightKeys = grown(pairScratch.rightKeys, r, 0)
  const { rights, lefts, leftKeys, rightKeys } = pairScratch
  for (let a = 0; a < l; a++) {
    const i = lefts[a]!
    const la = at[i]!
    leftKeys[a] = (la >>> 16) * FIELD_SPAN + (la & 0xffff) + ((flags[i]! & ROLE_LAST) !== 0 ? 0 : leftWords - 1)
  }
  for (let k = 0; k < r; k++) {
    const ra = at[rights[k]!]!
    rightKeys[k] = (ra >>> 16) * FIELD_SPAN + (ra & 0xffff)
  }
  const lk = sortedPrefix(leftKeys, l)
  const rk = sortedPrefix(rightKeys, r)
  let min = 3
  let from = 0
  for (let k = 0; k < r; k++) {
    const key = rk[k]!
    while (from < l && lk[from]! < key - 3) from++
    for (let a = from; a < l; a++) {
      const d = key - lk[a]!
      if (d < -2) break
      const c = distanceCost(d)
      if (c < min) { min = c; if (min === 0) return 0 }
    }
  }
  return min
}

/** Keys of one field are below the next field's: positions are 16 bits, plus an ngram's few words. */
const FIELD_SPAN = 1 << 17

/** The first `n` keys in ascending order (sorted in place only when they are not already: records are in order). */
function sortedPrefix(keys: Float64Array, n: number): Float64Array {
  const view = keys.subarray(0, n)
  for (let i = 1; i < n; i++) if (view[i - 1]! > view[i]!) return view.sort()
  return view
}

/** The cost of a right word `d` positions after the left one (negative: before it). */
function distanceCost(d: number): number {
  if (d >= 1 && d <= 3) return d - 1
  if (d === -1) return 1
  if (d === -2) return 2
  return 3
}

/**
 * Exactness by field (milli's `exact_attribute.rs`): a field equal to the kept terms (`EXACT_MATCH`), a field
 * starting with them (`MATCHES_START`), or neither; each term's own word, in query order from the field's start.
 */
export function exactAttribute(m: MatchedDocument, kept: readonly Term[], span: number): number {
  const { n, term, flags, at } = m
  const first = kept[0]!.index
  let result = NO_EXACT_MATCH
  // Candidate fields: those holding the first term's own word at the start.
  for (let i = 0; i < n; i++) {
    if (term[i] !== first || (flags[i]! & EXACT) === 0 || (flags[i]! & ROLE_LAST) !== 0 || (at[i]! & 0xffff) !== 0) continue
    const fid = at[i]! >>> 16
    let all = true
    for (let k = 1; k < kept.length && all; k++) {
      const t = kept[k]!
      const want = t.position - kept[0]!.position
      let found = false
      for (let j = 0; j < n && !found; j++) {
        found = term[j] === t.index && (flags[j]! & EXACT) !== 0 && (flags[j]! & ROLE_LAST) === 0 && at[j]! >>> 16 === fid && (at[j]! & 0xffff) === want
      }
      all = found
    }
    if (!all) continue
    if (m.fieldWords(fid) === span) return EXACT_MATCH
    result = MATCHES_START
  }
  return result
}
