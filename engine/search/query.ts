/**
 * Search requests, parsed and validated as Meilisearch does (`crates/meilisearch/src/search/mod.rs` `SearchQuery`,
 * `crates/meilisearch/src/routes/indexes/search.rs` `SearchQueryGet` and its `TryFrom`), and the query-text
 * parser for `q` (`crates/milli/src/search/new/query_term/parse_query.rs` `located_query_terms_from_tokens`).
 *
 * - POST bodies: deserr with `deny_unknown_fields`; fields are read in the body's key order and the first error wins.
 *   Non-`Option` fields with defaults (`offset`, `cropMarker`, `showMatchesPosition`, `matchingStrategy`, ...) reject
 *   `null`; `Option` fields (`q`, `page`, `filter`, `hybrid`, ...) take `null` as absent.
 * - GET query strings: comma lists (`CS<T>`), `true`/`false`, positive integers, `filter` parsed as JSON when it
 *   parses, `hybridEmbedder`/`hybridSemanticRatio`, `vector` as a comma list of floats, `personalizeUserContext`.
 * - Checks that need the index (embedder names, searchable attributes, filters, sort) are not here; `searchKind`
 *   gives the route-level `missing_search_hybrid` check that Meilisearch makes after resolving the index.
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import { LOCALES, LOCALE_VALUES, TO_ISO_639_3 } from '../settings/locales.js'
import {
  at, invalidParameter, invalidType, invalidValue, missingField, unknownField, unknownParameter, type Path,
  expectString as str, expectBoolean as bool, expectNumber as float, expectStringList as strings, expectEnum as enumValue, unknownValue,
} from '../errors/deserr.js'

// ---- the query ---------------------------------------------------------------------------------------------------

export type MatchingStrategy = 'last' | 'all' | 'frequency'

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

/** `SearchQuery`'s fields in declaration order: the order of the "Unknown field" message. */
export const SEARCH_BODY_FIELDS = [
  'q', 'offset', 'limit', 'page', 'hitsPerPage', 'attributesToRetrieve', 'attributesToCrop', 'cropLength', 'cropMarker',
  'attributesToHighlight', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition', 'filter', 'sort', 'distinct',
  'facets', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'hybrid', 'vector',
  'retrieveVectors', 'media', 'personalize', 'useNetwork', 'showRankingScore', 'showRankingScoreDetails',
  'showPerformanceDetails',
] as const

/** `SearchQueryGet`'s fields in declaration order: the order of the "Unknown parameter" message. */
export const SEARCH_PARAMS = [
  'q', 'offset', 'limit', 'page', 'hitsPerPage', 'attributesToRetrieve', 'attributesToCrop', 'cropLength', 'cropMarker',
  'attributesToHighlight', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition', 'filter', 'sort', 'distinct',
  'facets', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'hybridEmbedder',
  'hybridSemanticRatio', 'vector', 'retrieveVectors', 'personalizeUserContext', 'useNetwork', 'showRankingScore',
  'showRankingScoreDetails', 'showPerformanceDetails',
] as const

const MATCHING_STRATEGIES: readonly MatchingStrategy[] = ['last', 'all', 'frequency']

/**
 * The code of each field.
 */
