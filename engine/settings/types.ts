/**
 * Index settings: the stored shape, defaults and the small helpers shared by validation, application and views.
 * Field names and key orders are Meilisearch's (`meilisearch-types/src/settings.rs`, struct order), so GET bodies
 * and task details serialize exactly as Meilisearch's do.
 */

/** A filterable-attributes entry: a plain attribute (all features) or the object form. */
export type FilterableAttributeRule = string | FilterableAttributesPatterns

export interface FilterableAttributesPatterns {
  attributePatterns: string[]
  features: {
    facetSearch: boolean
    /** Meilisearch's spelling; `filters` is accepted on input as an alias (see validate.ts). */
    filter: { equality: boolean; comparison: boolean }
  }
}

export interface TypoTolerance {
  enabled: boolean
  minWordSizeForTypos: { oneTypo: number; twoTypos: number }
  disableOnWords: string[]
  disableOnAttributes: string[]
  disableOnNumbers: boolean
}

export type FacetValuesSort = 'alpha' | 'count'

export interface Faceting {
  maxValuesPerFacet: number
  sortFacetValuesBy: Record<string, FacetValuesSort>
}

export interface Pagination {
  maxTotalHits: number
}

export interface LocalizedAttributesRule {
  attributePatterns: string[]
  /** ISO-639-3 codes (two-letter input is normalized, as Meilisearch shows it). */
  locales: string[]
}

export type { EmbedderKind, Pooling, Distribution, EmbedderSettings } from '../embedders/config.js'
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, type EmbedderSettings } from '../embedders/config.js'
export { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES }

export type MatchingStrategy = 'last' | 'all' | 'frequency'

export interface ChatSearchParameters {
  hybrid?: { semanticRatio: number; embedder: string }
  limit?: number
  sort?: string[]
  distinct?: string
  matchingStrategy?: MatchingStrategy
  attributesToSearchOn?: string[]
  rankingScoreThreshold?: number
}

export interface ChatSettings {
  description: string
  documentTemplate: string
  documentTemplateMaxBytes: number
  searchParameters: ChatSearchParameters
}

/** A `foreignKeys` entry: documents' `fieldName` holds ids of documents of the index `foreignIndexUid`. */
export interface ForeignKey {
  foreignIndexUid: string
  fieldName: string
}

export type ProximityPrecision = 'byWord' | 'byAttribute'
export type PrefixSearch = 'indexingTime' | 'disabled'

/** The full settings of an index (every field present). */
export interface Settings {
  displayedAttributes: string[]
  searchableAttributes: string[]
  filterableAttributes: FilterableAttributeRule[]
  sortableAttributes: string[]
  /** Stored and shown (with the `foreignKeys` feature on); not used by search. */
  foreignKeys: ForeignKey[]
  rankingRules: string[]
  stopWords: string[]
  nonSeparatorTokens: string[]
  separatorTokens: string[]
  dictionary: string[]
  synonyms: Record<string, string[]>
  distinctAttribute: string | null
  proximityPrecision: ProximityPrecision
  typoTolerance: TypoTolerance
  faceting: Faceting
  pagination: Pagination
  embedders: Record<string, EmbedderSettings>
  searchCutoffMs: number | null
  /** null = never set (Meilisearch shows `null`, not `[]`). */
  localizedAttributes: LocalizedAttributesRule[] | null
  facetSearch: boolean
  prefixSearch: PrefixSearch
  chat: ChatSettings
}

export type SettingsField = keyof Settings

/** Every settings field, in Meilisearch's serialization order. */
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  'displayedAttributes', 'searchableAttributes', 'filterableAttributes', 'sortableAttributes', 'foreignKeys', 'rankingRules', 'stopWords',
  'nonSeparatorTokens', 'separatorTokens', 'dictionary', 'synonyms', 'distinctAttribute', 'proximityPrecision', 'typoTolerance',
  'faceting', 'pagination', 'embedders', 'searchCutoffMs', 'localizedAttributes', 'facetSearch', 'prefixSearch', 'chat',
]

/**
 * A validated update: fields absent stay, `null` resets to the default. Values are already normalized by
 * validation (embedder and object fields hold only what was sent; their own `null`s reset a sub-field).
 * `__deletion` marks a DELETE (whole settings or one sub-route): Meilisearch never creates the index for those,
 * the task fails with `index_not_found` instead (see `settingsUpdateCreatesIndex`).
 */
export type SettingsUpdate = { [K in SettingsField]?: unknown } & {
  __deletion?: true
  /** Registered by an API key without `indexes.create`: the task fails with `index_not_found` on a missing index. */
  __denyIndexCreation?: true
}

/**
 * Which reindexing work a change requires (the search issues apply exactly that):
 * - `searchable` searchableAttributes; `filterable` filterableAttributes or facetSearch (facet-search data);
 *   `sortable` sortableAttributes or the set of fields named by custom `attr:asc|desc` ranking rules;
 *   `distinct` distinctAttribute; `stopWords`; `separators` separatorTokens or nonSeparatorTokens; `dictionary`;
 *   `synonyms`; `typo` typoTolerance.disableOnAttributes or disableOnNumbers (the index-time parts; enabled,
 *   minWordSizeForTypos and disableOnWords are query-time only); `proximity` proximityPrecision; `prefix`
 *   prefixSearch; `embedders` an embedder added, removed or changed in a way that needs new embeddings
 *   (source, model, revision, pooling, url except for hostedAi, request, response, documentTemplate, a larger
 *   documentTemplateMaxBytes, dimensions for hostedAi, sub-embedders, binaryQuantized turned on);
 *   `localizedAttributes`.
 * displayedAttributes, foreignKeys, faceting, pagination, searchCutoffMs, chat and ranking-rule order need no reindexing.
 */
export type ReindexKind = 'searchable' | 'filterable' | 'sortable' | 'distinct' | 'stopWords' | 'separators' | 'dictionary' | 'synonyms' | 'typo' | 'proximity' | 'prefix' | 'embedders' | 'localizedAttributes'

export const DEFAULT_RANKING_RULES = ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'] as const

/** Meilisearch's default document template (embedders and chat). */

export function defaultSettings(): Settings {
  return {
    displayedAttributes: ['*'],
    searchableAttributes: ['*'],
    filterableAttributes: [],
    sortableAttributes: [],
    foreignKeys: [],
    rankingRules: [...DEFAULT_RANKING_RULES],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: 'byWord',
    typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: false },
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
    pagination: { maxTotalHits: 1000 },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: 'indexingTime',
    chat: { description: '', documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, searchParameters: {} },
  }
}

/** Frozen defaults (deeply), for readers; `defaultSettings()` gives a fresh mutable copy. */
export const DEFAULT_SETTINGS: Settings = deepFreeze(defaultSettings())

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value as object)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
