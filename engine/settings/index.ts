/**
 * Index settings: defaults, application and storage. The front end validates bodies synchronously
 * (`validateSettings` in `src/api/settings.ts`), the scheduler applies (`applySettingsUpdate`, pure) inside a batch and writes
 * (`settingsWriteOps`, one record per index); GET shows `settingsView`; task details show `settingsDetails`.
 *
 * Synchronous 400s are what Meilisearch rejects before registering the task: every deserialization error, the
 * experimental-feature gates (`chat` → `chatCompletions`; `composite`, `searchEmbedder`, `indexingEmbedder` →
 * `compositeEmbedders`) and the embedder checks of the update itself. Task errors (thrown by
 * `applySettingsUpdate`) are what depends on the stored settings: disabling binary quantization, more than 256
 * embedders, an embedder whose merged settings break its source's rules, `minWordSizeForTypos` out of order
 * after merging, a zero chat `documentTemplateMaxBytes`.
 *
 * Secrets: an embedder's `apiKey` is masked in GET bodies and task details as Meilisearch's `hide_secret` does
 * (`XXX...` under 10 bytes; else the first 2, 3 or 5 characters and `XXXX...`, `XXXXX...`, `XXXXXX...` for under
 * 20, under 30, and longer keys). Sub-embedders' keys are masked too.
 */
import { TesseraError } from '../errors/index.js'
import { keys, type Store, type WriteOp } from '../storage/index.js'
import type { Details } from '../tasks/types.js'
import { applyEmbedder, maskEmbedder, ordered as orderedEmbedder, type EmbedderUpdate } from './embedders.js'
import { clone, deepEqual, isObject, setKey } from '../json/value.js'
import { sortedMap } from '../json/byte-order.js'
import {
  DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, SETTINGS_FIELDS, defaultSettings,
  type ChatSettings, type EmbedderSettings, type ReindexKind, type Settings, type SettingsField, type SettingsUpdate,
} from './types.js'
export { maskSecret } from './embedders.js'
export { embedderKind } from '../embedders/config.js'
export {
  DEFAULT_SETTINGS, DEFAULT_RANKING_RULES, DEFAULT_DOCUMENT_TEMPLATE, SETTINGS_FIELDS, defaultSettings,
  type Settings, type SettingsUpdate, type SettingsField, type ReindexKind, type FilterableAttributeRule,
  type FilterableAttributesPatterns, type TypoTolerance, type Faceting, type Pagination, type LocalizedAttributesRule,
  type EmbedderSettings, type EmbedderKind, type ChatSettings, type ChatSearchParameters,
} from './types.js'

const MAX_EMBEDDERS = 256

/** A DELETE of the whole settings: every field back to its default. Never creates the index. */
export function resetAllUpdate(): SettingsUpdate {
  const update: SettingsUpdate = { __deletion: true }
  for (const field of SETTINGS_FIELDS) (update as Record<string, unknown>)[field] = null
  return update
}

/** A DELETE of one sub-route: that field back to its default. Never creates the index. */
export function resetFieldUpdate(field: SettingsField): SettingsUpdate {
  return { [field]: null, __deletion: true } as SettingsUpdate
}

/**
 * Whether applying this update may create a missing index. Updates (PATCH /settings, PUT/PATCH of a sub-route)
 * do; resets by DELETE do not: Meilisearch registers those with `is_deletion` and the task fails with
 * `index_not_found` when the index is missing. Neither does an update registered by a key that may not create
 * indexes (`__denyIndexCreation`).
 */
export function settingsUpdateCreatesIndex(update: SettingsUpdate): boolean {
  return update.__deletion !== true && update.__denyIndexCreation !== true
}

// ---- application -------------------------------------------------------------------------------------------------

function wildcard(list: string[]): string[] {
  return list.includes('*') ? ['*'] : [...list]
}

/** The rule both the request check and the task check apply to `minWordSizeForTypos`. */
export function minWordSizeMessage(one: number, two: number): string {
  return `\`minWordSizeForTypos\` setting is invalid. \`oneTypo\` and \`twoTypos\` fields should be between \`0\` and \`255\`, and \`twoTypos\` should be greater or equals to \`oneTypo\` but found \`oneTypo: ${one}\` and twoTypos: ${two}\`.`
}

function applyTypo(current: Settings['typoTolerance'], update: Record<string, unknown> | null): Settings['typoTolerance'] {
  const defaults = defaultSettings().typoTolerance
  if (update === null) return defaults
  const next = clone(current)
  for (const [key, value] of Object.entries(update)) {
    if (key === 'minWordSizeForTypos') {
      if (value === null) { next.minWordSizeForTypos = { ...defaults.minWordSizeForTypos }; continue }
      for (const [k, v] of Object.entries(value as Record<string, number | null>)) {
        const size = k as 'oneTypo' | 'twoTypos'
        next.minWordSizeForTypos[size] = v === null ? defaults.minWordSizeForTypos[size] : v
      }
      continue
    }
    ;(next as unknown as Record<string, unknown>)[key] = value === null ? clone((defaults as unknown as Record<string, unknown>)[key]) : clone(value)
  }
  const { oneTypo, twoTypos } = next.minWordSizeForTypos
  if (oneTypo > twoTypos) throw new TesseraError('invalid_settings_typo_tolerance', minWordSizeMessage(oneTypo, twoTypos))
  return next
}

