/**
 * Sorting by an attribute: a criterion of the `sort` parameter (in the place of the `sort` rule) or a custom
 * `attr:asc|desc` ranking rule. Its cost is the document's rank among the attribute's values (numbers before
 * strings in both directions, documents without a value last, see `search/sort.ts`). Not part of `_rankingScore`.
 */
import { MISSING_RANK } from '../../facets/index.js'
import { rankOf, type SortKey } from '../sort.js'
import type { RankingRule } from './rule.js'

export function sortRule(key: SortKey): RankingRule {
  return {
    kind: 'sort',
    name: key.name,
    cost: (_c, docid) => rankOf(key, docid),
    rank: () => {},
    details: (_c, docid, order) => {
      const rank = rankOf(key, docid)
      return rank === MISSING_RANK ? { order, value: null } : { order, value: key.values[rank] }
    },
  }
}
