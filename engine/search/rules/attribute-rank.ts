/**
 * attributeRank: documents whose query words sit in more important fields first (the order of
 * `searchableAttributes`; with `*` every field weighs the same). The cost sums, over kept terms, the weight of the
 * best field holding each.
 */
import { C_FID, C_FID_MAX, type Components } from './components.js'
import type { Rank, RankingRule } from './rule.js'

export const fieldRank = (c: Components): Rank => ({ rank: c[C_FID_MAX]! + 1 - c[C_FID]!, maxRank: c[C_FID_MAX]! + 1 })

export const attributeRankRule: RankingRule = {
  kind: 'attributeRank',
  name: 'attributeRank',
  cost: (c) => c[C_FID]!,
  rank: (c, digit) => digit(c[C_FID_MAX]! + 1 - c[C_FID]!, c[C_FID_MAX]! + 1),
  details: (c, _docid, order) => {
    const r = fieldRank(c)
    return { order, score: r.rank / r.maxRank }
  },
}