const CODES = {
  q: 'invalid_search_q', offset: 'invalid_search_offset', limit: 'invalid_search_limit', page: 'invalid_search_page',
  hitsPerPage: 'invalid_search_hits_per_page', attributesToRetrieve: 'invalid_search_attributes_to_retrieve',
  attributesToCrop: 'invalid_search_attributes_to_crop', cropLength: 'invalid_search_crop_length',
  cropMarker: 'invalid_search_crop_marker', attributesToHighlight: 'invalid_search_attributes_to_highlight',
  highlightPreTag: 'invalid_search_highlight_pre_tag', highlightPostTag: 'invalid_search_highlight_post_tag',
  showMatchesPosition: 'invalid_search_show_matches_position', filter: 'invalid_search_filter', sort: 'invalid_search_sort',
  distinct: 'invalid_search_distinct', facets: 'invalid_search_facets', matchingStrategy: 'invalid_search_matching_strategy',
  attributesToSearchOn: 'invalid_search_attributes_to_search_on',
  rankingScoreThreshold: 'invalid_search_ranking_score_threshold', locales: 'invalid_search_locales',
  hybrid: 'invalid_search_hybrid_query', vector: 'invalid_search_vector', retrieveVectors: 'invalid_search_retrieve_vectors',
  media: 'invalid_search_media', personalize: 'invalid_search_personalize', useNetwork: 'invalid_search_use_network',
  showRankingScore: 'invalid_search_show_ranking_score', showRankingScoreDetails: 'invalid_search_show_ranking_score_details',
  showPerformanceDetails: 'invalid_search_show_performance_details',
  // GET-only names
  hybridEmbedder: 'invalid_search_embedder', hybridSemanticRatio: 'invalid_search_semantic_ratio',
  personalizeUserContext: 'invalid_search_personalize_user_context',
} as const satisfies Record<string, ErrorCode>

const RANKING_SCORE_THRESHOLD_MESSAGE = 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'
const SEMANTIC_RATIO_MESSAGE = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.'

// ---- locales -----------------------------------------------------------------------------------------------------

/** Query-parameter form (`Locale::from_str`'s error): two-letter codes sorted, then three-letter codes sorted. */
const LOCALE_PARAM_LIST = [...LOCALES.map(([two]) => two).sort(), ...[...LOCALES.map(([, three]) => three), 'cmn'].sort()].join(', ')

// ---- small deserr-like readers (JSON) ------------------------------------------------------------------------------

const MAX_USIZE = 18446744073709551615 // u64::MAX (as a double)

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function usize(v: unknown, path: Path, code: ErrorCode): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_USIZE) throw invalidType(code, path, 'a positive integer', v)
  return v
}

function unknownParamValue(code: ErrorCode, param: string, value: string, accepted: readonly string[]): TesseraError {
  const hinted = unknownField('', value, accepted, code).message.slice(`Unknown field \`${value}\`: `.length)
  return new TesseraError(code, `Unknown value \`${value}\` for parameter \`${param}\`: ${hinted}`)
}

// ---- POST ------------------------------------------------------------------------------------------------------------

