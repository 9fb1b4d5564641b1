/**
 * wordPosition: documents whose query words come earlier in their fields first. The cost sums, over kept terms, a
 * cost that grows with the distance between the term's (bucketed) position in its best field and its position in
 * the query (`inverted/positions.ts`).
 */
import { C_POS, C_POS_MAX, type Components } from './components.js'
import type { Rank, RankingRule } from './rule.js'

export const positionRank = (c: Components): Rank => ({ rank: c[C_POS_MAX]! + 1 - c[C_POS]!, maxRank: c[C_POS_MAX]! + 1 })

export const wordPositionRule: RankingRule = {
  kind: 'wordPosition',
  name: 'wordPosition',
  cost: (c) => c[C_POS]!,
  rank: (c, digit) => digit(c[C_POS_MAX]! + 1 - c[C_POS]!, c[C_POS_MAX]! + 1),
  details: (c, _docid, order) => {
    const r = positionRank(c)
    return { order, score: r.rank / r.maxRank }
  },
}
