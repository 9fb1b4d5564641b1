/**
 * Sorting: the `sort` search parameter (`attr:asc`, `_geoPoint(lat, lng):desc`) in the place of the `sort` ranking
 * rule, and custom `attr:asc|desc` ranking rules.
 *
 * Each criterion becomes a per-document rank (`SortKey.ranks`, lower first) that the bucket sort compares like any
 * other rule's cost: documents with equal values stay in one bucket for the rules after it. Field ranks come from
 * the facet index (numbers before strings in both directions, documents without a value last); geo ranks order
 * documents by distance to the point (documents without `_geo` last). Sort rules are not part of
 * `_rankingScore`; `_rankingScoreDetails` shows each one's value.
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import { badLatitude, badLongitude, distanceMeters, formatRustF64, isFacetedBy } from '../filter/index.js'
import { isRustFloat } from '../filter/evaluate.js'
import { customRule, MISSING_RANK, type FacetIndex } from '../facets/index.js'
import type { Settings } from '../settings/index.js'

export type SortCriterion =
  | { kind: 'field'; field: string; ascending: boolean }
  | { kind: 'geo'; point: [number, number]; ascending: boolean }

/** A criterion ready to rank documents. */
export interface SortKey {
  /** The name in `_rankingScoreDetails` (`price:asc`, `_geoPoint(45.5, 3):desc`). */
  name: string
  ranks: Int32Array
  /** Field keys: the value behind each rank. */
  values: readonly (number | string)[]
  /** Geo keys: the point sorted around, and each rank's point and distance in meters. */
  geo?: { point: [number, number]; points: readonly [number, number][]; distances: readonly number[] }
}

const RESERVED = ['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox']

function rustF64(s: string): number | null {
  const t = s.trim()
  if (!isRustFloat(t)) return null
  const lower = t.toLowerCase().replace(/^\+/, '')
  if (lower === 'inf' || lower === 'infinity') return Infinity
  if (lower === '-inf' || lower === '-infinity') return -Infinity
  if (lower.endsWith('nan')) return NaN
  return Number(t)
}