function applyFaceting(current: Settings['faceting'], update: Record<string, unknown> | null): Settings['faceting'] {
  const defaults = defaultSettings().faceting
  if (update === null) return defaults
  const next = clone(current)
  if ('maxValuesPerFacet' in update) next.maxValuesPerFacet = update.maxValuesPerFacet === null ? defaults.maxValuesPerFacet : (update.maxValuesPerFacet as number)
  if ('sortFacetValuesBy' in update) {
    // Meilisearch's OrderByMap: `*` is alphanumeric unless given, then the given facets.
    const order = { ...defaults.sortFacetValuesBy } as Record<string, 'alpha' | 'count'>
    if (update.sortFacetValuesBy !== null) for (const [k, v] of Object.entries(update.sortFacetValuesBy as Record<string, 'alpha' | 'count'>)) setKey(order, k, v)
    next.sortFacetValuesBy = sortedMap(order)
  }
  return next
}

function applyChat(current: ChatSettings, update: Record<string, unknown> | null): ChatSettings {
  const defaults = defaultSettings().chat
  if (update === null) return defaults
  const next = clone(current)
  for (const [key, value] of Object.entries(update)) {
    if (key === 'searchParameters') {
      if (value === null) { next.searchParameters = {}; continue }
      const params = next.searchParameters as Record<string, unknown>
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === null) delete params[k]
        else params[k] = clone(v)
      }
      const orderedParams: Record<string, unknown> = {}
      for (const k of ['hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold']) if (k in params) orderedParams[k] = params[k]
      next.searchParameters = orderedParams
      continue
    }
    ;(next as unknown as Record<string, unknown>)[key] = value === null ? (defaults as unknown as Record<string, unknown>)[key] : value
  }
  if (next.documentTemplateMaxBytes === 0) throw new TesseraError('invalid_settings_index_chat', '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero')
  return next
}

function applyEmbedders(current: Record<string, EmbedderSettings>, update: Record<string, EmbedderUpdate | null> | null): { embedders: Record<string, EmbedderSettings>; changed: boolean } {
  if (update === null) return { embedders: {}, changed: Object.keys(current).length > 0 }
  const next: Record<string, EmbedderSettings> = {}
  for (const [name, e] of Object.entries(current)) setKey(next, name, e)
  let changed = false
  for (const [name, e] of Object.entries(update)) {
    const existing = Object.prototype.hasOwnProperty.call(next, name) ? next[name] : undefined
    if (e === null) {
      if (existing) { delete next[name]; changed = true }
      continue
    }
    const { embedder, reembed } = applyEmbedder(name, existing, e)
    setKey(next, name, embedder)
    // New dimensions re-check the stored vectors even where nothing is embedded again (a userProvided embedder's).
    if (reembed || existing?.dimensions !== embedder.dimensions) changed = true
  }
  const count = Object.keys(next).length
  if (count > MAX_EMBEDDERS) throw new TesseraError('invalid_settings_embedders', `Too many embedders in the configuration. Found ${count}, but limited to ${MAX_EMBEDDERS}.`)
  return { embedders: sortedMap(next), changed }
}

/** The fields named by custom `attr:asc|desc` ranking rules (they are faceted, like sortable attributes). */
function customRuleFields(rules: string[]): string[] {
  return rules.filter((r) => /:(asc|desc)$/.test(r)).map((r) => r.slice(0, r.lastIndexOf(':'))).sort()
}

/**
 * Apply a validated update to the stored settings. Pure: returns the new settings and the reindexing the change
 * requires. Throws TesseraError for the failures that depend on the stored settings (the task then fails and
 * nothing is stored).
 */