/** A POST search body (an already-parsed JSON value) as a `SearchQuery`, or the error Meilisearch gives. */
export function parseSearchBody(body: unknown): SearchQuery {
  if (!isObject(body)) throw invalidType('bad_request', '', 'an object', body)
  const query = defaultSearchQuery()
  for (const key of Object.keys(body)) {
    const value = body[key]
    const path = at('', key)
    switch (key) {
      case 'q': query.q = value === null ? null : str(value, path, CODES.q); break
      case 'offset': query.offset = usize(value, path, CODES.offset); break
      case 'limit': query.limit = usize(value, path, CODES.limit); break
      case 'page': query.page = value === null ? null : usize(value, path, CODES.page); break
      case 'hitsPerPage': query.hitsPerPage = value === null ? null : usize(value, path, CODES.hitsPerPage); break
      case 'attributesToRetrieve': query.attributesToRetrieve = value === null ? null : strings(value, path, CODES.attributesToRetrieve); break
      case 'attributesToCrop': query.attributesToCrop = value === null ? null : strings(value, path, CODES.attributesToCrop); break
      case 'cropLength': query.cropLength = usize(value, path, CODES.cropLength); break
      case 'cropMarker': query.cropMarker = str(value, path, CODES.cropMarker); break
      case 'attributesToHighlight': query.attributesToHighlight = value === null ? null : strings(value, path, CODES.attributesToHighlight); break
      case 'highlightPreTag': query.highlightPreTag = str(value, path, CODES.highlightPreTag); break
      case 'highlightPostTag': query.highlightPostTag = str(value, path, CODES.highlightPostTag); break
      case 'showMatchesPosition': query.showMatchesPosition = bool(value, path, CODES.showMatchesPosition); break
      case 'filter': query.filter = value === null ? undefined : value; break
      case 'sort': query.sort = value === null ? null : strings(value, path, CODES.sort); break
      case 'distinct': query.distinct = value === null ? null : str(value, path, CODES.distinct); break
      case 'facets': query.facets = value === null ? null : strings(value, path, CODES.facets); break
      case 'matchingStrategy': query.matchingStrategy = enumValue(value, path, CODES.matchingStrategy, MATCHING_STRATEGIES); break
      case 'attributesToSearchOn': query.attributesToSearchOn = value === null ? null : strings(value, path, CODES.attributesToSearchOn); break
      case 'rankingScoreThreshold': {
        if (value === null) { query.rankingScoreThreshold = null; break }
        const f = float(value, path, CODES.rankingScoreThreshold)
        if (f > 1 || f < 0) throw invalidValue(CODES.rankingScoreThreshold, path, RANKING_SCORE_THRESHOLD_MESSAGE)
        query.rankingScoreThreshold = f
        break
      }
      case 'locales': {
        if (value === null) { query.locales = null; break }
        if (!Array.isArray(value)) throw invalidType(CODES.locales, path, 'an array', value)
        query.locales = value.map((l, i) => TO_ISO_639_3.get(enumValue(l, at(path, i), CODES.locales, LOCALE_VALUES))!)
        break
      }
      case 'hybrid': query.hybrid = value === null ? null : hybridQuery(value, path); break
      case 'vector': {
        if (value === null) { query.vector = null; break }
        if (!Array.isArray(value)) throw invalidType(CODES.vector, path, 'an array', value)
        query.vector = value.map((f, i) => Math.fround(float(f, at(path, i), CODES.vector)))
        break
      }
      case 'retrieveVectors': query.retrieveVectors = bool(value, path, CODES.retrieveVectors); break
      case 'media': query.media = value === null ? undefined : value; break
      case 'personalize': query.personalize = value === null ? null : personalize(value, path); break
      case 'useNetwork': query.useNetwork = value === null ? null : bool(value, path, CODES.useNetwork); break
      case 'showRankingScore': query.showRankingScore = bool(value, path, CODES.showRankingScore); break
      case 'showRankingScoreDetails': query.showRankingScoreDetails = bool(value, path, CODES.showRankingScoreDetails); break
      case 'showPerformanceDetails': query.showPerformanceDetails = bool(value, path, CODES.showPerformanceDetails); break
      default: throw unknownField('', key, SEARCH_BODY_FIELDS)
    }
  }
  return query
}

const HYBRID_FIELDS = ['semanticRatio', 'embedder'] as const

function hybridQuery(value: unknown, path: Path): HybridQuery {
  const code = CODES.hybrid
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  let embedder: string | undefined
  let semanticRatio = DEFAULT_SEMANTIC_RATIO
  for (const key of Object.keys(value)) {
    const p = at(path, key)
    if (key === 'semanticRatio') {
      // deserr's `try_from(f32)`: a number (null is not one), then the range check.
      const f = Math.fround(float(value[key], p, 'invalid_search_semantic_ratio'))
      if (f > 1 || f < 0) throw invalidValue('invalid_search_semantic_ratio', p, SEMANTIC_RATIO_MESSAGE)
      semanticRatio = f
    } else if (key === 'embedder') {
      embedder = str(value[key], p, 'invalid_search_embedder')
    } else {
      throw unknownField(path, key, HYBRID_FIELDS, code)
    }
  }
  if (embedder === undefined) throw missingField(code, path, 'embedder')
  return { embedder, semanticRatio }
}

