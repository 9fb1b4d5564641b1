/**
 * `POST /multi-search` bodies, deserr-validated in key order (first error wins): `{queries: [...], federation?}`
 * (`SearchQueryWithIndex`, `FederatedSearch` in `crates/meilisearch/src/search/`). A query is a search body plus
 * `indexUid` (required: `missing_index_uid`) and `federationOptions {weight, remote, queryPosition}`; there
 * `offset`, `limit` and `showPerformanceDetails` are optional (`null` is absent).
 */
import { TesseraError, type ErrorCode } from '../../engine/errors/index.js'
import { isObject, type JsonObject } from '../../engine/json/value.js'
import {
  DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_OFFSET, defaultSearchQuery,
  type Federation, type FederationOptions, type MultiSearchQuery, type MultiSearchRequest, type SearchQuery,
} from '../../engine/search/request.js'
import { at, invalidType, invalidValue, missingField, unknownField, expectNumber, type Path, expectUsize } from './deserr.js'
import { parseSearchBody, SEARCH_BODY_FIELDS } from './search.js'
import { isValidIndexUid, indexUidMessage } from './index-uid.js'

const BODY_FIELDS = ['queries', 'federation'] as const
const QUERY_FIELDS = ['indexUid', ...SEARCH_BODY_FIELDS, 'federationOptions'] as const
const FEDERATION_OPTIONS_FIELDS = ['weight', 'remote', 'queryPosition'] as const
const FEDERATION_FIELDS = ['limit', 'offset', 'page', 'hitsPerPage', 'facetsByIndex', 'mergeFacets', 'distinct', 'showPerformanceDetails'] as const

const WEIGHT_MESSAGE = 'the value of `weight` is invalid, expected a positive float (>= 0.0).'

/** A search-body field, validated by the single-search parser, its error located inside `.queries[N]`. */
function searchField(query: SearchQuery, key: string, value: unknown, path: Path): void {
  let parsed: SearchQuery
  try {
    parsed = parseSearchBody({ [key]: value })
  } catch (err) {
    if (err instanceof TesseraError) throw new TesseraError(err.code, err.message.replace(`\`.${key}`, `\`${path}.${key}`))
    throw err
  }
  ;(query as unknown as JsonObject)[key] = (parsed as unknown as JsonObject)[key]
}

function parseFederationOptions(value: unknown, path: Path): FederationOptions | null {
  if (value === null) return null
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const options: FederationOptions = { weight: 1, remote: null, queryPosition: null }
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    switch (key) {
      case 'weight': {
        const w = expectNumber(v, p, 'invalid_multi_search_weight')
        if (w < 0) throw invalidValue('invalid_multi_search_weight', p, WEIGHT_MESSAGE)
        options.weight = w
        break
      }
      case 'remote':
        if (v !== null && typeof v !== 'string') throw invalidType('invalid_multi_search_remote', p, 'a string', v)
        options.remote = v
        break
      case 'queryPosition': options.queryPosition = v === null ? null : expectUsize(v, p, 'invalid_multi_search_query_position'); break
      default: throw unknownField(path, key, FEDERATION_OPTIONS_FIELDS)
    }
  }
  return options
}

function parseQuery(value: unknown, path: Path): MultiSearchQuery {
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const query = defaultSearchQuery()
  const present = new Set<string>()
  let indexUid: string | undefined
  let federationOptions: FederationOptions | null = null
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    if (key === 'indexUid') {
      if (typeof v !== 'string') throw invalidType('invalid_index_uid', p, 'a string', v)
      if (!isValidIndexUid(v)) throw invalidValue('invalid_index_uid', p, indexUidMessage(v))
      indexUid = v
    } else if (key === 'federationOptions') {
      federationOptions = parseFederationOptions(v, p)
    } else if (!(QUERY_FIELDS as readonly string[]).includes(key)) {
      throw unknownField(path, key, QUERY_FIELDS)
    } else if (v === null && (key === 'offset' || key === 'limit' || key === 'showPerformanceDetails')) {
      // `Option` in `SearchQueryWithIndex` (not in `SearchQuery`): null is absent.
    } else {
      searchField(query, key, v, path)
      if (v !== null) present.add(key)
    }
  }
  if (indexUid === undefined) throw missingField('missing_index_uid', path, 'indexUid')
  return { indexUid, query, present, federationOptions }
}

