/**
 * Synchronous validation of settings bodies, with the codes and messages Meilisearch's deserializer (deserr) and
 * its route-level `validate_settings` give. Order, as Meilisearch: every field is deserialized in the body's key
 * order (the first error wins), then the experimental-feature gates, then the embedder checks (by embedder name).
 * Whole-settings bodies locate errors from the root (``at `.rankingRules[0]` ``); a sub-route body *is* the
 * field's value, so its locations start at the value (``at `[0]` ``, or none at all).
 *
 * `filterableAttributes` object form: Meilisearch's `FilterableAttributesFeatures` has the field `filter` (with
 * `deny_unknown_fields`, so Meilisearch itself rejects `filters`). The spec writes both spellings, so we accept
 * `filter` and `filters` as the same field (both at once is an error), store it as `filter`, and GET shows `filter`,
 * as Meilisearch does. The "Unknown field" message lists Meilisearch's fields (`facetSearch`, `filter`).
 */
import { TesseraError, type ErrorCode } from '../../engine/errors/index.js'
import type { Features } from '../../engine/features/index.js'
import { LOCALE_VALUES, TO_ISO_639_3 } from '../../engine/settings/locales.js'
import { minWordSizeMessage } from '../../engine/settings/index.js'
import { checkEmbedderFeatures, validateEmbedder, type EmbedderUpdate } from '../../engine/settings/embedders.js'
import { parseEmbedder } from './embedders.js'
import { foreignKeys } from './foreign-keys.js'
import { isObject, setKey } from '../../engine/json/value.js'
import { sortedMap, sortedSet } from '../../engine/json/byte-order.js'
import {
  at, expectObject, invalidType, invalidValue, missingField, unknownField, type Path,
  expectString as string, expectBoolean as boolean, expectNumber as number, expectStringList as stringList, expectEnum as enumValue, unknownValue,
} from './deserr.js'
import {
  SETTINGS_FIELDS,
  type FilterableAttributeRule, type LocalizedAttributesRule, type SettingsField, type SettingsUpdate,
} from '../../engine/settings/types.js'

/** Sub-route name (`/indexes/{uid}/settings/<name>`) → the field its body sets. */
export const SUB_ROUTES: readonly { route: string; field: SettingsField }[] = [
  { route: 'filterable-attributes', field: 'filterableAttributes' },
  { route: 'sortable-attributes', field: 'sortableAttributes' },
  { route: 'foreign-keys', field: 'foreignKeys' },
  { route: 'displayed-attributes', field: 'displayedAttributes' },
  { route: 'typo-tolerance', field: 'typoTolerance' },
  { route: 'searchable-attributes', field: 'searchableAttributes' },
  { route: 'stop-words', field: 'stopWords' },
  { route: 'non-separator-tokens', field: 'nonSeparatorTokens' },
  { route: 'separator-tokens', field: 'separatorTokens' },
  { route: 'dictionary', field: 'dictionary' },
  { route: 'synonyms', field: 'synonyms' },
  { route: 'distinct-attribute', field: 'distinctAttribute' },
  { route: 'proximity-precision', field: 'proximityPrecision' },
  { route: 'localized-attributes', field: 'localizedAttributes' },
  { route: 'ranking-rules', field: 'rankingRules' },
  { route: 'faceting', field: 'faceting' },
  { route: 'pagination', field: 'pagination' },
  { route: 'embedders', field: 'embedders' },
  { route: 'search-cutoff-ms', field: 'searchCutoffMs' },
  { route: 'facet-search', field: 'facetSearch' },
  { route: 'prefix-search', field: 'prefixSearch' },
  { route: 'chat', field: 'chat' },
]

