/**
 * Document-at-a-time evaluation of a filter, with the semantics of Meilisearch's facet databases:
 *
 * - A document's values for an attribute are read with dot notation: `a.b` reaches `{a: {b}}`, `{"a.b": ..}` and
 *   `{a: [{b}, {b}]}`; arrays contribute each element (nested arrays are flattened).
 * - Each value is stored as a number (numbers; strings that parse as a float, as milli also indexes those) and/or
 *   as a normalized string (strings: trimmed, compatibility-decomposed, diacritics removed, lowercased; booleans
 *   as "true"/"false"). `null` and objects are neither.
 * - `=` matches when the filter value's normalized string or its number is among the document's; `!=` is the
 *   negation (so documents without the attribute match `!=`), `IN` is an OR of `=`.
 * - `>`, `>=`, `<`, `<=` and `TO` (inclusive) select numbers in range when the filter value(s) parse as numbers,
 *   and also, like milli's string facet range, normalized strings in range of the raw filter value(s) (compared
 *   by code point / UTF-8 byte order).
 * - `EXISTS`: the attribute is present, whatever its value (null too). `IS NULL`: its value is null.
 *   `IS EMPTY`: its value is `""`, `[]` or `{}`. `NOT` of anything is the complement.
 * - `CONTAINS` / `STARTS WITH` look inside the normalized strings.
 * - `_geoRadius` / `_geoBoundingBox` / `_geoPolygon` use the document's `_geo: {lat, lng}` (haversine distance).
 *
 * The later search issue evaluates the same AST over facet bitmaps; this module is the reference semantics.
 */
import type { Condition, FilterExpression, Token } from './ast.js'
import { isObject } from '../json/value.js'

const RUST_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const RUST_NON_FINITE = /^[+-]?(?:inf|infinity|nan)$/i

/** Rust's `str::parse::<f64>()` restricted to finite results (`Token::parse_finite_float(..).ok()`). */
export function parseFiniteFloat(s: string): number | null {
  if (!RUST_FLOAT.test(s)) return null
  const n = Number(s)
  return Number.isFinite(n) ? n : null
}

/** Whether Rust would parse the string as an f64 at all (including infinities and NaN). */
export function isRustFloat(s: string): boolean {
  return RUST_FLOAT.test(s) || RUST_NON_FINITE.test(s)
}

/**
 * The normalized form facet strings are stored, compared and sorted in: milli's `normalize_facet`, trimmed,
 * compatibility-decomposed (NFKD) and lowercased. Diacritics stay (as combining marks): `= Gläss` does not match
 * `Glass`, `STARTS WITH cré` does not match `crêpe`, and `é` sorts after every unaccented `e…`.
 */
export function normalizeFacet(s: string): string {
  return s.trim().normalize('NFKD').toLowerCase()
}

/** Facet search compares without diacritics (milli searches a separate, diacritic-free normalization). */
export function foldDiacritics(normalized: string): string {
  return normalized.replace(/\p{M}/gu, '')
}

/** Code point order, which is UTF-8 byte order (how milli's LMDB keys sort). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const xs = x >= 0xd800 && x <= 0xdfff
    const ys = y >= 0xd800 && y <= 0xdfff
    if (xs !== ys) return xs ? 1 : -1 // a surrogate (astral code point) sorts after any BMP code point
    return x - y
  }
  return a.length - b.length
}

// ---- reading a document ---------------------------------------------------------------------------------


function collectFromObject(obj: Record<string, unknown>, path: string, out: unknown[]): void {
  for (const key of Object.keys(obj)) {
    if (key === path) out.push(obj[key])
    else if (path.length > key.length && path.startsWith(key) && path[key.length] === '.') descend(obj[key], path.slice(key.length + 1), out)
  }
}

function descend(v: unknown, rest: string, out: unknown[]): void {
  if (Array.isArray(v)) for (const el of v) descend(el, rest, out)
  else if (isObject(v)) collectFromObject(v, rest, out)
}

/** The raw values a document holds for an attribute (dot notation), one per place the attribute occurs. */
export function attributeValues(doc: Record<string, unknown>, path: string): unknown[] {
  const out: unknown[] = []
  collectFromObject(doc, path, out)
  return out
}

/**
 * What a value contributes to an attribute's facets: its numbers and normalized strings (arrays flattened), and,
 * when asked for, each string as written (trimmed; booleans as `true` / `false`) at the same index.
 */
