/**
 * The ranking rules of a keyword search, in order (milli's `get_ranking_rules_for_query_graph_search`), and what
 * bucket sort asks of them all at once: a document's costs, its global score, its score details.
 */
import { customRule } from '../../facets/index.js'
import type { MatchingStrategy } from '../request.js'
import type { SortKey } from '../sort.js'
import type { Components } from './components.js'
import type { RankingRule } from './rule.js'
import { wordsRule } from './words.js'
import { typoRule } from './typo.js'
import { proximityRule } from './proximity.js'
import { attributeRule } from './attribute.js'
import { attributeRankRule } from './attribute-rank.js'
import { wordPositionRule } from './word-position.js'
import { exactnessRule } from './exactness.js'
import { sortRule } from './sort.js'
import { geoSortRule } from './geo-sort.js'
import { keywordScoreValues, type ScoreValue } from './score-values.js'

export type { RankingRule, RuleKind, Rank } from './rule.js'
export { globalScore } from './rule.js'
export { COMPONENTS } from './components.js'
export { compareScoreValues, keywordScoreValues, type ScoreValue } from './score-values.js'

/**
 * The rules for the index's `rankingRules`: words before any rule that needs it (unless the strategy is `all`,
 * where it cannot rank), `attribute` or the `attributeRank`/`wordPosition` pair but not both, the sort parameter's
 * criteria where `sort` sits and custom `attr:asc|desc` rules in place. `sorts` are the sort keys in that order.
 */
export function rankingRulesFor(settingsRules: readonly string[], strategy: MatchingStrategy, sorts: readonly SortKey[], sortParam: number, totalWords: number): RankingRule[] {
  const out: RankingRule[] = []
  let nextSort = 0
  const sortKey = () => sortRuleFor(sorts[nextSort++]!)
  const kinds = new Set<string>()
  const push = (rule: RankingRule) => { out.push(rule); kinds.add(rule.kind) }
  let words = strategy === 'all'
  const needWords = () => { if (!words) { push(wordsRule(totalWords)); words = true } }
  let sorted = false
  for (const rule of settingsRules) {
    switch (rule) {
      case 'words': needWords(); break
      case 'typo': needWords(); if (!kinds.has('typo')) push(typoRule); break
      case 'proximity': needWords(); if (!kinds.has('proximity')) push(proximityRule); break
      case 'exactness': needWords(); if (!kinds.has('exactness')) push(exactnessRule); break
      case 'attribute':
        needWords()
        if (!kinds.has('attribute') && !kinds.has('attributeRank') && !kinds.has('wordPosition')) push(attributeRule)
        break
      case 'attributeRank':
        if (!kinds.has('attribute') && !kinds.has('attributeRank')) push(attributeRankRule)
        break
      case 'wordPosition':
        if (!kinds.has('attribute') && !kinds.has('wordPosition')) push(wordPositionRule)
        break
      case 'sort':
        if (!sorted) for (let i = 0; i < sortParam; i++) push(sortKey())
        sorted = true
        break
      default:
        if (customRule(rule)) push(sortKey())
        break
    }
  }
  return out
}

/** The rule of one sort criterion: by distance to a point, or by an attribute's values. */
export function sortRuleFor(key: SortKey): RankingRule {
  return key.geo ? geoSortRule(key) : sortRule(key)
}

/** Each rule's cost for the document (lower first), written to `costs` from `at`. */
export function costsOf(costs: readonly RankingRule['cost'][], c: Components, out: Int32Array, at: number, docid: number): void {
  for (let r = 0; r < costs.length; r++) out[at + r] = costs[r]!(c, docid)
}

/** milli's `Rank::global_score` over the rules' ranks, without allocating. */
export function scoreOf(rules: readonly RankingRule[], c: Components): number {
  score.rank = 1
  score.max = 1
  for (const rule of rules) rule.rank(c, addDigit)
  return score.rank / score.max
}

const score = { rank: 1, max: 1 }
function addDigit(rank: number, max: number): void {
  score.rank = (score.rank - 1) * max + rank
  score.max *= max
}

/** A ranked hit's evaluation: its score and score details (built only for the hits returned). */
export interface Evaluation {
  score: number
  details: Record<string, unknown>
  /** What a merge with another search's hits compares (hybrid search); absent: nothing (placeholder hits). */
  values?: ScoreValue[]
}

export function evaluationOf(rules: readonly RankingRule[], c: Components, docid: number): Evaluation {
  const details: Record<string, unknown> = {}
  rules.forEach((rule, order) => { details[rule.name] = rule.details(c, docid, order) })
  return { score: scoreOf(rules, c), details, values: keywordScoreValues(rules, c, docid) }
}