export const FIELD_CODES: Record<SettingsField, ErrorCode> = {
  displayedAttributes: 'invalid_settings_displayed_attributes',
  searchableAttributes: 'invalid_settings_searchable_attributes',
  filterableAttributes: 'invalid_settings_filterable_attributes',
  sortableAttributes: 'invalid_settings_sortable_attributes',
  foreignKeys: 'invalid_settings_foreign_keys',
  rankingRules: 'invalid_settings_ranking_rules',
  stopWords: 'invalid_settings_stop_words',
  nonSeparatorTokens: 'invalid_settings_non_separator_tokens',
  separatorTokens: 'invalid_settings_separator_tokens',
  dictionary: 'invalid_settings_dictionary',
  synonyms: 'invalid_settings_synonyms',
  distinctAttribute: 'invalid_settings_distinct_attribute',
  proximityPrecision: 'invalid_settings_proximity_precision',
  typoTolerance: 'invalid_settings_typo_tolerance',
  faceting: 'invalid_settings_faceting',
  pagination: 'invalid_settings_pagination',
  embedders: 'invalid_settings_embedders',
  searchCutoffMs: 'invalid_settings_search_cutoff_ms',
  localizedAttributes: 'invalid_settings_localized_attributes',
  facetSearch: 'invalid_settings_facet_search',
  prefixSearch: 'invalid_settings_prefix_search',
  chat: 'invalid_settings_index_chat',
}

// ---- primitive readers ---------------------------------------------------------------------------------------

/** An unsigned integer of at most `max` (u8: 255; usize/u64 otherwise), with deserr's messages. */
function unsigned(value: unknown, path: Path, code: ErrorCode, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidType(code, path, 'a positive integer', value)
  if (value > max) throw invalidValue(code, path, `value: \`${value}\` is too large to be deserialized, maximum value authorized is \`${max}\``)
  return value
}

// ---- ranking rules ---------------------------------------------------------------------------------------------

const BUILTIN_RULES = ['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'sort', 'exactness']
const RESERVED_KEYWORDS = ['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox', '_geoPolygon']

/** Meilisearch's `Criterion::from_str`: null when valid, else the CriterionError text. */
export function rankingRuleError(text: string): string | null {
  if (BUILTIN_RULES.includes(text)) return null
  const invalid = `\`${text}\` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.`
  const colon = text.lastIndexOf(':')
  if (colon < 0) return invalid
  const field = text.slice(0, colon)
  const direction = text.slice(colon + 1)
  if (direction !== 'asc' && direction !== 'desc') return invalid
  const forSort = '`_geoPoint` is a reserved keyword and thus can\'t be used as a ranking rule. `_geoPoint` can only be used for sorting at search time'
  const forFilter = (name: string) => `\`${name}\` is a reserved keyword and thus can't be used as a ranking rule. \`${name}\` can only be used for filtering at search time`
  if (field.startsWith('_geoPoint(') && field.endsWith(')')) return forSort
  if (RESERVED_KEYWORDS.includes(field) || /^_geo(Radius|BoundingBox|Polygon)\(/.test(field)) {
    if (field.startsWith('_geoPoint')) return forSort
    for (const f of ['_geoRadius', '_geoBoundingBox', '_geoPolygon']) if (field.startsWith(f)) return forFilter(f)
    return `\`${field}\` is a reserved keyword and thus can't be used as a ranking rule`
  }
  return null
}

function rankingRules(value: unknown, path: Path, code: ErrorCode): string[] {
  if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value)
  return value.map((v, i) => {
    const rule = string(v, at(path, i), code)
    const problem = rankingRuleError(rule)
    if (problem) throw invalidValue(code, at(path, i), problem)
    return rule
  })
}

// ---- filterable attributes ---------------------------------------------------------------------------------------

function filterableAttributes(value: unknown, path: Path, code: ErrorCode): FilterableAttributeRule[] {
  if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value)
  return value.map((entry, i): FilterableAttributeRule => {
    const p = at(path, i)
    if (!isObject(entry)) return string(entry, p, code)
    expectObject(entry, p, ['attributePatterns', 'features'], code, code)
    let attributePatterns: string[] | undefined
    const features = { facetSearch: false, filter: { equality: true, comparison: false } }
    for (const key of Object.keys(entry)) {
      if (key === 'attributePatterns') attributePatterns = stringList(entry[key], at(p, key), code)
      else readFeatures(entry[key], at(p, key), code, features)
    }
    if (attributePatterns === undefined) throw missingField(code, p, 'attributePatterns')
    return { attributePatterns, features }
  })
}