function personalize(value: unknown, path: Path): { userContext: string } {
  const code = CODES.personalize
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  let userContext: string | undefined
  for (const key of Object.keys(value)) {
    if (key === 'userContext') userContext = str(value[key], at(path, key), 'invalid_search_personalize_user_context')
    else throw unknownField(path, key, ['userContext'], code)
  }
  if (userContext === undefined) throw missingField(code, path, 'userContext')
  return { userContext }
}

// ---- GET -------------------------------------------------------------------------------------------------------------

/** Rust's `usize::from_str`: optional `+`, ASCII digits, at most u64::MAX. */
function usizeParam(code: ErrorCode, param: string, text: string): number {
  if (!/^\+?[0-9]+$/.test(text) || BigInt(text) > 18446744073709551615n) {
    throw invalidParameter(code, param, `could not parse \`${text}\` as a positive integer`)
  }
  return Number(text)
}

function boolParam(code: ErrorCode, param: string, text: string): boolean {
  if (text === 'true') return true
  if (text === 'false') return false
  throw invalidParameter(code, param, `could not parse \`${text}\` as a boolean, expected either \`true\` or \`false\``)
}

/** Rust's `f64::from_str` / `f32::from_str` grammar: decimal with optional exponent, or inf/infinity/nan. null if not. */
export function parseRustFloat(text: string): number | null {
  const m = /^([+-]?)(?:(inf|infinity)|(nan)|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))$/i.exec(text)
  if (!m) return null
  if (m[2] !== undefined) return m[1] === '-' ? -Infinity : Infinity
  if (m[3] !== undefined) return NaN
  return Number(`${m[1]}${m[4]}`)
}

/** `CS<T>`: an empty value is an empty list, otherwise the value split on every comma (no trimming). */
function commaList(text: string): string[] {
  return text === '' ? [] : text.split(',')
}

/** Meilisearch's `fix_sort_query_parameters`: commas inside `_geoPoint(lat, lng):asc` are kept. */
export function fixSortQueryParameters(sortQuery: string): string[] {
  const params: string[] = []
  let merge = false
  for (const raw of trimMatches(sortQuery, '"').split(',')) {
    const current = rustTrim(raw)
    if (current.startsWith('_geoPoint(')) {
      params.push(current)
      merge = true
    } else if (merge && params.length > 0) {
      params[params.length - 1] += `,${current}`
      if (current.endsWith('):desc') || current.endsWith('):asc')) merge = false
    } else {
      params.push(current)
      merge = false
    }
  }
  return params
}

function trimMatches(s: string, c: string): string {
  let start = 0
  let end = s.length
  while (start < end && s[start] === c) start++
  while (end > start && s[end - 1] === c) end--
  return s.slice(start, end)
}

/** Rust's `str::trim` (Unicode White_Space; unlike JS it keeps U+FEFF). */
const RUST_WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const RUST_TRIM = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, 'gu')
const ENDS_WITH_WS = new RegExp(`[${RUST_WS}]$`, 'u')
function rustTrim(s: string): string {
  return s.replace(RUST_TRIM, '')
}

/**
 * A GET search query string (without the leading `?`) as a `SearchQuery`, or the error Meilisearch gives. Parameters
 * are read in order and the first error wins; an unknown parameter is `bad_request` with the did-you-mean hint.
 */
