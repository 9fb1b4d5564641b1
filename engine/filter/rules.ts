/**
 * The `filterableAttributes` setting as the filter engine reads it (milli's `filterable_attributes_rules.rs` and
 * `attribute_patterns.rs`):
 *
 * - a string is a legacy rule: it matches the attribute itself and every attribute nested under it (`a` matches
 *   `a` and `a.b`), with every feature on (equality, comparison, facet search);
 * - an object `{attributePatterns: [...], features: {facetSearch, filter: {equality, comparison}}}` matches by
 *   pattern (`*`, `prefix*`, `*suffix`, `*infix*` or an exact name); its features default to equality only
 *   (`filters` is accepted as an alias of `filter`).
 *
 * The first rule that matches an attribute decides its features.
 */
import { matchAttributePattern } from '../settings/patterns.js'
import { isObject } from '../json/value.js'

export interface FilterRule {
  /** Position in the setting (`rule #i` in messages). */
  index: number
  legacy: boolean
  patterns: string[]
  equality: boolean
  comparison: boolean
  facetSearch: boolean
}


const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback)

export function normalizeRules(rules: readonly unknown[] | null | undefined): FilterRule[] {
  const out: FilterRule[] = []
  for (const [index, rule] of (rules ?? []).entries()) {
    if (typeof rule === 'string') {
      out.push({ index, legacy: true, patterns: [rule], equality: true, comparison: true, facetSearch: true })
    } else if (isObject(rule)) {
      const raw = rule.attributePatterns ?? rule.patterns
      const patterns = Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string') : []
      const features = isObject(rule.features) ? rule.features : {}
      const filter = isObject(features.filter) ? features.filter : isObject(features.filters) ? features.filters : {}
      out.push({ index, legacy: false, patterns, equality: bool(filter.equality, true), comparison: bool(filter.comparison, false), facetSearch: bool(features.facetSearch, false) })
    }
  }
  return out
}

/** `field` is `facet` or nested under it (`is_faceted_by`). */
export function isFacetedBy(field: string, facet: string): boolean {
  return field.startsWith(facet) && (field.length === facet.length || field[facet.length] === '.')
}

export function ruleMatches(rule: FilterRule, field: string): boolean {
  return rule.legacy ? isFacetedBy(field, rule.patterns[0]!) : rule.patterns.some((p) => matchAttributePattern(p, field))
}

export function isFilterableRule(rule: FilterRule): boolean {
  return rule.equality || rule.comparison
}

/** The first rule matching `field` (milli's `matching_features`), or null. */
export function matchingRule(field: string, rules: FilterRule[]): FilterRule | null {
  return rules.find((r) => ruleMatches(r, field)) ?? null
}

/** Whether `field` can be filtered on at all. */
export function isFilterable(field: string, rules: FilterRule[]): boolean {
  const rule = matchingRule(field, rules)
  return rule !== null && isFilterableRule(rule)
}

/** The patterns of the rules `keep` accepts, sorted and deduplicated (for the "not filterable" messages). */
export function patternsOf(rules: FilterRule[], keep: (rule: FilterRule) => boolean): string[] {
  const set = new Set<string>()
  for (const r of rules) if (keep(r)) for (const p of r.patterns) set.add(p)
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The patterns of the rules that allow filtering. */
export function filterablePatterns(rules: FilterRule[]): string[] {
  return patternsOf(rules, isFilterableRule)
}

/** Geo filtering (`_geoRadius`, ...) is on when `_geo` itself is a filterable attribute. */
export function isGeoFilteringEnabled(rules: FilterRule[]): boolean {
  return rules.some((r) => (r.legacy ? r.patterns[0] === '_geo' : r.patterns.includes('_geo') && isFilterableRule(r)))
}

/** The operators a rule allows, in milli's order (`FilterFeatures::allowed_operators`). */
export function allowedOperators(rule: FilterRule): string[] {
  if (!isFilterableRule(rule)) return []
  const ops = ['OR', 'AND', 'NOT']
  if (rule.equality) ops.push('=', '!=', 'IN')
  if (rule.comparison) ops.push('<', '>', '<=', '>=', 'TO')
  ops.push('IS EMPTY', 'IS NULL', 'EXISTS')
  return ops
}
