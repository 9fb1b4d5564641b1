/** Which rules a search runs, in which order, and how their digits make the global score. */
import t from 'tap'
import { globalScore, rankingRulesFor, scoreOf, evaluationOf } from '../../../../engine/search/rules/index.js'
import type { SortKey } from '../../../../engine/search/sort.js'
import { components as c } from './components.js'

const kinds = (rules: readonly { kind: string }[]) => rules.map((r) => r.kind)
const key = (name: string): SortKey => ({ name, ranks: new Int32Array(0), values: [] })

t.test('the default rules; words comes before what needs it, and only once', async (t) => {
  const rules = rankingRulesFor(['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'], 'last', [], 0, 2)
  t.same(kinds(rules), ['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'exactness'])
  t.same(kinds(rankingRulesFor(['typo', 'words'], 'last', [], 0, 2)), ['words', 'typo'], 'typo brings words in first')
  t.same(kinds(rankingRulesFor(['words', 'typo'], 'all', [], 0, 2)), ['typo'], 'with `all` the words rule cannot rank')
})

t.test('attribute, or attributeRank and wordPosition, but not both', async (t) => {
  t.same(kinds(rankingRulesFor(['attribute', 'attributeRank', 'wordPosition'], 'last', [], 0, 1)), ['words', 'attribute'])
  t.same(kinds(rankingRulesFor(['wordPosition', 'attribute'], 'last', [], 0, 1)), ['wordPosition', 'words'])
})

t.test('the sort parameter sits where `sort` is; custom rules where they are', async (t) => {
  const sorts = [key('a:asc'), key('b:desc'), key('rank:desc')]
  const rules = rankingRulesFor(['words', 'sort', 'typo', 'rank:desc'], 'last', sorts, 2, 1)
  t.same(rules.map((r) => r.name), ['words', 'a:asc', 'b:desc', 'typo', 'rank:desc'])
  t.same(kinds(rankingRulesFor(['sort', 'sort'], 'last', [key('a:asc')], 1, 1)), ['sort'], 'a second `sort` adds nothing')
})

t.test('the global score is the rules\' digits as a mixed-radix number; sort rules are left out', async (t) => {
  const rules = rankingRulesFor(['words', 'typo', 'sort'], 'last', [key('a:asc')], 1, 3)
  const comp = c({ skipped: 1, typo: 1, typoMax: 2 })
  t.equal(scoreOf(rules, comp), globalScore([{ rank: 2, maxRank: 3 }, { rank: 2, maxRank: 3 }]))
  const evaluation = evaluationOf(rules, comp, 0)
  t.same(Object.keys(evaluation.details), ['words', 'typo', 'a:asc'])
  t.equal(evaluation.score, scoreOf(rules, comp))
})
