/**
 * `POST /indexes/{uid}/fields`: every field of the index's documents (dotted paths, parents included, in byte order)
 * with what the settings make of it — displayed, searchable, sortable, distinct, a custom ranking rule, filterable
 * (with its facet-value order and filter features) and its locales — filtered and paged
 * (Meilisearch's `routes/indexes/fields.rs`, `tests/index/fields.rs`).
 *
 * The field list is read from the documents themselves (milli keeps it in its fields-ids map): a full scan, done in
 * chunks, which costs one read of the index per call.
 */
import type { Engine } from '../engine.js'
import { coversField } from '../inverted/index.js'
import { customRule } from '../facets/index.js'
import { isFacetedBy, matchingRule, normalizeRules } from '../filter/index.js'
import { matchAttributePattern } from '../settings/patterns.js'
import { localesForField } from '../tokenizer/index.js'
import { compareBytes } from '../json/byte-order.js'
import type { Settings } from '../settings/index.js'

/** Which fields to list: every criterion given must hold (absent ones do not filter). */
export interface FieldsFilter {
  attributePatterns?: string[]
  displayed?: boolean
  searchable?: boolean
  sortable?: boolean
  distinct?: boolean
  rankingRule?: boolean
  filterable?: boolean
}

export interface FieldsQuery {
  offset: number
  limit: number
  filter: FieldsFilter | null
}

/** One field, keys in Meilisearch's order. */
export interface FieldView {
  name: string
  displayed: { enabled: boolean }
  searchable: { enabled: boolean }
  sortable: { enabled: boolean }
  distinct: { enabled: boolean }
  rankingRule: { enabled: boolean; order?: 'asc' | 'desc' }
  filterable: { enabled: boolean; sortBy: string; facetSearch: boolean; equality: boolean; comparison: boolean }
  localized: { locales: string[] }
}

export interface FieldsPage {
  results: FieldView[]
  offset: number
  limit: number
  total: number
}

const SCAN_CHUNK = 1000

/** Every path of a document: `a`, `a.b` (objects, also inside arrays); `_vectors` is not a field. */
function collectPaths(value: unknown, prefix: string, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const el of value) collectPaths(el, prefix, out)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (prefix === '' && key === '_vectors') continue
    const path = prefix === '' ? key : `${prefix}.${key}`
    out.add(path)
    collectPaths(child, path, out)
  }
}

export function fieldView(name: string, settings: Settings): FieldView {
  const rules = normalizeRules(settings.filterableAttributes)
  const rule = matchingRule(name, rules)
  const custom = settings.rankingRules.map(customRule).find((r) => r !== null && r.field === name) ?? null
  const by = settings.faceting.sortFacetValuesBy as Record<string, string>
  const facetSearch = rule?.facetSearch ?? false
  const equality = rule?.equality ?? false
  const comparison = rule?.comparison ?? false
  const view: FieldView = {
    name,
    displayed: { enabled: settings.displayedAttributes.some((d) => coversField(d, name)) },
    searchable: { enabled: settings.searchableAttributes.some((s) => coversField(s, name)) },
    sortable: { enabled: settings.sortableAttributes.some((s) => isFacetedBy(name, s)) },
    distinct: { enabled: settings.distinctAttribute === name },
    rankingRule: custom ? { enabled: true, order: custom.ascending ? 'asc' : 'desc' } : { enabled: false },
    filterable: { enabled: facetSearch || equality || comparison, sortBy: by[name] ?? by['*'] ?? 'alpha', facetSearch, equality, comparison },
    localized: { locales: localesForField(settings.localizedAttributes, name) ?? [] },
  }
  return view
}

function keep(field: FieldView, filter: FieldsFilter | null): boolean {
  if (filter === null) return true
  if (filter.attributePatterns !== undefined && !filter.attributePatterns.some((p) => matchAttributePattern(p, field.name))) return false
  const checks: [boolean | undefined, boolean][] = [
    [filter.displayed, field.displayed.enabled], [filter.searchable, field.searchable.enabled], [filter.sortable, field.sortable.enabled],
    [filter.distinct, field.distinct.enabled], [filter.rankingRule, field.rankingRule.enabled], [filter.filterable, field.filterable.enabled],
  ]
  return checks.every(([wanted, actual]) => wanted === undefined || wanted === actual)
}

export function listFields(engine: Engine, uid: string, query: FieldsQuery): FieldsPage {
  const meta = engine.index(uid)
  const settings = engine.settings.of(meta.id)
  const ids = engine.documents.state(meta.id).live.toArray()
  const paths = new Set<string>()
  for (let i = 0; i < ids.length; i += SCAN_CHUNK) {
    for (const doc of engine.documents.getMany(meta.id, ids.slice(i, i + SCAN_CHUNK))) collectPaths(doc, '', paths)
  }
  const fields = [...paths].sort(compareBytes).map((name) => fieldView(name, settings)).filter((f) => keep(f, query.filter))
  return { results: fields.slice(query.offset, query.offset + query.limit), offset: query.offset, limit: query.limit, total: fields.length }
}
