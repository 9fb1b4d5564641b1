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
  /** Scratch: the right term's occurrences. */
  rights: Int32Array
  /** The number of words the document has in a field (all its words, searched or not). */
  fieldWords(fid: number): number
}

/**
 * The proximity cost of a pair of terms adjacent in the query: 0 when the right follows the left, 1 when one word
 * sits between them or they are swapped, 2 for two words between or swapped one apart, else 3 (byAttribute: 0
 * when a field holds both). `leftWords`: the words of the left term (an ngram's last word is what the right follows).
 */
export function pairCost(m: MatchedDocument, left: number, right: number, leftWords: number): number {
  const { n, term, typo, flags, at, span, minTypo } = m
  const lt = minTypo[left]!
  const rt = minTypo[right]!
  // The right term's occurrences that count, gathered once (a document's query words can be many).
  const rights = (m.rights = grown(m.rights, n, 0))
  let r = 0
  for (let j = 0; j < n; j++) if (term[j] === right && typo[j] === rt && (flags[j]! & ROLE_LAST) === 0) rights[r++] = j
  if (r === 0) return 3
  let min = 3
  for (let i = 0; i < n; i++) {
    if (term[i] !== left || typo[i] !== lt || (flags[i]! & ROLE_FIRST) !== 0) continue
    const la = at[i]!
    const lastWord = (flags[i]! & ROLE_LAST) !== 0
    for (let k = 0; k < r; k++) {
      const j = rights[k]!
      const ra = at[j]!
      if (la >>> 16 !== ra >>> 16) continue
      if (m.byAttribute) return 0
      // Both halves of one ngram occurrence.
      if (span[i]! > 1 && span[j]! > 1 && la === ra) { if (min > 1) min = 1; continue }
      const d = (ra & 0xffff) - ((la & 0xffff) + (lastWord ? 0 : leftWords - 1))
      let c = 3
      if (d >= 1 && d <= 3) c = d - 1
      else if (d === -1) c = 1
      else if (d === -2) c = 2
      if (c < min) min = c
      if (min === 0) return 0
    }
  }
  return min
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