export function parseSearchParams(rawQuery: string): SearchQuery {
  const query = defaultSearchQuery()
  let search: URLSearchParams
  try {
    search = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery)
  } catch {
    throw new TesseraError('bad_request', 'The query string could not be parsed.')
  }
  let hybridEmbedder: string | null = null
  let hybridSemanticRatio: number | null = null
  for (const [name, text] of search) {
    switch (name) {
      case 'q': query.q = text; break
      case 'offset': query.offset = usizeParam(CODES.offset, name, text); break
      case 'limit': query.limit = usizeParam(CODES.limit, name, text); break
      case 'page': query.page = usizeParam(CODES.page, name, text); break
      case 'hitsPerPage': query.hitsPerPage = usizeParam(CODES.hitsPerPage, name, text); break
      case 'attributesToRetrieve': query.attributesToRetrieve = commaList(text); break
      case 'attributesToCrop': query.attributesToCrop = commaList(text); break
      case 'cropLength': query.cropLength = usizeParam(CODES.cropLength, name, text); break
      case 'cropMarker': query.cropMarker = text; break
      case 'attributesToHighlight': query.attributesToHighlight = commaList(text); break
      case 'highlightPreTag': query.highlightPreTag = text; break
      case 'highlightPostTag': query.highlightPostTag = text; break
      case 'showMatchesPosition': query.showMatchesPosition = boolParam(CODES.showMatchesPosition, name, text); break
      case 'filter': {
        // `serde_json::from_str` first: `filter=null` is the JSON null (a filter error later), not "no filter".
        try { query.filter = JSON.parse(text) } catch { query.filter = text }
        break
      }
      case 'sort': query.sort = fixSortQueryParameters(text); break
      case 'distinct': query.distinct = text; break
      case 'facets': query.facets = commaList(text); break
      case 'matchingStrategy': {
        if (!(MATCHING_STRATEGIES as readonly string[]).includes(text)) throw unknownParamValue(CODES.matchingStrategy, name, text, MATCHING_STRATEGIES)
        query.matchingStrategy = text as MatchingStrategy
        break
      }
      case 'attributesToSearchOn': query.attributesToSearchOn = commaList(text); break
      case 'rankingScoreThreshold': {
        const f = parseRustFloat(text)
        if (f === null || f > 1 || f < 0) throw invalidParameter(CODES.rankingScoreThreshold, name, RANKING_SCORE_THRESHOLD_MESSAGE)
        query.rankingScoreThreshold = f
        break
      }
      case 'locales': {
        query.locales = commaList(text).map((l) => {
          const code = TO_ISO_639_3.get(l)
          if (code === undefined) throw invalidParameter(CODES.locales, name, `Unsupported locale \`${l}\`, expected one of ${LOCALE_PARAM_LIST}`)
          return code
        })
        break
      }
      case 'hybridEmbedder': hybridEmbedder = text; break
      case 'hybridSemanticRatio': {
        const f = parseRustFloat(text)
        if (f === null || Math.fround(f) > 1 || Math.fround(f) < 0) throw invalidParameter(CODES.hybridSemanticRatio, name, SEMANTIC_RATIO_MESSAGE)
        hybridSemanticRatio = Math.fround(f)
        break
      }
      case 'vector': {
        query.vector = commaList(text).map((part) => {
          const f = parseRustFloat(part)
          // GUESSED: `CS<f32>` surfaces Rust's `ParseFloatError` text.
          if (f === null) throw invalidParameter(CODES.vector, name, part === '' ? 'cannot parse float from empty string' : 'invalid float literal')
          return Math.fround(f)
        })
        break
      }
      case 'retrieveVectors': query.retrieveVectors = boolParam(CODES.retrieveVectors, name, text); break
      case 'personalizeUserContext': query.personalize = { userContext: text }; break
      case 'useNetwork': query.useNetwork = boolParam(CODES.useNetwork, name, text); break
      case 'showRankingScore': query.showRankingScore = boolParam(CODES.showRankingScore, name, text); break
      case 'showRankingScoreDetails': query.showRankingScoreDetails = boolParam(CODES.showRankingScoreDetails, name, text); break
      case 'showPerformanceDetails': query.showPerformanceDetails = boolParam(CODES.showPerformanceDetails, name, text); break
      default: throw unknownParameter(name, SEARCH_PARAMS)
    }
  }
  // `TryFrom<SearchQueryGet> for SearchQuery`
  if (hybridEmbedder === null && hybridSemanticRatio !== null) {
    throw new TesseraError('invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present')
  }
  if (hybridEmbedder !== null) query.hybrid = { embedder: hybridEmbedder, semanticRatio: hybridSemanticRatio ?? DEFAULT_SEMANTIC_RATIO }
  if (query.vector !== null && query.hybrid === null) {
    throw new TesseraError('missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present')
  }
  return query
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