function parseFacetsByIndex(value: unknown, path: Path): Map<string, string[] | null> {
  const code = 'invalid_multi_search_facets_by_index'
  const out = new Map<string, string[] | null>()
  if (value === null) return out
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  for (const uid of Object.keys(value)) {
    // GUESSED: the key's error; Meilisearch parses keys as `IndexUid`.
    if (!isValidIndexUid(uid)) throw invalidValue(code, path, indexUidMessage(uid))
    const facets = value[uid]
    const p = at(path, uid)
    if (facets === null) { out.set(uid, null); continue }
    if (!Array.isArray(facets)) throw invalidType(code, p, 'an array', facets)
    out.set(uid, facets.map((f, i) => {
      if (typeof f !== 'string') throw invalidType(code, at(p, i), 'a string', f)
      return f
    }))
  }
  return out
}

function parseMergeFacets(value: unknown, path: Path): { maxValuesPerFacet: number | null } | null {
  const code = 'invalid_multi_search_merge_facets'
  if (value === null) return null
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  const merge = { maxValuesPerFacet: null as number | null }
  for (const key of Object.keys(value)) {
    const v = value[key]
    if (key !== 'maxValuesPerFacet') throw unknownField(path, key, ['maxValuesPerFacet'], code)
    merge.maxValuesPerFacet = v === null ? null : expectUsize(v, at(path, key), 'invalid_multi_search_max_values_per_facet')
  }
  return merge
}

function parseFederation(value: unknown, path: Path): Federation | null {
  if (value === null) return null
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const federation: Federation = {
    limit: DEFAULT_SEARCH_LIMIT, offset: DEFAULT_SEARCH_OFFSET, page: null, hitsPerPage: null,
    facetsByIndex: new Map(), mergeFacets: null, distinct: null, showPerformanceDetails: false,
  }
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    switch (key) {
      case 'limit': federation.limit = expectUsize(v, p, 'invalid_search_limit'); break
      case 'offset': federation.offset = expectUsize(v, p, 'invalid_search_offset'); break
      case 'page': federation.page = v === null ? null : expectUsize(v, p, 'invalid_search_page'); break
      case 'hitsPerPage': federation.hitsPerPage = v === null ? null : expectUsize(v, p, 'invalid_search_hits_per_page'); break
      case 'facetsByIndex': federation.facetsByIndex = parseFacetsByIndex(v, p); break
      case 'mergeFacets': federation.mergeFacets = parseMergeFacets(v, p); break
      case 'distinct':
        if (v !== null && typeof v !== 'string') throw invalidType('invalid_multi_search_distinct', p, 'a string', v)
        federation.distinct = v
        break
      case 'showPerformanceDetails':
        if (v !== null && typeof v !== 'boolean') throw invalidType('invalid_multi_search_query_show_performance_details', p, 'a boolean', v)
        federation.showPerformanceDetails = v === true
        break
      default: throw unknownField(path, key, FEDERATION_FIELDS)
    }
  }
  return federation
}

/** `FederatedSearch` (deny unknown fields, keys in order, first error wins). */
export function parseMultiSearchRequest(body: unknown): MultiSearchRequest {
  if (!isObject(body)) throw invalidType('bad_request', '', 'an object', body)
  let queries: MultiSearchQuery[] | undefined
  let federation: Federation | null = null
  for (const key of Object.keys(body)) {
    const v = body[key]
    const p = at('', key)
    if (key === 'queries') {
      if (!Array.isArray(v)) throw invalidType('bad_request', p, 'an array', v)
      queries = v.map((q, i) => parseQuery(q, at(p, i)))
    } else if (key === 'federation') {
      federation = parseFederation(v, p)
    } else {
      throw unknownField('', key, BODY_FIELDS)
    }
  }
  if (queries === undefined) throw missingField('bad_request', '', 'queries')
  return { queries, federation }
}
