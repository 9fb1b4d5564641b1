/**
 * A search request as the engine receives it, already parsed and validated by the front end (`src/api/search.ts`):
 * Meilisearch's `SearchQuery` (`crates/meilisearch/src/search/mod.rs`) with its defaults, and the decisions made
 * from it before the index is searched (placeholder or not, keyword, semantic or hybrid).
 */
import { TesseraError } from '../errors/index.js'
import type { MatchingStrategy } from '../settings/types.js'
import { rustTrim } from '../util/rust-text.js'

export type { MatchingStrategy } from '../settings/types.js'

export interface HybridQuery {
  embedder: string
  /** 0.0 (keyword only) to 1.0 (semantic only); 0.5 when not given. */
  semanticRatio: number
}

export interface SearchQuery {
  /** null: absent (placeholder search); see `isPlaceholder`. */
  q: string | null
  offset: number
  limit: number
  page: number | null
  hitsPerPage: number | null
  attributesToRetrieve: string[] | null
  /** `attr` or `attr:len` entries, as sent. */
  attributesToCrop: string[] | null
  cropLength: number
  cropMarker: string
  attributesToHighlight: string[] | null
  highlightPreTag: string
  highlightPostTag: string
  showMatchesPosition: boolean
  /** Any JSON value as sent (shape checked by the filter parser); `undefined` when absent (or `null` in a body). */
  filter: unknown
  sort: string[] | null
  distinct: string | null
  facets: string[] | null
  matchingStrategy: MatchingStrategy
  attributesToSearchOn: string[] | null
  rankingScoreThreshold: number | null
  /** ISO-639-3 codes (`en` is given as `eng`, as Meilisearch's `Locale` maps both to one variant). */
  locales: string[] | null
  hybrid: HybridQuery | null
  vector: number[] | null
  retrieveVectors: boolean
  /** POST only; any JSON value. `undefined` when absent. */
  media: unknown
  personalize: { userContext: string } | null
  useNetwork: boolean | null
  showRankingScore: boolean
  showRankingScoreDetails: boolean
  showPerformanceDetails: boolean
}

export const DEFAULT_SEARCH_OFFSET = 0
export const DEFAULT_SEARCH_LIMIT = 20
export const DEFAULT_CROP_LENGTH = 10
export const DEFAULT_CROP_MARKER = '…'
export const DEFAULT_HIGHLIGHT_PRE_TAG = '<em>'
export const DEFAULT_HIGHLIGHT_POST_TAG = '</em>'
export const DEFAULT_SEMANTIC_RATIO = 0.5

export function defaultSearchQuery(): SearchQuery {
  return {
    q: null, offset: DEFAULT_SEARCH_OFFSET, limit: DEFAULT_SEARCH_LIMIT, page: null, hitsPerPage: null,
    attributesToRetrieve: null, attributesToCrop: null, cropLength: DEFAULT_CROP_LENGTH, cropMarker: DEFAULT_CROP_MARKER,
    attributesToHighlight: null, highlightPreTag: DEFAULT_HIGHLIGHT_PRE_TAG, highlightPostTag: DEFAULT_HIGHLIGHT_POST_TAG,
    showMatchesPosition: false, filter: undefined, sort: null, distinct: null, facets: null, matchingStrategy: 'last',
    attributesToSearchOn: null, rankingScoreThreshold: null, locales: null, hybrid: null, vector: null,
    retrieveVectors: false, media: undefined, personalize: null, useNetwork: null, showRankingScore: false,
    showRankingScoreDetails: false, showPerformanceDetails: false,
  }
}

// ---- query kind ------------------------------------------------------------------------------------------------------

/** No query text to search: `q` absent, empty or only whitespace. */
export function isPlaceholder(q: string | null): boolean {
  return q === null || rustTrim(q) === ''
}

export type SearchKind = 'keyword' | 'semantic' | 'hybrid'

/**
 * The route's `search_kind` decision (before the embedder lookup, which stays with the caller): placeholder and
 * `semanticRatio` 0 are keyword searches, `semanticRatio` 1 or a vector without `q` are semantic, a query with
 * `hybrid` is hybrid, and a vector without `hybrid` is `missing_search_hybrid`. Call it after the index is resolved
 * (Meilisearch answers `index_not_found` first).
 */
export function searchKind(query: Pick<SearchQuery, 'q' | 'hybrid' | 'vector'>): SearchKind {
  const { q, hybrid, vector } = query
  if (q !== null && vector === null && rustTrim(q) === '') return 'keyword'
  if (q === null && vector === null) return 'keyword'
  if (hybrid !== null && hybrid.semanticRatio === 1) return 'semantic'
  if (hybrid !== null && hybrid.semanticRatio === 0) return 'keyword'
  if (q === null && hybrid !== null && vector !== null) return 'semantic'
  if (q !== null && hybrid === null && vector === null) return 'keyword'
  if (q !== null && hybrid !== null) return 'hybrid'
  throw new TesseraError('missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` is present.')
}

// ---- `attributesToCrop` entries ----------------------------------------------------------------------------------------

/** `attr:len` → `[attr, len]` as Meilisearch splits it (last `:`; a length that does not parse means the default). */
export function parseCropAttribute(entry: string, defaultLength: number): [name: string, length: number] {
  const colon = entry.lastIndexOf(':')
  if (colon === -1) return [entry, defaultLength]
  const len = entry.slice(colon + 1)
  return [entry.slice(0, colon), /^\+?[0-9]+$/.test(len) ? Number(len) : defaultLength]
}

/** A facet search: the facet to read, the text its values must start with, and the search that selects the documents. */
export interface FacetSearchRequest {
  facetName: string
  facetQuery: string | null
  exhaustiveFacetCount: boolean
  /** The search whose matching documents are counted. */
  search: SearchQuery
}

/** The pagination of a federated multi-search (`federation.{limit, offset, page, hitsPerPage}`). */
export interface FederationPagination {
  limit: number
  offset: number
  page: number | null
  hitsPerPage: number | null
}

/** `federationOptions` of a query in a federated multi-search. */
export interface FederationOptions {
  weight: number
  remote: string | null
  queryPosition: number | null
}

/** One query of `POST /multi-search`: a search of one index. */
export interface MultiSearchQuery {
  indexUid: string
  query: SearchQuery
  /** Keys sent with a non-null value (federated queries refuse pagination and facets). */
  present: Set<string>
  federationOptions: FederationOptions | null
}

export interface Federation extends FederationPagination {
  facetsByIndex: Map<string, string[] | null>
  mergeFacets: { maxValuesPerFacet: number | null } | null
  /** An attribute whose value appears once in the merged hits (each query runs with it as its `distinct`). */
  distinct: string | null
  showPerformanceDetails: boolean
}

export interface MultiSearchRequest {
  queries: MultiSearchQuery[]
  federation: Federation | null
}