// ---- the query text ----------------------------------------------------------------------------------------------------

/** A token of the query text as the tokenizer gives it (after normalization: `lemma` is the normalized text). */
export interface QueryToken {
  lemma: string
  kind: 'word' | 'stopWord' | 'separator'
  /** For separators. */
  separatorKind?: 'soft' | 'hard'
}

export type QueryTokenizer = (text: string) => QueryToken[]

/** A positive word: `prefix` only for the last token of the query when nothing (not even a space) follows it. */
export interface WordTerm {
  type: 'word'
  word: string
  position: number
  prefix: boolean
}

/** A phrase: its words (`null` for stop words, which match any word), and the positions it spans. */
export interface PhraseTerm {
  type: 'phrase'
  words: (string | null)[]
  start: number
  end: number
}

export type QueryTerm = WordTerm | PhraseTerm

export interface NegativeWord { type: 'word'; word: string }
export type NegativeTerm = NegativeWord | PhraseTerm

export interface ParsedQueryText {
  /** Positive words and phrases in query order (milli's `query_terms`; at most `wordsLimit` of them). */
  located: QueryTerm[]
  /** The words of `located`. */
  terms: WordTerm[]
  /** The phrases of `located`. */
  phrases: PhraseTerm[]
  /** Excluded words (`-word`) and phrases (`-"a phrase"`), in query order. */
  negative: NegativeTerm[]
}

export interface ParseQueryTextOptions {
  /** Meilisearch considers the first 10 terms (words and phrases); null for no limit. */
  wordsLimit?: number | null
  /** Only the first 1000 tokens are read (`MAX_TOKEN_COUNT`). */
  maxTokens?: number
}

class PhraseBuilder {
  words: (string | null)[] = []
  start = 0xffff
  end = 0xffff
  isEmpty(): boolean { return this.words.every((w) => w === null) }
  push(token: QueryToken, position: number): void {
    if (this.isEmpty()) this.start = position
    this.end = position
    this.words.push(token.kind === 'stopWord' ? null : token.lemma)
  }
  build(): PhraseTerm | null {
    return this.isEmpty() ? null : { type: 'phrase', words: this.words, start: this.start, end: this.end }
  }
}

/**
 * milli's `located_query_terms_from_tokens`, before term derivation:
 * - `"..."` is a phrase; a hard separator inside a phrase closes it and opens another; an unterminated quote makes
 *   the rest of the query a phrase; phrases made only of stop words vanish.
 * - `-word` and `-"phrase"` are negative when the `-` is its own separator token right after whitespace (or at the
 *   start): `word-word` and a lone `- word` are not negations.
 * - stop words are dropped, except as the last token (which is then a prefix term) and inside phrases.
 * - positions: +1 per word, +7 extra per hard separator, starting at 0 (u16 arithmetic, as milli).
 */