export interface Facets {
  numbers: number[]
  strings: string[]
  originals?: string[]
}

export function addLeaf(v: unknown, facets: Facets): void {
  if (Array.isArray(v)) {
    for (const el of v) addLeaf(el, facets)
  } else if (typeof v === 'number') {
    if (Number.isFinite(v)) facets.numbers.push(v)
  } else if (typeof v === 'string') {
    // A string is a string facet only, as in milli: `"1"` matches `= 1` (the same string) but not `= 01` (the
    // number 1 is not among its values).
    facets.strings.push(normalizeFacet(v))
    facets.originals?.push(v.trim())
  } else if (typeof v === 'boolean') {
    facets.strings.push(v ? 'true' : 'false')
    facets.originals?.push(v ? 'true' : 'false')
  }
}

function facetsOf(values: unknown[]): Facets {
  const facets: Facets = { numbers: [], strings: [] }
  for (const v of values) addLeaf(v, facets)
  return facets
}

// ---- filter values, prepared once per token --------------------------------------------------------------

interface Prepared {
  normalized: string
  number: number | null
}

const prepared = new WeakMap<Token, Prepared>()

/** A filter value as facets compare it: normalized, and as a number when it parses as one. */
export function prep(token: Token): Prepared {
  let p = prepared.get(token)
  if (!p) {
    p = { normalized: normalizeFacet(token.value), number: parseFiniteFloat(token.value) }
    prepared.set(token, p)
  }
  return p
}

type Bound = { value: number | string; inclusive: boolean } | null

function inRange<T extends number | string>(v: T, low: Bound, high: Bound, cmp: (a: T, b: T) => number): boolean {
  if (low) {
    const c = cmp(v, low.value as T)
    if (c < 0 || (c === 0 && !low.inclusive)) return false
  }
  if (high) {
    const c = cmp(v, high.value as T)
    if (c > 0 || (c === 0 && !high.inclusive)) return false
  }
  return true
}

const numCmp = (a: number, b: number) => a - b

/** `>`, `>=`, `<`, `<=`, `TO`: the number range (when the bounds are numbers) or the string range. */
function rangeMatches(facets: Facets, low: Token | null, lowInclusive: boolean, high: Token | null, highInclusive: boolean): boolean {
  const lowNum = low ? prep(low).number : null
  const highNum = high ? prep(high).number : null
  const numbersUsable = (low === null || lowNum !== null) && (high === null || highNum !== null)
  if (numbersUsable) {
    const lo: Bound = low ? { value: lowNum!, inclusive: lowInclusive } : null
    const hi: Bound = high ? { value: highNum!, inclusive: highInclusive } : null
    if (!(lo && hi && (lo.value > hi.value || (lo.value === hi.value && !(lo.inclusive && hi.inclusive))))) {
      if (facets.numbers.some((n) => inRange(n, lo, hi, numCmp))) return true
    }
  }
  // milli compares the stored (normalized) strings with the filter value as written.
  const lo: Bound = low ? { value: low.value, inclusive: lowInclusive } : null
  const hi: Bound = high ? { value: high.value, inclusive: highInclusive } : null
  if (lo && hi) {
    const c = compareCodePoints(lo.value as string, hi.value as string)
    if (c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive))) return false
  }
  return facets.strings.some((s) => inRange(s, lo, hi, compareCodePoints))
}

function equals(facets: Facets, token: Token): boolean {
  const p = prep(token)
  if (facets.strings.includes(p.normalized)) return true
  return p.number !== null && facets.numbers.includes(p.number)
}

export function isEmptyValue(v: unknown): boolean {
  if (v === '') return true
  if (Array.isArray(v)) return v.length === 0
  return isObject(v) && Object.keys(v).length === 0
}

function conditionMatches(condition: Condition, values: unknown[]): boolean {
  switch (condition.op) {
    case 'EXISTS': return values.length > 0
    case 'IS NULL': return values.some((v) => v === null)
    case 'IS EMPTY': return values.some(isEmptyValue)
    case '=': return equals(facetsOf(values), condition.value)
    case '!=': return !equals(facetsOf(values), condition.value)
    case '>': return rangeMatches(facetsOf(values), condition.value, false, null, false)
    case '>=': return rangeMatches(facetsOf(values), condition.value, true, null, false)
    case '<': return rangeMatches(facetsOf(values), null, false, condition.value, false)
    case '<=': return rangeMatches(facetsOf(values), null, false, condition.value, true)
    case 'TO': return rangeMatches(facetsOf(values), condition.from, true, condition.to, true)
    case 'CONTAINS': {
      const needle = prep(condition.value).normalized
      return facetsOf(values).strings.some((s) => s.includes(needle))
    }
    case 'STARTS WITH': {
      const prefix = prep(condition.value).normalized
      return facetsOf(values).strings.some((s) => s.startsWith(prefix))
    }
  }
}

