/**
 * Facet distributions and stats over a search's candidates (milli's `FacetDistribution`), and distinct values.
 *
 * - Per attribute: numbers first (displayed as Rust prints an f64: `10`, `5.5`), then strings (their original
 *   spelling); `alpha` keeps value order (numeric, then normalized string order), `count` orders each kind by
 *   descending count (value order between equal counts). `maxValuesPerFacet` bounds both kinds together.
 * - Attributes in the response sorted by name. A requested attribute matches itself and the attributes nested
 *   under it; `*` and patterns (`genre*`) match the filterable attributes the documents hold.
 * - `facetStats`: min and max of each requested attribute's numbers among the candidates.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { TesseraError } from '../errors/index.js'
import { filterablePatterns, formatRustF64, isFacetedBy, isFilterable, matchingRule, normalizeRules, type FilterRule } from '../filter/index.js'
import { matchAttributePattern } from '../settings/patterns.js'
import type { Settings } from '../settings/index.js'
import type { FacetIndex, FieldFacets } from './index.js'

export type Distribution = Record<string, Record<string, number>>
export type Stats = Record<string, { min: number; max: number }>

/** `invalid_search_facets` when a requested attribute is not filterable. */
export function checkFacets(names: readonly string[], rules: FilterRule[]): void {
  const bad = [...new Set(names.filter((n) => !n.includes('*') && !isFilterable(n, rules)))].sort()
  if (bad.length === 0) return
  const patterns = filterablePatterns(rules)
  const available = patterns.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${patterns.join(', ')}\`.`
  if (bad.length === 1) {
    const rule = matchingRule(bad[0]!, rules)
    if (rule) {
      const i = rule.index
      throw new TesseraError('invalid_search_facets', `Invalid facet distribution: Attribute \`${bad[0]}\` matched rule #${i} in filterableAttributes, but this rule does not enable filtering.\nHint: enable filtering in rule #${i} by modifying the features.filter object\nHint: prepend another rule matching \`${bad[0]}\` with appropriate filter features before rule #${i}`)
    }
    throw new TesseraError('invalid_search_facets', `Invalid facet distribution: Attribute \`${bad[0]}\` is not filterable. ${available}`)
  }
  throw new TesseraError('invalid_search_facets', `Invalid facet distribution: Attributes \`${bad.join(', ')}\` are not filterable. ${available}`)
}

/** The facet paths a requested name covers (filterable ones, present in the index). */
function pathsFor(name: string, facets: FacetIndex, rules: FilterRule[]): string[] {
  const out: string[] = []
  for (const path of facets.paths()) {
    if (!isFilterable(path, rules)) continue
    const hit = name.includes('*') ? matchAttributePattern(name, path) : isFacetedBy(path, name)
    if (hit) out.push(path)
  }
  return out
}

function orderOf(settings: Settings, field: string): 'alpha' | 'count' {
  const by = settings.faceting.sortFacetValuesBy as Record<string, 'alpha' | 'count'>
  return by[field] ?? by['*'] ?? 'alpha'
}

/** The values of a field among the candidates, in value order, with their counts, and the numbers' extremes. */
export interface ValueCounts {
  numbers: [number, number][]
  strings: [string, number][]
  min: number | undefined
  max: number | undefined
}

/**
 * Count by value (one intersection per value, in value order, stopping after `alphaLimit` values when that is all
 * the distribution shows) or by document (each candidate's values read from the field's ordinals, then the counts
 * walked in value order), whichever reads less: a keyword search's few thousand documents against a hundred
 * thousand prices go by document, a broad filter's candidates against a dozen colors by value. `byDocument`
 * forces a strategy (tests compare them).
 */
