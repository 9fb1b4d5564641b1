/**
 * Sorting by distance to a point (`_geoPoint(lat, lng):asc|desc`): documents without `_geo` last. Its details show
 * the document's point and its distance in meters. Not part of `_rankingScore`.
 */
import { MISSING_RANK } from '../../facets/index.js'
import { rankOf, type SortKey } from '../sort.js'
import type { RankingRule } from './rule.js'

export function geoSortRule(key: SortKey): RankingRule {
  const geo = key.geo!
  return {
    kind: 'geoSort',
    name: key.name,
    cost: (_c, docid) => rankOf(key, docid),
    rank: () => {},
    details: (_c, docid, order) => {
      const rank = rankOf(key, docid)
      if (rank === MISSING_RANK) return { order }
      const [lat, lng] = geo.points[rank]!
      return { order, value: { lat, lng }, distance: Math.round(geo.distances[rank]!) }
    },
  }
}
