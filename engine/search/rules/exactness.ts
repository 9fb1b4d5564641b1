/**
 * exactness: a field equal to the query first, then a field starting with it, then neither; ties broken by the
 * number of query words found as their own word (not through a typo, a prefix or a synonym).
 */
import { C_EXACT_TYPE, C_MISSING, C_WORDS_MAX, EXACT_MATCH, MATCHES_START, NO_EXACT_MATCH, type Components } from './components.js'
import { globalScore, type Rank, type RankingRule } from './rule.js'

const typeRank = (c: Components): Rank => ({ rank: c[C_EXACT_TYPE]!, maxRank: 3 })
const wordsRank = (c: Components): Rank => ({ rank: c[C_WORDS_MAX]! + 1 - c[C_MISSING]!, maxRank: c[C_WORDS_MAX]! + 1 })

export const exactnessRule: RankingRule = {
  kind: 'exactness',
  name: 'exactness',
  cost: (c) => (3 - c[C_EXACT_TYPE]!) * (c[C_WORDS_MAX]! + 1) + c[C_MISSING]!,
  rank: (c, digit) => {
    digit(c[C_EXACT_TYPE]!, 3)
    digit(c[C_WORDS_MAX]! + 1 - c[C_MISSING]!, c[C_WORDS_MAX]! + 1)
  },
  details: (c, _docid, order) => {
    const type = c[C_EXACT_TYPE]!
    const ra = typeRank(c)
    const matchType = type === EXACT_MATCH ? 'exactMatch' : type === MATCHES_START ? 'matchesStart' : 'noExactMatch'
    if (type !== NO_EXACT_MATCH) return { order, matchType, score: ra.rank / ra.maxRank }
    const rw = wordsRank(c)
    return { order, matchType, matchingWords: rw.rank - 1, maxMatchingWords: rw.maxRank - 1, score: globalScore([ra, rw]) }
  },
}
