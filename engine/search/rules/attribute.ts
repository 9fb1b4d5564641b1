/**
 * attribute: the older rule that is attributeRank then wordPosition in one (still accepted in `rankingRules`):
 * field weight first, word position to break ties, one entry in the score details with both scores.
 */
import { C_FID, C_POS, C_POS_MAX } from './components.js'
import { fieldRank } from './attribute-rank.js'
import { positionRank } from './word-position.js'
import { globalScore, type RankingRule } from './rule.js'

export const attributeRule: RankingRule = {
  kind: 'attribute',
  name: 'attribute',
  cost: (c) => c[C_FID]! * (c[C_POS_MAX]! + 1) + c[C_POS]!,
  rank: (c, digit) => {
    const f = fieldRank(c)
    const p = positionRank(c)
    digit(f.rank, f.maxRank)
    digit(p.rank, p.maxRank)
  },
  details: (c, _docid, order) => {
    const f = fieldRank(c)
    const p = positionRank(c)
    return { order, attributeRankingOrderScore: f.rank / f.maxRank, queryWordDistanceScore: p.rank / p.maxRank, score: globalScore([f, p]) }
  },
}
