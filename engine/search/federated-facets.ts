/**
 * Facets of a federated multi-search (`federation.facetsByIndex`, `federation.mergeFacets`), as Meilisearch's
 * `FederatedFacets` builds them (`search/federated/types.rs`):
 * - `facetsByIndex`: per index (in uid order), `{distribution, stats}` over every document matching one of that
 *   index's queries (nothing matches for an index named there but not queried);
 * - `mergeFacets`: the indexes' distributions summed value by value and their stats widened (least min, greatest
 *   max); each facet's values reordered by the facet's order (`faceting.sortFacetValuesBy` of the indexes: `alpha`
 *   by value, `count` by count, largest first) and cut at `maxValuesPerFacet` when given.
 */
import { compareBytes } from '../json/byte-order.js'
import type { Distribution, Stats } from '../facets/distribution.js'

export interface ComputedFacets {
  distribution: Distribution
  stats: Stats
}

/** The facet value order an index's settings give a facet. */
export type FacetOrder = 'alpha' | 'count'

export function mergeFacets(byIndex: ReadonlyMap<string, ComputedFacets>, orders: ReadonlyMap<string, FacetOrder>, maxValuesPerFacet: number | null): ComputedFacets {
  const sums = new Map<string, Map<string, number>>()
  const stats: Stats = {}
  for (const facets of byIndex.values()) {
    for (const [facet, values] of Object.entries(facets.distribution)) {
      let merged = sums.get(facet)
      if (!merged) sums.set(facet, (merged = new Map()))
      for (const [value, count] of Object.entries(values)) merged.set(value, (merged.get(value) ?? 0) + count)
    }
    for (const [facet, s] of Object.entries(facets.stats)) {
      const known = stats[facet]
      stats[facet] = known ? { min: Math.min(known.min, s.min), max: Math.max(known.max, s.max) } : { ...s }
    }
  }
  const distribution: Distribution = {}
  for (const facet of [...sums.keys()].sort(compareBytes)) {
    const entries = [...sums.get(facet)!]
    if ((orders.get(facet) ?? 'alpha') === 'count') entries.sort((a, b) => b[1] - a[1] || compareBytes(a[0], b[0]))
    else entries.sort((a, b) => compareBytes(a[0], b[0]))
    const kept = maxValuesPerFacet === null ? entries : entries.slice(0, maxValuesPerFacet)
    distribution[facet] = Object.fromEntries(kept)
  }
  const sortedStats: Stats = {}
  for (const facet of Object.keys(stats).sort(compareBytes)) sortedStats[facet] = stats[facet]!
  return { distribution, stats: sortedStats }
}