export function countValues(f: FieldFacets, candidates: Bitmap, alphaLimit: number | null, byDocument?: boolean): ValueCounts {
  const numberKeys = f.numberKeys()
  const stringKeys = f.stringKeys()
  const values = numberKeys.length + stringKeys.length
  const out: ValueCounts = { numbers: [], strings: [], min: undefined, max: undefined }
  const limit = alphaLimit ?? Infinity
  // Intersections the by-value count makes: every value, or until enough are met (candidates spread evenly).
  const byValueReads = Math.min(values, limit * (f.exists.size / Math.max(1, candidates.size)))
  // An intersection costs several times a document's ordinals read.
  if (byDocument ?? (values > 64 && candidates.size < 6 * byValueReads)) {
    const { offsets, ordinals } = f.valueOrdinals()
    const counts = new Uint32Array(values)
    const last = offsets.length - 1
    for (const docid of candidates.toUint32Array()) {
      if (docid >= last) continue
      for (let k = offsets[docid]!, end = offsets[docid + 1]!; k < end; k++) counts[ordinals[k]!]!++
    }
    const numbers = numberKeys.length
    for (let o = 0; o < numbers && out.numbers.length < limit; o++) if (counts[o]! > 0) out.numbers.push([numberKeys[o]!, counts[o]!])
    for (let o = numbers; o < values && out.strings.length < limit - out.numbers.length; o++) {
      if (counts[o]! > 0) out.strings.push([f.strings.get(stringKeys[o - numbers]!)!.original, counts[o]!])
    }
    out.min = out.numbers[0]?.[0]
    for (let o = numbers - 1; o >= 0 && out.min !== undefined; o--) if (counts[o]! > 0) { out.max = numberKeys[o]; break }
    return out
  }
  // The candidates' smallest and largest numbers, found in the range levels: no value outside them is read.
  const bounds = f.numberBounds(candidates)
  if (bounds) {
    out.min = numberKeys[bounds[0]]
    out.max = numberKeys[bounds[1]]
    for (let i = bounds[0]; i <= bounds[1] && out.numbers.length < limit; i++) {
      const count = f.numbers.get(numberKeys[i]!)!.andCardinality(candidates)
      if (count > 0) out.numbers.push([numberKeys[i]!, count])
    }
  }
  for (const key of stringKeys) {
    if (out.strings.length >= limit - out.numbers.length) break
    const entry = f.strings.get(key)!
    const count = entry.docids.andCardinality(candidates)
    if (count > 0) out.strings.push([entry.original, count])
  }
  return out
}

function distributionOf(counted: ValueCounts, order: 'alpha' | 'count', max: number): Record<string, number> {
  const out: Record<string, number> = {}
  let size = 0
  const add = (entries: [string, number][]) => {
    if (order === 'count') entries.sort((a, b) => b[1] - a[1])
    for (const [key, count] of entries) {
      if (size >= max) return
      if (!(key in out)) size++
      out[key] = count
    }
  }
  add(counted.numbers.map(([n, count]) => [formatRustF64(n), count]))
  add(counted.strings)
  return out
}

/** `facetDistribution` and `facetStats` of a search. */
export function facetDistribution(names: readonly string[], facets: FacetIndex, candidates: Bitmap, settings: Settings): { distribution: Distribution; stats: Stats } {
  const rules = normalizeRules(settings.filterableAttributes)
  const paths = new Set<string>()
  const exact: string[] = []
  for (const name of names) {
    const covered = pathsFor(name, facets, rules).filter((p) => p === name || facets.field(p)!.numbers.size + facets.field(p)!.strings.size > 0)
    covered.forEach((p) => paths.add(p))
    // A filterable attribute no document holds is listed without values.
    if (!name.includes('*') && isFilterable(name, rules) && covered.length === 0) exact.push(name)
  }
  const distribution: Distribution = {}
  const stats: Stats = {}
  const max = settings.faceting.maxValuesPerFacet
  for (const path of [...new Set([...paths, ...exact])].sort()) {
    const f = facets.field(path)
    if (!f) {
      if (exact.includes(path)) distribution[path] = {}
      continue
    }
    if (f.numbers.size === 0 && f.strings.size === 0) continue
    const order = orderOf(settings, path)
    const counted = countValues(f, candidates, order === 'alpha' ? max : null)
    distribution[path] = distributionOf(counted, order, max)
    if (counted.min !== undefined && counted.max !== undefined) stats[path] = { min: counted.min, max: counted.max }
  }
  return { distribution, stats }
}

/** A field's values by document, for distinct: each document's value ids, and the documents that have one. */
export interface DistinctValues {
  valueIds(docid: number): readonly number[] | undefined
  valued: Bitmap
  /** The documents holding a value (by the ids `valueIds` gives). */
  docsOf(value: number): Bitmap
}

const distinctCache = new WeakMap<FieldFacets, DistinctValues>()

export function distinctValues(f: FieldFacets): DistinctValues {
  let d = distinctCache.get(f)
  if (d) return d
  const byDoc = new Map<number, number[]>()
  let id = 0
  const parts: Bitmap[] = []
  const add = (docids: Bitmap) => {
    const value = id++
    parts.push(docids)
    for (const docid of docids) {
      const list = byDoc.get(docid)
      if (list) list.push(value)
      else byDoc.set(docid, [value])
    }
  }
  for (const b of f.numbers.values()) add(b)
  for (const e of f.strings.values()) add(e.docids)
  d = { valueIds: (docid) => byDoc.get(docid), docsOf: (value) => parts[value]!, valued: parts.length === 0 ? new RoaringBitmap32() : RoaringBitmap32.orMany(parts) }
  distinctCache.set(f, d)
  return d
}
