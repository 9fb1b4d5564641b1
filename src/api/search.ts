/**
 * Search requests, parsed and validated as Meilisearch does (`crates/meilisearch/src/search/mod.rs` `SearchQuery`,
 * `crates/meilisearch/src/routes/indexes/search.rs` `SearchQueryGet` and its `TryFrom`).
 *
 * - POST bodies: deserr with `deny_unknown_fields`; fields are read in the body's key order and the first error wins.
 *   Non-`Option` fields with defaults (`offset`, `cropMarker`, `showMatchesPosition`, `matchingStrategy`, ...) reject
 *   `null`; `Option` fields (`q`, `page`, `filter`, `hybrid`, ...) take `null` as absent.
 * - GET query strings: comma lists (`CS<T>`), `true`/`false`, positive integers, `filter` parsed as JSON when it
 *   parses, `hybridEmbedder`/`hybridSemanticRatio`, `vector` as a comma list of floats, `personalizeUserContext`.
 * - Checks that need the index (embedder names, searchable attributes, filters, sort) are not here; `searchKind`
 *   gives the route-level `missing_search_hybrid` check that Meilisearch makes after resolving the index.
 */
import { TesseraError, type ErrorCode } from '../../engine/errors/index.js'
import { isObject } from '../../engine/json/value.js'
import { LOCALES, LOCALE_VALUES, TO_ISO_639_3 } from '../../engine/settings/locales.js'
import {
  DEFAULT_SEMANTIC_RATIO, defaultSearchQuery, type FacetSearchRequest, type HybridQuery, type MatchingStrategy, type SearchQuery,
} from '../../engine/search/request.js'
import { rustTrim } from '../../engine/util/rust-text.js'
import {
  at, invalidParameter, invalidType, invalidValue, missingField, unknownField, unknownParameter, type Path,
  booleanParam, expectUsize, positiveIntegerParam, U64_MAX,
  expectString as str, expectBoolean as bool, expectNumber as float, expectStringList as strings, expectEnum as enumValue,
} from './deserr.js'

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
      case 'offset': query.offset = expectUsize(value, path, CODES.offset); break
      case 'limit': query.limit = expectUsize(value, path, CODES.limit); break
      case 'page': query.page = value === null ? null : expectUsize(value, path, CODES.page); break
      case 'hitsPerPage': query.hitsPerPage = value === null ? null : expectUsize(value, path, CODES.hitsPerPage); break
      case 'attributesToRetrieve': query.attributesToRetrieve = value === null ? null : strings(value, path, CODES.attributesToRetrieve); break
      case 'attributesToCrop': query.attributesToCrop = value === null ? null : strings(value, path, CODES.attributesToCrop); break
      case 'cropLength': query.cropLength = expectUsize(value, path, CODES.cropLength); break
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

/** Rust's `f64::from_str` / `f32::from_str` grammar: decimal with optional exponent, or inf/infinity/nan. null if not. */
export function parseRustFloat(text: string): number | null {
  const m = /^([+-]?)(?:(inf|infinity)|(nan)|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))$/i.exec(text)
  if (!m) return null
  if (m[2] !== undefined) return m[1] === '-' ? -Infinity : Infinity
  if (m[3] !== undefined) return NaN
  return Number(`${m[1]}${m[4]}`)
}

/** `CS<T>`: an empty value is an empty list, otherwise the value split on every comma (no trimming). */
export function commaList(text: string): string[] {
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
      case 'offset': query.offset = positiveIntegerParam(CODES.offset, name, text, U64_MAX); break
      case 'limit': query.limit = positiveIntegerParam(CODES.limit, name, text, U64_MAX); break
      case 'page': query.page = positiveIntegerParam(CODES.page, name, text, U64_MAX); break
      case 'hitsPerPage': query.hitsPerPage = positiveIntegerParam(CODES.hitsPerPage, name, text, U64_MAX); break
      case 'attributesToRetrieve': query.attributesToRetrieve = commaList(text); break
      case 'attributesToCrop': query.attributesToCrop = commaList(text); break
      case 'cropLength': query.cropLength = positiveIntegerParam(CODES.cropLength, name, text, U64_MAX); break
      case 'cropMarker': query.cropMarker = text; break
      case 'attributesToHighlight': query.attributesToHighlight = commaList(text); break
      case 'highlightPreTag': query.highlightPreTag = text; break
      case 'highlightPostTag': query.highlightPostTag = text; break
      case 'showMatchesPosition': query.showMatchesPosition = booleanParam(CODES.showMatchesPosition, name, text); break
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
      case 'retrieveVectors': query.retrieveVectors = booleanParam(CODES.retrieveVectors, name, text); break
      case 'personalizeUserContext': query.personalize = { userContext: text }; break
      case 'useNetwork': query.useNetwork = booleanParam(CODES.useNetwork, name, text); break
      case 'showRankingScore': query.showRankingScore = booleanParam(CODES.showRankingScore, name, text); break
      case 'showRankingScoreDetails': query.showRankingScoreDetails = booleanParam(CODES.showRankingScoreDetails, name, text); break
      case 'showPerformanceDetails': query.showPerformanceDetails = booleanParam(CODES.showPerformanceDetails, name, text); break
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

// ---- facet search --------------------------------------------------------------------------------------------------

/** `FacetSearchQuery`'s fields in declaration order. */
const FACET_SEARCH_FIELDS = ['facetQuery', 'facetName', 'q', 'vector', 'media', 'hybrid', 'filter', 'matchingStrategy',
  'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'exhaustiveFacetCount'] as const

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
