/**
 * Word positions as the word position rule counts them (milli's `attribute_position` costs): a position in a field
 * is bucketed (exact below 16, then 24, then powers of two), and the cost grows with its distance to the term's
 * position in the query, from 0 to 10.
 */

export function bucketedPosition(p: number): number {
  if (p < 16) return p
  if (p < 24) return 24
  return 2 ** Math.ceil(Math.log2(p))
}

function costFromDistance(d: number): number {
  if (d <= 1) return d
  if (d <= 4) return 2
  if (d <= 7) return 3
  if (d <= 11) return 4
  if (d <= 16) return 5
  if (d <= 24) return 6
  if (d <= 64) return 7
  if (d <= 256) return 8
  if (d <= 1024) return 9
  return 10
}

/** Field positions (below 65,536) bucketed, and distances' costs (beyond the table: 10): ranking reads them per occurrence. */
const BUCKETED = Int32Array.from({ length: 0x10000 }, (_, p) => bucketedPosition(p))
const DISTANCE_COST = Uint8Array.from({ length: 1025 }, (_, d) => costFromDistance(d))

/** The cost of a term at `position` in its field and `queryPosition` in the query. */
export function positionCost(position: number, queryPosition: number): number {
  const b = position < 0x10000 ? BUCKETED[position]! : bucketedPosition(position)
  const d = b > queryPosition ? b - queryPosition : queryPosition - b
  return d <= 1024 ? DISTANCE_COST[d]! : 10
}

/** Distinct position costs. */
export const POSITION_COSTS = 11

/** The cost of every field position for a term first in the query (what per-position postings are kept for). */
export const FIRST_POSITION_COST = Uint8Array.from({ length: 0x10000 }, (_, p) => positionCost(p, 0))