export function applySettingsUpdate(current: Settings, update: SettingsUpdate): { settings: Settings; reindex: ReindexKind[] } {
  const old = { ...defaultSettings(), ...current }
  const next: Settings = clone(old)
  const defaults = defaultSettings()
  let embeddersChanged = false
  for (const field of SETTINGS_FIELDS) {
    if (!(field in update) || update[field] === undefined) continue
    const value = update[field]
    switch (field) {
      case 'displayedAttributes': case 'searchableAttributes':
        next[field] = value === null ? ['*'] : wildcard(value as string[])
        break
      case 'typoTolerance': next.typoTolerance = applyTypo(old.typoTolerance, value as Record<string, unknown> | null); break
      case 'faceting': next.faceting = applyFaceting(old.faceting, value as Record<string, unknown> | null); break
      case 'pagination':
        next.pagination = value === null || (value as { maxTotalHits?: number | null }).maxTotalHits === null
          ? defaults.pagination
          : { maxTotalHits: (value as { maxTotalHits?: number }).maxTotalHits ?? old.pagination.maxTotalHits }
        break
      case 'embedders': {
        const r = applyEmbedders(old.embedders, value as Record<string, EmbedderUpdate | null> | null)
        next.embedders = r.embedders
        embeddersChanged = r.changed
        break
      }
      case 'chat': next.chat = applyChat(old.chat, value as Record<string, unknown> | null); break
      default:
        ;(next as unknown as Record<string, unknown>)[field] = value === null ? clone((defaults as unknown as Record<string, unknown>)[field]) : clone(value)
    }
  }
  const changed = (f: SettingsField) => !deepEqual(old[f], next[f])
  const reindex: ReindexKind[] = []
  if (changed('searchableAttributes')) reindex.push('searchable')
  if (changed('filterableAttributes') || changed('facetSearch')) reindex.push('filterable')
  if (changed('sortableAttributes') || !deepEqual(customRuleFields(old.rankingRules), customRuleFields(next.rankingRules))) reindex.push('sortable')
  if (changed('distinctAttribute')) reindex.push('distinct')
  if (changed('stopWords')) reindex.push('stopWords')
  if (changed('separatorTokens') || changed('nonSeparatorTokens')) reindex.push('separators')
  if (changed('dictionary')) reindex.push('dictionary')
  if (changed('synonyms')) reindex.push('synonyms')
  if (!deepEqual(old.typoTolerance.disableOnAttributes, next.typoTolerance.disableOnAttributes) || old.typoTolerance.disableOnNumbers !== next.typoTolerance.disableOnNumbers) reindex.push('typo')
  if (changed('proximityPrecision')) reindex.push('proximity')
  if (changed('prefixSearch')) reindex.push('prefix')
  if (embeddersChanged) reindex.push('embedders')
  if (changed('localizedAttributes')) reindex.push('localizedAttributes')
  return { settings: next, reindex }
}

// ---- views -------------------------------------------------------------------------------------------------------

function maskedEmbedders(embedders: Record<string, EmbedderSettings | EmbedderUpdate | null>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, e] of Object.entries(embedders)) setKey(out, name, e === null ? null : maskEmbedder(orderedEmbedder(e)))
  return out
}

/** One field as its sub-route's GET shows it (embedders' secrets masked). */
export function settingsFieldView(settings: Settings, field: SettingsField): unknown {
  const value = { ...defaultSettings(), ...settings }[field]
  return field === 'embedders' ? maskedEmbedders(value as Record<string, EmbedderSettings>) : value
}

/**
 * The GET body (whole settings), secrets masked. `chat` is shown only when `options.chat` is set (Meilisearch
 * shows it only with the `chatCompletions` feature on), `foreignKeys` only when `options.foreignKeys` is (an
 * experimental setting stays off the main route while its feature is off).
 */
export function settingsView(settings: Settings, options: { chat?: boolean; foreignKeys?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const field of SETTINGS_FIELDS) {
    if (field === 'chat' && !options.chat) continue
    if (field === 'foreignKeys' && !options.foreignKeys) continue
    out[field] = settingsFieldView(settings, field)
  }
  return out
}

/**
 * A settingsUpdate task's details: the submitted settings, secrets masked, in Meilisearch's key order. A reset of
 * displayedAttributes or searchableAttributes shows `["*"]`, as Meilisearch serializes it.
 */
export function settingsDetails(update: SettingsUpdate): Details {
  const out: Details = {}
  for (const field of SETTINGS_FIELDS) {
    if (!(field in update) || update[field] === undefined) continue
    const value = update[field]
    if ((field === 'displayedAttributes' || field === 'searchableAttributes') && value === null) out[field] = ['*']
    else if (field === 'embedders' && isObject(value)) out[field] = maskedEmbedders(value as Record<string, EmbedderUpdate | null>)
    else out[field] = value
  }
  return out
}

// ---- storage -----------------------------------------------------------------------------------------------------

const settingsKey = (indexId: number) => keys.indexKey(indexId, 'settings')

/** The settings of an index: defaults for an index with nothing stored (and for fields added since). */
export function readSettings(store: Store, indexId: number): Settings {
  return settingsFromText(storedSettingsText(store, indexId))
}

/** An index's settings record as stored (null: none, the defaults). */
export function storedSettingsText(store: Store, indexId: number): string | null {
  return store.get('settings', settingsKey(indexId))?.toString('utf8') ?? null
}

/** The settings of a stored record (`storedSettingsText`). */
export function settingsFromText(text: string | null): Settings {
  if (text === null) return defaultSettings()
  // JSON, not msgpack: user-named keys (synonyms, embedders, headers) must round-trip as they are, `__proto__` included.
  return { ...defaultSettings(), ...(JSON.parse(text) as Partial<Settings>) }
}

/** The write that stores an index's settings (one record), to commit with the task. */
export function settingsWriteOps(indexId: number, settings: Settings): WriteOp[] {
  return [{ column: 'settings', key: settingsKey(indexId), value: Buffer.from(JSON.stringify(settings)) }]
}

export { DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES }
