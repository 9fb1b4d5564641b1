/** The sort rules: by an attribute's ranks or by distance, documents without a value last, never part of the score. */
import t from 'tap'
import { sortRule } from '../../../../engine/search/rules/sort.js'
import { geoSortRule } from '../../../../engine/search/rules/geo-sort.js'
import { MISSING_RANK } from '../../../../engine/facets/index.js'
import type { SortKey } from '../../../../engine/search/sort.js'
import { components as c, digits } from './components.js'

const none = c({})

t.test('attribute sort: by rank, missing values last, details show the value', async (t) => {
  const key: SortKey = { name: 'price:asc', ranks: Int32Array.from([1, 0, MISSING_RANK]), values: [5, 9] }
  const rule = sortRule(key)
  t.equal(rule.name, 'price:asc')
  t.same([0, 1, 2, 3].map((d) => rule.cost(none, d)), [1, 0, MISSING_RANK, MISSING_RANK], 'a document beyond the ranks has no value')
  t.same(digits(rule, none), [], 'not part of the global score')
  t.same(rule.details(none, 0, 2), { order: 2, value: 9 })
  t.same(rule.details(none, 2, 2), { order: 2, value: null })
})

t.test('geo sort: by distance, details show the point and the distance in meters', async (t) => {
  const key: SortKey = {
    name: '_geoPoint(0, 0):asc', ranks: Int32Array.from([0, MISSING_RANK, 1]), values: [],
    geo: { point: [0, 0], points: [[0, 1], [1, 1]], distances: [111_195.1, 157_249.4] },
  }
  const rule = geoSortRule(key)
  t.equal(rule.kind, 'geoSort')
  t.ok(rule.cost(none, 0) < rule.cost(none, 2) && rule.cost(none, 2) < rule.cost(none, 1))
  t.same(rule.details(none, 2, 0), { order: 0, value: { lat: 1, lng: 1 }, distance: 157_249 })
  t.same(rule.details(none, 1, 0), { order: 0 }, 'no `_geo`: no value')
})
