/**
 * Each keyword ranking rule on its own, from hand-made cost components: its cost orders documents as the rule
 * means, its digits of the global score and its score details are milli's (`score_details.rs`).
 */
import t from 'tap'
import { wordsRule } from '../../../../engine/search/rules/words.js'
import { typoRule } from '../../../../engine/search/rules/typo.js'
import { proximityRule } from '../../../../engine/search/rules/proximity.js'
import { attributeRankRule } from '../../../../engine/search/rules/attribute-rank.js'
import { wordPositionRule } from '../../../../engine/search/rules/word-position.js'
import { attributeRule } from '../../../../engine/search/rules/attribute.js'
import { exactnessRule } from '../../../../engine/search/rules/exactness.js'
import { EXACT_MATCH, MATCHES_START, NO_EXACT_MATCH } from '../../../../engine/search/rules/components.js'
import { components as c, digits } from './components.js'

t.test('words: fewer dropped words first; rank = matched of all', async (t) => {
  const rule = wordsRule(3)
  t.ok(rule.cost(c({ skipped: 0 }), 0) < rule.cost(c({ skipped: 1 }), 0))
  t.same(digits(rule, c({ skipped: 1 })), [[2, 3]])
  t.same(rule.details(c({ skipped: 1 }), 0, 0), { order: 0, matchingWords: 2, maxMatchingWords: 3, score: 2 / 3 })
})

t.test('typo: fewer typos first; the maximum bounds the rank', async (t) => {
  t.ok(typoRule.cost(c({ typo: 0, typoMax: 2 }), 0) < typoRule.cost(c({ typo: 1, typoMax: 2 }), 0))
  t.same(digits(typoRule, c({ typo: 1, typoMax: 2 })), [[2, 3]])
  t.same(typoRule.details(c({ typo: 1, typoMax: 2 }), 0, 1), { order: 1, typoCount: 1, maxTypoCount: 2, score: 2 / 3 })
})

t.test('proximity: closer pairs first', async (t) => {
  t.ok(proximityRule.cost(c({ prox: 0, proxMax: 3 }), 0) < proximityRule.cost(c({ prox: 3, proxMax: 3 }), 0))
  t.same(digits(proximityRule, c({ prox: 1, proxMax: 6 })), [[6, 7]])
  t.same(proximityRule.details(c({ prox: 1, proxMax: 6 }), 0, 2), { order: 2, score: 6 / 7 })
})

t.test('attributeRank and wordPosition: better fields first, then earlier positions', async (t) => {
  t.ok(attributeRankRule.cost(c({ fid: 0, fidMax: 4 }), 0) < attributeRankRule.cost(c({ fid: 2, fidMax: 4 }), 0))
  t.same(digits(attributeRankRule, c({ fid: 2, fidMax: 4 })), [[3, 5]])
  t.same(attributeRankRule.details(c({ fid: 2, fidMax: 4 }), 0, 3), { order: 3, score: 3 / 5 })
  t.ok(wordPositionRule.cost(c({ pos: 1, posMax: 10 }), 0) < wordPositionRule.cost(c({ pos: 5, posMax: 10 }), 0))
  t.same(digits(wordPositionRule, c({ pos: 5, posMax: 10 })), [[6, 11]])
})

t.test('attribute: field weight first, position breaks ties; one detail with both scores', async (t) => {
  const better = c({ fid: 0, fidMax: 4, pos: 9, posMax: 10 })
  const worse = c({ fid: 1, fidMax: 4, pos: 0, posMax: 10 })
  t.ok(attributeRule.cost(better, 0) < attributeRule.cost(worse, 0), 'a better field beats a better position')
  t.ok(attributeRule.cost(c({ fid: 1, fidMax: 4, pos: 0, posMax: 10 }), 0) < attributeRule.cost(c({ fid: 1, fidMax: 4, pos: 3, posMax: 10 }), 0))
  t.same(digits(attributeRule, worse), [[4, 5], [11, 11]])
  t.same(attributeRule.details(worse, 0, 0), { order: 0, attributeRankingOrderScore: 4 / 5, queryWordDistanceScore: 1, score: (3 * 11 + 11) / 55 })
})

t.test('exactness: equal to the query, then starting with it, then by words found as themselves', async (t) => {
  const exact = c({ exactType: EXACT_MATCH, missing: 2, wordsMax: 3 })
  const start = c({ exactType: MATCHES_START, missing: 0, wordsMax: 3 })
  const none0 = c({ exactType: NO_EXACT_MATCH, missing: 0, wordsMax: 3 })
  const none1 = c({ exactType: NO_EXACT_MATCH, missing: 1, wordsMax: 3 })
  const costs = [exact, start, none0, none1].map((x) => exactnessRule.cost(x, 0))
  t.same([...costs].sort((a, b) => a - b), costs, 'in that order')
  t.same(exactnessRule.details(exact, 0, 4), { order: 4, matchType: 'exactMatch', score: 1 })
  t.same(exactnessRule.details(start, 0, 4), { order: 4, matchType: 'matchesStart', score: 2 / 3 })
  t.same(exactnessRule.details(none1, 0, 4), { order: 4, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 3, score: (0 * 4 + 3) / 12 })
  t.same(digits(exactnessRule, none1), [[1, 3], [3, 4]])
})