export function parseQueryText(text: string, tokenize: QueryTokenizer, options: ParseQueryTextOptions = {}): ParsedQueryText {
  const wordsLimit = options.wordsLimit === undefined ? 10 : options.wordsLimit
  const limit = wordsLimit ?? Infinity
  const tokens = tokenize(text).slice(0, options.maxTokens ?? 1000)
  const located: QueryTerm[] = []
  const negative: NegativeTerm[] = []

  let negativePhrase = false
  let phrase: PhraseBuilder | null = null
  let encounteredWhitespace = true
  let negativeNextToken = false
  let position = 0xffff

  const pushPhrase = (built: PhraseTerm | null, isNegative: boolean) => {
    if (built === null) return
    if (isNegative) negative.push(built)
    else located.push(built)
  }

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.lemma === '') continue
    if (located.length >= limit) return result(located, negative)

    if (token.kind === 'word' || token.kind === 'stopWord') {
      position = (position + 1) & 0xffff
      if (phrase !== null) {
        phrase.push(token, position)
      } else if (negativeNextToken) {
        negative.push({ type: 'word', word: token.lemma })
        negativeNextToken = false
      } else if (i + 1 < tokens.length) {
        if (token.kind === 'word') located.push({ type: 'word', word: token.lemma, position, prefix: false })
      } else {
        located.push({ type: 'word', word: token.lemma, position, prefix: true })
      }
    } else {
      const hard = token.separatorKind === 'hard'
      if (hard) position = (position + 7) & 0xffff
      let current: PhraseBuilder | null = phrase
      phrase = null
      if (hard && current !== null) {
        pushPhrase(current.build(), negativePhrase)
        current = new PhraseBuilder()
      }
      let quotes = [...token.lemma].filter((c) => c === '"').length
      if (quotes === 0) {
        phrase = current
      } else {
        if (current !== null) {
          quotes -= 1
          const built = current.build()
          if (built !== null && negativePhrase) {
            negative.push(built)
            negativePhrase = false
          } else if (built !== null) {
            located.push(built)
          }
        }
        if (quotes % 2 === 1) {
          negativePhrase = negativeNextToken
          phrase = new PhraseBuilder()
        } else {
          phrase = null
        }
      }
      negativeNextToken = phrase === null && token.lemma === '-' && encounteredWhitespace
    }
    encounteredWhitespace = ENDS_WITH_WS.test(token.lemma)
  }
  if (phrase !== null) pushPhrase(phrase.build(), negativePhrase)
  return result(located, negative)
}

function result(located: QueryTerm[], negative: NegativeTerm[]): ParsedQueryText {
  return {
    located,
    terms: located.filter((t): t is WordTerm => t.type === 'word'),
    phrases: located.filter((t): t is PhraseTerm => t.type === 'phrase'),
    negative,
  }
}

// ---- facet search --------------------------------------------------------------------------------------------------

/** `FacetSearchQuery`'s fields in declaration order. */
const FACET_SEARCH_FIELDS = ['facetQuery', 'facetName', 'q', 'vector', 'media', 'hybrid', 'filter', 'matchingStrategy',
  'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'exhaustiveFacetCount'] as const

export interface FacetSearchRequest {
  facetName: string
  facetQuery: string | null
  exhaustiveFacetCount: boolean
  /** The search whose matching documents are counted. */
  search: SearchQuery
}

/** A `POST /indexes/{uid}/facet-search` body (deny-unknown, Meilisearch's codes). */
export function parseFacetSearchBody(body: unknown): FacetSearchRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidType('bad_request', '', 'an object', body)
  const rest: Record<string, unknown> = {}
  let facetName: string | undefined
  let facetQuery: string | null = null
  let exhaustiveFacetCount = false
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    switch (key) {
      case 'facetName':
        if (typeof value !== 'string') throw invalidType('invalid_facet_search_facet_name', '.facetName', 'a string', value)
        facetName = value
        break
      case 'facetQuery':
        if (value !== null && typeof value !== 'string') throw invalidType('invalid_facet_search_query', '.facetQuery', 'a string', value)
        facetQuery = value
        break
      case 'exhaustiveFacetCount':
        if (value !== null && typeof value !== 'boolean') throw invalidType('invalid_facet_search_exhaustive_facet_count', '.exhaustiveFacetCount', 'a boolean', value)
        exhaustiveFacetCount = value === true
        break
      default:
        if (!(FACET_SEARCH_FIELDS as readonly string[]).includes(key)) throw unknownField('', key, FACET_SEARCH_FIELDS)
        rest[key] = value
    }
  }
  if (facetName === undefined) throw missingField('missing_facet_search_facet_name', '', 'facetName')
  return { facetName, facetQuery, exhaustiveFacetCount, search: parseSearchBody(rest) }
}
