/**
 * The one shape every ranking rule has (milli's `RankingRule`): bucket sort drives a list of them without knowing
 * which rule it runs. A rule is a few plain functions of the document's cost components (`components.ts`) and its
 * internal id, built per query (a rule captures what the query gives it: the word count, a sort key):
 * - `cost`: lower ranks first; equal costs stay in one bucket for the next rule;
 * - `rank`: the rule's digits of the global `_rankingScore` (none for sort rules, which are not part of it);
 * - `details`: its entry in `_rankingScoreDetails`, built only for the hits returned.
 * They are functions rather than methods so that bucket sort can hold them in arrays and call them without a
 * property look-up per document.
 */
import type { Components } from './components.js'

export type RuleKind = 'words' | 'typo' | 'proximity' | 'attribute' | 'attributeRank' | 'wordPosition' | 'exactness' | 'sort' | 'geoSort'

/** milli's `Rank`: `rank` of `maxRank`, 1-based. */
export interface Rank {
  rank: number
  maxRank: number
}

/** Receives a rule's digits of the global score, most significant first. */
export type Digit = (rank: number, maxRank: number) => void

export interface RankingRule {
  readonly kind: RuleKind
  /** Its key in `_rankingScoreDetails` (`words`, `price:asc`, `_geoPoint(45.5, 3):desc`). */
  readonly name: string
  cost(c: Components, docid: number): number
  rank(c: Components, digit: Digit): void
  details(c: Components, docid: number, order: number): Record<string, unknown>
}

/** milli's `Rank::global_score`: the ranks as digits of a mixed-radix number, over its maximum. */
export function globalScore(ranks: readonly Rank[]): number {
  let rank = 1
  let max = 1
  for (const r of ranks) {
    rank = (rank - 1) * r.maxRank + r.rank
    max *= r.maxRank
  }
  return rank / max
}
