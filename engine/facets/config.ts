/**
 * Which attribute paths are faceted (filterable, sortable, the distinct attribute, the fields of custom
 * `attr:asc|desc` ranking rules; dot notation reaches nested fields, arrays are flattened), and the walk over a
 * document's faceted values.
 */
import { isObject, type JsonObject } from '../json/value.js'
import { isFacetedBy, matchingRule, normalizeRules, type FilterRule } from '../filter/index.js'
import type { Settings } from '../settings/index.js'

type Json = JsonObject

/** What decides which paths are faceted. */
export interface FacetConfig {
  rules: FilterRule[]
  sortable: string[]
  distinct: string | null
  /** Fields of custom `attr:asc|desc` ranking rules. */
  ruleFields: string[]
  geo: boolean
  /** Equal signatures: the same paths are faceted. */
  signature: string
}

const CUSTOM_RULE = /^(.+):(asc|desc)$/

/** The field and direction of a custom ranking rule (`price:asc`), or null for the other rules. */
export function customRule(rule: string): { field: string; ascending: boolean } | null {
  const m = CUSTOM_RULE.exec(rule)
  return m ? { field: m[1]!, ascending: m[2] === 'asc' } : null
}

/** Configs by settings object (settings are read once per published batch, and searches ask per query). */
const configs = new WeakMap<Settings, FacetConfig>()

export function facetConfig(settings: Settings): FacetConfig {
  let config = configs.get(settings)
  if (!config) configs.set(settings, (config = makeFacetConfig(settings)))
  return config
}

function makeFacetConfig(settings: Settings): FacetConfig {
  const rules = normalizeRules(settings.filterableAttributes)
  const sortable = [...settings.sortableAttributes]
  const ruleFields = settings.rankingRules.map(customRule).filter((r) => r !== null).map((r) => r.field)
  const distinct = settings.distinctAttribute
  const geo = sortable.includes('_geo') || matchingRule('_geo', rules) !== null
  return { rules, sortable, distinct, ruleFields, geo, signature: JSON.stringify([settings.filterableAttributes, sortable, distinct, ruleFields]) }
}

/** Whether anything is faceted at all. */
export function hasFacets(config: FacetConfig): boolean {
  return config.rules.length > 0 || config.sortable.length > 0 || config.distinct !== null || config.ruleFields.length > 0
}

/** Whether a path is faceted (cached per config). */
export function facetedPaths(config: FacetConfig): (path: string) => boolean {
  const cache = new Map<string, boolean>()
  return (path) => {
    let yes = cache.get(path)
    if (yes === undefined) {
      yes = matchingRule(path, config.rules) !== null || config.sortable.some((s) => isFacetedBy(path, s)) ||
        (config.distinct !== null && isFacetedBy(path, config.distinct)) || config.ruleFields.some((s) => isFacetedBy(path, s))
      if (cache.size < 10_000) cache.set(path, yes)
    }
    return yes
  }
}


/**
 * Every (path, value) a document holds, as `attributeValues` reads them: each key path (keys joined by `.`),
 * through nested objects and the objects inside arrays.
 */
export function walk(obj: Json, prefix: string, emit: (path: string, value: unknown) => void): void {
  for (const key of Object.keys(obj)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    const value = obj[key]
    emit(path, value)
    descend(value, path, emit)
  }
}

function descend(value: unknown, path: string, emit: (path: string, value: unknown) => void): void {
  if (Array.isArray(value)) for (const el of value) descend(el, path, emit)
  else if (isObject(value)) walk(value, path, emit)
}
