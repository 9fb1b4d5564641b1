/**
 * The constants of one set of kept terms (a words-rule bucket) that `Matcher.measure` reads for every document:
 * which terms are kept, their query positions and word counts, the adjacent pairs proximity scores, and the
 * most each rule's cost can be.
 */
import type { QueryPlan, Term } from './terms.js'

/** The constants of one set of kept terms (the words rule's bucket). */
export interface KeptInfo {
  /** Per term index: 1 when kept. */
  mask: Uint8Array
  /** The kept terms' indexes, in query order. */
  keptIndex: Int32Array
  /** Per term index: its query position and word count. */
  keptPosition: Int32Array
  keptWords: Int32Array
  /** Adjacent pairs of kept terms (query order): left term, right term, left word count (the proximity maximum is 3 per pair: `pairs.length`). */
  pairs: number[]
  typoMax: number
  fidMax: number
  posMax: number
  wordsMax: number
  /** Whether the kept terms can make an exact attribute (the query's own words from the first term, no gap). */
  exactEligible: boolean
}

export function keptInfo(plan: QueryPlan, kept: readonly Term[]): KeptInfo {
  const mask = new Uint8Array(plan.terms.length)
  for (const t of kept) mask[t.index] = 1
  const pairs: number[] = []
  for (let i = 0; i + 1 < kept.length; i++) {
    const a = kept[i]!
    const b = kept[i + 1]!
    // Only terms adjacent in the query are scored (a dropped word, stop word or hard separator breaks the chain).
    if (b.position === a.position + a.wordCount) pairs.push(a.index, b.index, a.wordCount)
  }
  let wordsMax = 0
  for (const t of kept) wordsMax += t.wordCount
  let exactEligible = kept.length > 0 && kept[0]!.index === 0
  for (let i = 0; i < kept.length && exactEligible; i++) if (kept[i]!.index !== i || !kept[i]!.originalIndexed) exactEligible = false
  const keptPosition = new Int32Array(plan.terms.length)
  const keptWords = new Int32Array(plan.terms.length)
  for (const t of kept) { keptPosition[t.index] = t.position; keptWords[t.index] = t.wordCount }
  return {
    mask,
    keptIndex: Int32Array.from(kept, (t) => t.index),
    keptPosition,
    keptWords,
    pairs,
    typoMax: maxTypoCost(plan, kept),
    fidMax: plan.maxWeight * wordsMax,
    posMax: 10 * kept.length,
    wordsMax,
    exactEligible,
  }
}

/** The most expensive typo path through the kept terms: each term alone, or an ngram for consecutive kept terms. */
function maxTypoCost(plan: QueryPlan, kept: readonly Term[]): number {
  const best = new Array<number>(kept.length + 1).fill(0)
  for (let i = 1; i <= kept.length; i++) {
    const t = kept[i - 1]!
    best[i] = best[i - 1]! + (t.isPhrase ? 0 : t.maxTypo)
    for (const g of plan.ngrams) {
      const first = i - g.n
      if (first < 0 || kept[first]!.index !== g.start) continue
      if (!kept.slice(first, i).every((x, k) => x.index === g.start + k)) continue
      best[i] = Math.max(best[i]!, best[first]! + g.maxTypo)
    }
  }
  return best[kept.length]!
}