function readFeatures(value: unknown, path: Path, code: ErrorCode, into: { facetSearch: boolean; filter: { equality: boolean; comparison: boolean } }): void {
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  const keys = Object.keys(value)
  for (const key of keys) if (!['facetSearch', 'filter', 'filters'].includes(key)) throw unknownField(path, key, ['facetSearch', 'filter'], code)
  if (keys.includes('filter') && keys.includes('filters')) throw invalidValue(code, path, '`filter` and `filters` are two spellings of the same field: give only one')
  for (const key of keys) {
    if (key === 'facetSearch') { into.facetSearch = boolean(value[key], at(path, key), code); continue }
    const fp = at(path, key)
    const filter = expectObject(value[key], fp, ['equality', 'comparison'], code, code)
    for (const f of Object.keys(filter) as ('equality' | 'comparison')[]) into.filter[f] = boolean(filter[f], at(fp, f), code)
  }
}

// ---- typo tolerance, faceting, pagination --------------------------------------------------------------------

const TYPO_KEYS = ['enabled', 'minWordSizeForTypos', 'disableOnWords', 'disableOnAttributes', 'disableOnNumbers']

function typoTolerance(value: unknown, path: Path, code: ErrorCode): Record<string, unknown> {
  const obj = expectObject(value, path, TYPO_KEYS, code, code)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const v = obj[key]
    const p = at(path, key)
    if (v === null) { out[key] = null; continue }
    switch (key) {
      case 'enabled': case 'disableOnNumbers': out[key] = boolean(v, p, code); break
      case 'disableOnWords': case 'disableOnAttributes': out[key] = sortedSet(stringList(v, p, code)); break
      case 'minWordSizeForTypos': {
        const sizes = expectObject(v, p, ['oneTypo', 'twoTypos'], code, code)
        const parsed: Record<string, number | null> = {}
        for (const k of Object.keys(sizes)) parsed[k] = sizes[k] === null ? null : unsigned(sizes[k], at(p, k), code, 255)
        const { oneTypo, twoTypos } = parsed
        if (typeof oneTypo === 'number' && typeof twoTypos === 'number' && oneTypo > twoTypos) {
          throw invalidValue(code, p, minWordSizeMessage(oneTypo, twoTypos))
        }
        out[key] = { ...('oneTypo' in parsed ? { oneTypo } : {}), ...('twoTypos' in parsed ? { twoTypos } : {}) }
        break
      }
    }
  }
  return orderKeys(out, TYPO_KEYS)
}

function faceting(value: unknown, path: Path, code: ErrorCode): Record<string, unknown> {
  const obj = expectObject(value, path, ['maxValuesPerFacet', 'sortFacetValuesBy'], code, code)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const v = obj[key]
    const p = at(path, key)
    if (v === null) { out[key] = null; continue }
    if (key === 'maxValuesPerFacet') { out[key] = unsigned(v, p, code); continue }
    if (!isObject(v)) throw invalidType(code, p, 'an object', v)
    const order: Record<string, string> = {}
    for (const facet of Object.keys(v)) setKey(order, facet, enumValue(v[facet], at(p, facet), code, ['alpha', 'count']))
    out[key] = sortedMap(order)
  }
  return orderKeys(out, ['maxValuesPerFacet', 'sortFacetValuesBy'])
}

function pagination(value: unknown, path: Path, code: ErrorCode): Record<string, unknown> {
  const obj = expectObject(value, path, ['maxTotalHits'], code, code)
  if (!('maxTotalHits' in obj)) return {}
  if (obj.maxTotalHits === null) return { maxTotalHits: null }
  const where = at(path, 'maxTotalHits')
  const maxTotalHits = unsigned(obj.maxTotalHits, where, code)
  // Meilisearch's `NonZeroUsize`: 0 is refused with deserr's non-zero message (a negative number already failed as a type).
  if (maxTotalHits === 0) throw invalidValue(code, where, 'a non-zero integer value lower than `18446744073709551615` was expected, but found a zero')
  return { maxTotalHits }
}