/** One criterion of the `sort` parameter (milli's `AscDesc::from_str`, with `SortError`'s messages). */
export function parseSortCriterion(text: string, code: ErrorCode): SortCriterion {
  const fail = (message: string) => new TesseraError(code, message)
  const colon = text.lastIndexOf(':')
  const direction = colon < 0 ? '' : text.slice(colon + 1)
  if (direction !== 'asc' && direction !== 'desc') {
    throw fail(`Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${text}\`.`)
  }
  const member = text.slice(0, colon)
  const ascending = direction === 'asc'
  const badGeoUsage = () => fail(`Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${member}\`.`)
  if (member.startsWith('_geoPoint(') && member.endsWith(')')) {
    const inner = member.slice('_geoPoint('.length, -1)
    const comma = inner.indexOf(',')
    if (comma < 0) throw badGeoUsage()
    const lat = rustF64(inner.slice(0, comma))
    const lng = rustF64(inner.slice(comma + 1))
    if (lat === null || lng === null) throw badGeoUsage()
    if (!(lat >= -90 && lat <= 90)) throw fail(badLatitude(lat))
    if (!(lng >= -180 && lng <= 180)) throw fail(badLongitude(lng))
    return { kind: 'geo', point: [lat, lng], ascending }
  }
  if (RESERVED.includes(member) || ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('].some((p) => member.startsWith(p))) {
    if (member.startsWith('_geoPoint')) throw badGeoUsage()
    if (member === '_geo') throw fail('`_geo` is a reserved keyword and thus can\'t be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.')
    for (const name of ['_geoRadius', '_geoBoundingBox']) {
      if (member.startsWith(name)) throw fail(`\`${name}\` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.`)
    }
    throw fail(`\`${member}\` is a reserved keyword and thus can't be used as a sort expression.`)
  }
  return { kind: 'field', field: member, ascending }
}

export function parseSort(sort: readonly string[] | null, code: ErrorCode): SortCriterion[] {
  return (sort ?? []).map((s) => parseSortCriterion(s, code))
}

/**
 * milli's checks of a search's sort: every field sortable (`_geo` for geo points), then a `sort` ranking rule
 * (not for the documents routes, which sort without ranking: `requireSortRule` false).
 * Sortable attributes out of `displayedAttributes` show as `<..hidden-attributes>`.
 */
export function checkSort(criteria: readonly SortCriterion[], settings: Settings, code: ErrorCode, requireSortRule = true): void {
  if (criteria.length === 0) return
  const sortable = settings.sortableAttributes
  for (const c of criteria) {
    const field = c.kind === 'geo' ? '_geo' : c.field
    const ok = c.kind === 'geo' ? sortable.includes('_geo') : sortable.some((s) => isFacetedBy(c.field, s))
    if (ok) continue
    if (sortable.length === 0) throw new TesseraError(code, `Attribute \`${field}\` is not sortable. This index does not have configured sortable attributes.`)
    const displayed = settings.displayedAttributes
    const shown = (f: string) => displayed.includes('*') || displayed.includes(f)
    const valid = [...new Set(sortable.filter(shown))].sort()
    const hidden = sortable.some((f) => !shown(f))
    throw new TesseraError(code, `Attribute \`${field}\` is not sortable. Available sortable attributes are: \`${valid.join(', ')}${hidden ? ', <..hidden-attributes>' : ''}\`.`)
  }
  if (requireSortRule && !settings.rankingRules.includes('sort')) {
    throw new TesseraError(code, 'You must specify where `sort` is listed in the rankingRules setting to use the sort parameter at search time.')
  }
}

/** The sort criteria in ranking order: the `sort` parameter in place of the `sort` rule, and custom rules. */
export function sortCriteriaFor(settingsRules: readonly string[], param: readonly SortCriterion[]): SortCriterion[] {
  const out: SortCriterion[] = []
  let sorted = false
  for (const rule of settingsRules) {
    if (rule === 'sort') {
      if (!sorted) out.push(...param)
      sorted = true
      continue
    }
    const custom = customRule(rule)
    if (custom) out.push({ kind: 'field', field: custom.field, ascending: custom.ascending })
  }
  return out
}

function directionName(ascending: boolean): string {
  return ascending ? 'asc' : 'desc'
}

/** The ranks of a criterion over the index's documents. */
export function sortKey(c: SortCriterion, facets: FacetIndex): SortKey {
  if (c.kind === 'field') {
    const name = `${c.field}:${directionName(c.ascending)}`
    const f = facets.field(c.field)
    if (!f) return { name, ranks: new Int32Array(0), values: [] }
    const { ranks, values } = f.sortRanks(c.ascending)
    return { name, ranks, values }
  }
  const name = `_geoPoint(${formatRustF64(c.point[0])}, ${formatRustF64(c.point[1])}):${directionName(c.ascending)}`
  const points = [...facets.geo].map(([docid, point]) => ({ docid, point, distance: distanceMeters(c.point, point) }))
  points.sort((a, b) => (c.ascending ? a.distance - b.distance : b.distance - a.distance) || a.docid - b.docid)
  let size = 0
  for (const p of points) if (p.docid >= size) size = p.docid + 1
  const ranks = new Int32Array(size).fill(MISSING_RANK)
  const byRank: [number, number][] = []
  const distances: number[] = []
  for (const p of points) {
    // Equal distances share a rank.
    if (distances.length === 0 || distances[distances.length - 1] !== p.distance) {
      byRank.push(p.point)
      distances.push(p.distance)
    }
    ranks[p.docid] = distances.length - 1
  }
  return { name, ranks, values: [], geo: { point: c.point, points: byRank, distances } }
}

export function rankOf(key: SortKey, docid: number): number {
  return docid < key.ranks.length ? key.ranks[docid]! : MISSING_RANK
}

/**
 * Documents in the order of several criteria, each breaking the ties of the one before (milli's `recursive_sort`
 * for the documents routes); documents equal on every criterion keep their internal id order.
 */
export function sortDocids(docids: readonly number[], keys: readonly SortKey[]): number[] {
  return [...docids].sort((a, b) => {
    for (const key of keys) {
      const d = rankOf(key, a) - rankOf(key, b)
      if (d !== 0) return d
    }
    return a - b
  })
}

/** `_geoDistance` of a hit for the first geo criterion, rounded to meters, as Meilisearch adds it. */
export function geoDistance(keys: readonly SortKey[], docid: number): number | undefined {
  for (const key of keys) {
    if (!key.geo) continue
    const rank = rankOf(key, docid)
    return rank === MISSING_RANK ? undefined : Math.round(key.geo.distances[rank]!)
  }
  return undefined
}