// ---- geo ---------------------------------------------------------------------------------------------------

const EARTH_RADIUS_M = 6_371_000

function coordinate(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string') return parseFiniteFloat(v.trim())
  return null
}

/** The document's `_geo` point as [lat, lng], if it has a valid one. */
export function geoPoint(doc: Record<string, unknown>): [number, number] | null {
  const geo = doc._geo
  if (!isObject(geo)) return null
  const lat = coordinate(geo.lat)
  const lng = coordinate(geo.lng)
  return lat === null || lng === null ? null : [lat, lng]
}

/** Haversine distance in meters. */
export function distanceMeters(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180
  const dLat = (b[0] - a[0]) * rad
  const dLng = (b[1] - a[1]) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

function num(token: Token): number {
  return prep(token).number ?? NaN
}

function insidePolygon(point: [number, number], polygon: [number, number][]): boolean {
  // Ray casting on the (lng, lat) plane.
  const [y, x] = point
  let inside = false
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i]!
    const [yj, xj] = polygon[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

function vectorsMatch(expr: Extract<FilterExpression, { type: 'vectorExists' }>, doc: Record<string, unknown>): boolean {
  const vectors = doc._vectors
  if (!isObject(vectors)) return false
  const entries = expr.embedder ? (expr.embedder.value in vectors ? [vectors[expr.embedder.value]] : []) : Object.values(vectors)
  return entries.some((entry) => {
    if (entry === null || entry === undefined) return false
    const userProvided = !isObject(entry) || entry.regenerate === false
    switch (expr.selector.kind) {
      case 'all': return true
      case 'userProvided': return userProvided
      case 'documentTemplate': return !userProvided
      case 'regenerate': return isObject(entry) && entry.regenerate === true
      case 'fragment': return false
    }
  })
}

// ---- the evaluator ---------------------------------------------------------------------------------------

/** Whether `doc` matches `expr`. */
export function matches(expr: FilterExpression, doc: Record<string, unknown>): boolean {
  switch (expr.type) {
    case 'and': return expr.children.every((c) => matches(c, doc))
    case 'or': return expr.children.some((c) => matches(c, doc))
    case 'not': return !matches(expr.child, doc)
    case 'condition': return conditionMatches(expr.condition, attributeValues(doc, expr.field.value))
    case 'in': {
      if (expr.values.length === 0) return false
      const facets = facetsOf(attributeValues(doc, expr.field.value))
      return expr.values.some((v) => equals(facets, v))
    }
    case 'geoRadius': case 'geoBoundingBox': case 'geoPolygon': {
      const point = geoPoint(doc)
      return point !== null && geoMatches(expr, point)
    }
    case 'vectorExists': return vectorsMatch(expr, doc)
  }
}

export type GeoExpression = Extract<FilterExpression, { type: 'geoRadius' | 'geoBoundingBox' | 'geoPolygon' }>

/** Whether a `_geo` point is inside a geo filter's shape. */
export function geoMatches(expr: GeoExpression, point: [number, number]): boolean {
  switch (expr.type) {
    case 'geoRadius': return distanceMeters([num(expr.lat), num(expr.lng)], point) <= num(expr.radius) + Number.EPSILON
    case 'geoBoundingBox': {
      const [topLat, topLng] = [num(expr.topRight[0]), num(expr.topRight[1])]
      const [bottomLat, bottomLng] = [num(expr.bottomLeft[0]), num(expr.bottomLeft[1])]
      if (point[0] < bottomLat || point[0] > topLat) return false
      // A box whose right side is west of its left side wraps around the antimeridian.
      return topLng < bottomLng ? point[1] >= bottomLng || point[1] <= topLng : point[1] >= bottomLng && point[1] <= topLng
    }
    case 'geoPolygon': return insidePolygon(point, expr.points.map(([lat, lng]) => [num(lat), num(lng)]))
  }
}