function orderKeys(obj: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of order) if (key in obj) out[key] = obj[key]
  return out
}

// ---- localized attributes --------------------------------------------------------------------------------------


function localizedAttributes(value: unknown, path: Path, code: ErrorCode): LocalizedAttributesRule[] {
  if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value)
  return value.map((entry, i) => {
    const p = at(path, i)
    // No deny_unknown_fields on this struct: unknown keys are ignored, as Meilisearch ignores them.
    if (!isObject(entry)) throw invalidType(code, p, 'an object', entry)
    let attributePatterns: string[] | undefined
    let locales: string[] | undefined
    for (const key of Object.keys(entry)) {
      if (key === 'attributePatterns') attributePatterns = stringList(entry[key], at(p, key), code)
      else if (key === 'locales') {
        const lp = at(p, key)
        if (!Array.isArray(entry[key])) throw invalidType(code, lp, 'an array', entry[key])
        locales = (entry[key] as unknown[]).map((l, j) => TO_ISO_639_3.get(enumValue(l, at(lp, j), code, LOCALE_VALUES))!)
      }
    }
    if (attributePatterns === undefined) throw missingField(code, p, 'attributePatterns')
    if (locales === undefined) throw missingField(code, p, 'locales')
    return { attributePatterns, locales }
  })
}

// ---- chat ------------------------------------------------------------------------------------------------------

const CHAT_KEYS = ['description', 'documentTemplate', 'documentTemplateMaxBytes', 'searchParameters']
const SEARCH_PARAMETER_KEYS = ['hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold']

function chat(value: unknown, path: Path, code: ErrorCode): Record<string, unknown> {
  const obj = expectObject(value, path, CHAT_KEYS, code, code)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const v = obj[key]
    const p = at(path, key)
    if (v === null) { out[key] = null; continue }
    if (key === 'documentTemplateMaxBytes') out[key] = unsigned(v, p, code)
    else if (key === 'searchParameters') out[key] = searchParameters(v, p, code)
    else out[key] = string(v, p, code)
  }
  return orderKeys(out, CHAT_KEYS)
}

