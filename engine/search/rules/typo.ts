/** typo: fewer typos first (the sum over kept terms of their cheapest derivation: exact 0, a typo 1, ...). */
import { C_TYPO, C_TYPO_MAX, type Components } from './components.js'
import type { RankingRule } from './rule.js'

const rank = (c: Components) => c[C_TYPO_MAX]! + 1 - c[C_TYPO]!

export const typoRule: RankingRule = {
  kind: 'typo',
  name: 'typo',
  cost: (c) => c[C_TYPO]!,
  rank: (c, digit) => digit(rank(c), c[C_TYPO_MAX]! + 1),
  details: (c, _docid, order) => ({ order, typoCount: c[C_TYPO]!, maxTypoCount: c[C_TYPO_MAX]!, score: rank(c) / (c[C_TYPO_MAX]! + 1) }),
}
