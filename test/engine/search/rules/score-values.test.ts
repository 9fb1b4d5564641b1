/**
 * The values hybrid search merges by (milli's `score_values` and `compare_scores`), and the levels of a semantic
 * search for the ranking rules (milli's `get_ranking_rules_for_vector`).
 */
import t from 'tap'
import { compareScoreValues, type ScoreValue } from '../../../../engine/search/rules/index.js'
import { semanticLevels } from '../../../../engine/search/semantic-sort.js'
import type { SortKey } from '../../../../engine/search/sort.js'

t.test('compareScoreValues', async (t) => {
  const s = (score: number): ScoreValue => ({ score })
  const r = (sortRank: number): ScoreValue => ({ sortRank })
  t.equal(compareScoreValues([s(0.9)], 0.5, [s(0.8)], 0.5), 1, 'higher weighted score first')
  t.equal(compareScoreValues([s(0.9)], 0.2, [s(0.8)], 0.8), -1, 'weights apply')
  t.equal(compareScoreValues([s(0.5)], 0.5, [s(0.5)], 0.5), 0, 'equal within epsilon')
  t.equal(compareScoreValues([r(1), s(0.1)], 0.5, [r(2), s(1)], 0.5), 1, 'a better sort value wins before scores')
  t.equal(compareScoreValues([r(2), s(0.9)], 0.5, [r(2), s(0.3)], 0.5), 1, 'equal sort values: the scores decide')
  t.equal(compareScoreValues([s(0.1)], 1, [r(0)], 1), 1, 'a score against a sort value wins...')
  t.equal(compareScoreValues([s(0)], 1, [r(0)], 1), -1, '...unless it is 0')
  t.equal(compareScoreValues([], 1, [s(0.1)], 1), -1, 'the hit whose values run out first loses')
  t.equal(compareScoreValues([s(0.1)], 1, [], 1), 1)
})

t.test('semanticLevels', async (t) => {
  const key = (name: string): SortKey => ({ name, ranks: new Int32Array(0), values: [] })
  const names = (levels: ReturnType<typeof semanticLevels>) => levels.map((l) => (l.kind === 'vector' ? 'vector' : l.rule.name))
  const rules = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness']
  t.same(names(semanticLevels(rules, [key('price:asc')], 1)), ['vector', 'price:asc'], 'the vector sort in place of the first relevancy rule')
  t.same(names(semanticLevels(['sort', ...rules.filter((r) => r !== 'sort')], [key('price:asc')], 1)), ['price:asc', 'vector'])
  t.same(names(semanticLevels(['rank:desc', ...rules], [key('rank:desc'), key('price:asc')], 1)), ['rank:desc', 'vector', 'price:asc'], 'custom rules in place')
  t.same(names(semanticLevels(['sort'], [key('price:asc')], 1)), ['price:asc'], 'no relevancy rule: no vector sort')
  t.same(names(semanticLevels(rules, [], 0)), ['vector'])
})
