/**
 * proximity: query words close together first. Each pair of kept terms adjacent in the query costs 0 when the
 * second follows the first, 1 with one word between them or swapped, 2 with two between or swapped one apart, 3
 * otherwise (`byAttribute`: 0 when a field holds both, else 3); the rule's cost is their sum.
 */
import { C_PROX, C_PROX_MAX, type Components } from './components.js'
import type { RankingRule } from './rule.js'

const rank = (c: Components) => c[C_PROX_MAX]! + 1 - c[C_PROX]!

export const proximityRule: RankingRule = {
  kind: 'proximity',
  name: 'proximity',
  cost: (c) => c[C_PROX]!,
  rank: (c, digit) => digit(rank(c), c[C_PROX_MAX]! + 1),
  details: (c, _docid, order) => ({ order, score: rank(c) / (c[C_PROX_MAX]! + 1) }),
}