function searchParameters(value: unknown, path: Path, code: ErrorCode): Record<string, unknown> {
  const obj = expectObject(value, path, SEARCH_PARAMETER_KEYS, code, code)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const v = obj[key]
    const p = at(path, key)
    if (v === null) { out[key] = null; continue }
    switch (key) {
      case 'hybrid': {
        const h = expectObject(v, p, ['semanticRatio', 'embedder'], code, code)
        let semanticRatio = 0.5
        let embedder: string | undefined
        for (const k of Object.keys(h)) {
          if (k === 'embedder') embedder = string(h[k], at(p, k), code)
          else {
            semanticRatio = number(h[k], at(p, k), code)
            if (semanticRatio < 0 || semanticRatio > 1) throw invalidValue(code, at(p, k), 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.')
          }
        }
        if (embedder === undefined) throw missingField(code, p, 'embedder')
        out[key] = { semanticRatio, embedder }
        break
      }
      case 'limit': out[key] = unsigned(v, p, code); break
      case 'sort': case 'attributesToSearchOn': out[key] = stringList(v, p, code); break
      case 'distinct': out[key] = string(v, p, code); break
      case 'matchingStrategy': out[key] = enumValue(v, p, code, ['last', 'all', 'frequency']); break
      case 'rankingScoreThreshold': {
        const n = number(v, p, code)
        if (n < 0 || n > 1) throw invalidValue(code, p, 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.')
        out[key] = n
        break
      }
    }
  }
  return orderKeys(out, SEARCH_PARAMETER_KEYS)
}

// ---- embedders -------------------------------------------------------------------------------------------------

function embedders(value: unknown, path: Path, code: ErrorCode): Record<string, EmbedderUpdate | null> {
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  const out: Record<string, EmbedderUpdate | null> = {}
  for (const name of Object.keys(value)) {
    const v = value[name]
    setKey(out, name, v === null ? null : parseEmbedder(v, at(path, name)))
  }
  return sortedMap(out)
}

// ---- one field ---------------------------------------------------------------------------------------------------

/** Deserialize one field's (non-null) value. */
function parseField(field: SettingsField, value: unknown, path: Path): unknown {
  const code = FIELD_CODES[field]
  switch (field) {
    case 'displayedAttributes': case 'searchableAttributes': return stringList(value, path, code)
    case 'sortableAttributes': case 'stopWords': case 'nonSeparatorTokens': case 'separatorTokens': case 'dictionary':
      return sortedSet(stringList(value, path, code))
    case 'filterableAttributes': return filterableAttributes(value, path, code)
    case 'foreignKeys': return foreignKeys(value, path, code)
    case 'rankingRules': return rankingRules(value, path, code)
    case 'synonyms': {
      if (!isObject(value)) throw invalidType(code, path, 'an object', value)
      const synonyms: Record<string, string[]> = {}
      for (const word of Object.keys(value)) setKey(synonyms, word, stringList(value[word], at(path, word), code))
      return sortedMap(synonyms)
    }
    case 'distinctAttribute': return string(value, path, code)
    case 'proximityPrecision': return enumValue(value, path, code, ['byWord', 'byAttribute'])
    case 'typoTolerance': return typoTolerance(value, path, code)
    case 'faceting': return faceting(value, path, code)
    case 'pagination': return pagination(value, path, code)
    case 'embedders': return embedders(value, path, code)
    case 'searchCutoffMs': return unsigned(value, path, code)
    case 'localizedAttributes': return localizedAttributes(value, path, code)
    case 'facetSearch': return boolean(value, path, code)
    case 'prefixSearch': return enumValue(value, path, code, ['indexingTime', 'disabled'])
    case 'chat': return chat(value, path, code)
  }
}

/**
 * Validate a settings body. `route` is the sub-route name (e.g. `filterable-attributes`) when the body is one
 * field's value (`null` resets it), or null for the whole-settings object. Throws TesseraError (400) on the first
 * failing field; nothing is registered then.
 */
export function validateSettings(body: unknown, route: string | null, features: Features): SettingsUpdate {
  const update: Record<string, unknown> = {}
  if (route === null) {
    if (!isObject(body)) throw invalidType('bad_request', '', 'an object', body)
    for (const key of Object.keys(body)) {
      if (!(SETTINGS_FIELDS as readonly string[]).includes(key)) throw unknownField('', key, SETTINGS_FIELDS)
      const value = body[key]
      update[key] = value === null ? null : parseField(key as SettingsField, value, `.${key}`)
    }
  } else {
    const sub = SUB_ROUTES.find((r) => r.route === route)
    if (!sub) throw new Error(`unknown settings sub-route ${route}`)
    update[sub.field] = body === null ? null : parseField(sub.field, body, '')
  }
  // Experimental features, then the embedder checks (Meilisearch's `validate_settings`).
  const embedderUpdates = update.embedders as Record<string, EmbedderUpdate | null> | null | undefined
  if (embedderUpdates) checkEmbedderFeatures(embedderUpdates, features)
  if (update.chat !== undefined && update.chat !== null) features.require('chatCompletions', 'setting `chat` in the index settings')
  if (update.foreignKeys !== undefined && update.foreignKeys !== null) features.require('foreignKeys', 'setting `foreignKeys` in the index settings')
  if (embedderUpdates) for (const [name, e] of Object.entries(embedderUpdates)) if (e) validateEmbedder(name, e)
  const ordered: SettingsUpdate = {}
  for (const field of SETTINGS_FIELDS) if (field in update) (ordered as Record<string, unknown>)[field] = update[field]
  return ordered
}
