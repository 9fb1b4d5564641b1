/** Merging the facets of a federated search (Meilisearch's `FederatedFacets::merge`). */
import t from 'tap'
import { mergeFacets, type ComputedFacets, type FacetOrder } from '../../../engine/search/federated-facets.js'

const byIndex = new Map<string, ComputedFacets>([
  ['movies', { distribution: { color: { blue: 3, red: 1 }, year: { 2000: 1 } }, stats: { year: { min: 2000, max: 2004 } } }],
  ['shirts', { distribution: { color: { blue: 2, green: 1, Red: 4 }, size: { 1: 1 } }, stats: { year: { min: 1990, max: 2001 }, size: { min: 1, max: 9 } } }],
])

t.test('counts summed value by value, stats widened, facets in byte order', async (t) => {
  const merged = mergeFacets(byIndex, new Map(), null)
  t.same(merged.distribution, { color: { Red: 4, blue: 5, green: 1, red: 1 }, size: { 1: 1 }, year: { 2000: 1 } })
  t.same(Object.keys(merged.distribution.color!), ['Red', 'blue', 'green', 'red'], 'alpha: byte order of the values')
  t.same(merged.stats, { size: { min: 1, max: 9 }, year: { min: 1990, max: 2004 } })
  t.same(Object.keys(merged.stats), ['size', 'year'])
})

t.test('count order (largest first, ties by value) and maxValuesPerFacet', async (t) => {
  const orders = new Map<string, FacetOrder>([['color', 'count']])
  const merged = mergeFacets(byIndex, orders, 2)
  t.same(Object.entries(merged.distribution.color!), [['blue', 5], ['Red', 4]])
  t.same(mergeFacets(byIndex, orders, 0).distribution.color, {})
  t.same(mergeFacets(new Map(), orders, null), { distribution: {}, stats: {} })
})
