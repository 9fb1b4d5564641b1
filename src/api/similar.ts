/**
 * `/indexes/{uid}/similar` requests (Meilisearch's `SimilarQuery`, `routes/indexes/similar.rs`): the POST body with
 * deserr's rules (fields in the body's order, first error wins, missing fields last) and the GET query parameters.
 */
import { TesseraError, type ErrorCode } from '../../engine/errors/index.js'
import { isObject } from '../../engine/json/value.js'
import { canonicalId } from '../../engine/documents/read.js'
import type { SimilarQuery } from '../../engine/search/similar.js'
import {
  at, booleanParam, expectBoolean as bool, expectNumber as float, expectString as str, expectStringList as strings,
  expectUsize, invalidParameter, invalidType, invalidValue, missingField, positiveIntegerParam, unknownField,
  unknownParameter, U64_MAX,
} from './deserr.js'
import { commaList, parseRustFloat } from './search.js'

export const SIMILAR_FIELDS = ['id', 'offset', 'limit', 'filter', 'embedder', 'attributesToRetrieve', 'retrieveVectors', 'showRankingScore', 'showRankingScoreDetails', 'showPerformanceDetails', 'rankingScoreThreshold'] as const

const CODES = {
  id: 'invalid_similar_id', offset: 'invalid_similar_offset', limit: 'invalid_similar_limit', filter: 'invalid_similar_filter',
  embedder: 'invalid_similar_embedder', attributesToRetrieve: 'invalid_similar_attributes_to_retrieve',
  retrieveVectors: 'invalid_similar_retrieve_vectors', showRankingScore: 'invalid_similar_show_ranking_score',
  showRankingScoreDetails: 'invalid_similar_show_ranking_score_details',
  showPerformanceDetails: 'invalid_similar_show_performance_details', rankingScoreThreshold: 'invalid_similar_ranking_score_threshold',
} as const satisfies Record<string, ErrorCode>

const ID_MESSAGE = 'the value of `id` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.'
const THRESHOLD_MESSAGE = 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'

function defaults(): Omit<SimilarQuery, 'id' | 'embedder'> {
  return { offset: 0, limit: 20, filter: undefined, attributesToRetrieve: null, retrieveVectors: false, showRankingScore: false, showRankingScoreDetails: false, showPerformanceDetails: false, rankingScoreThreshold: null }
}

export function parseSimilarBody(body: unknown): SimilarQuery {
  if (!isObject(body)) throw invalidType('bad_request', '', 'an object', body)
  const q = defaults()
  let id: string | null = null
  let embedder: string | null = null
  for (const key of Object.keys(body)) {
    const value = body[key]
    const path = at('', key)
    switch (key) {
      case 'id': {
        const c = typeof value === 'string' || typeof value === 'number' ? canonicalId(value) : null
        if (c === null) throw invalidValue(CODES.id, path, ID_MESSAGE)
        id = c
        break
      }
      case 'offset': q.offset = expectUsize(value, path, CODES.offset); break
      case 'limit': q.limit = expectUsize(value, path, CODES.limit); break
      case 'filter': q.filter = value === null ? undefined : value; break
      case 'embedder': embedder = str(value, path, CODES.embedder); break
      case 'attributesToRetrieve': q.attributesToRetrieve = value === null ? null : strings(value, path, CODES.attributesToRetrieve); break
      case 'retrieveVectors': q.retrieveVectors = bool(value, path, CODES.retrieveVectors); break
      case 'showRankingScore': q.showRankingScore = bool(value, path, CODES.showRankingScore); break
      case 'showRankingScoreDetails': q.showRankingScoreDetails = bool(value, path, CODES.showRankingScoreDetails); break
      case 'showPerformanceDetails': q.showPerformanceDetails = bool(value, path, CODES.showPerformanceDetails); break
      case 'rankingScoreThreshold': {
        if (value === null) { q.rankingScoreThreshold = null; break }
        const f = float(value, path, CODES.rankingScoreThreshold)
        if (f > 1 || f < 0) throw invalidValue(CODES.rankingScoreThreshold, path, THRESHOLD_MESSAGE)
        q.rankingScoreThreshold = f
        break
      }
      default: throw unknownField('', key, SIMILAR_FIELDS)
    }
  }
  if (id === null) throw missingField('bad_request', '', 'id')
  if (embedder === null) throw missingField('bad_request', '', 'embedder')
  return { ...q, id, embedder }
}

export function parseSimilarParams(rawQuery: string): SimilarQuery {
  const q = defaults()
  let id: string | null = null
  let embedder: string | null = null
  const search = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery)
  for (const [name, text] of search) {
    switch (name) {
      case 'id': {
        const c = canonicalId(text)
        if (c === null) throw invalidParameter(CODES.id, name, ID_MESSAGE)
        id = c
        break
      }
      case 'offset': q.offset = positiveIntegerParam(CODES.offset, name, text, U64_MAX); break
      case 'limit': q.limit = positiveIntegerParam(CODES.limit, name, text, U64_MAX); break
      case 'filter': try { q.filter = JSON.parse(text) } catch { q.filter = text } break
      case 'embedder': embedder = text; break
      case 'attributesToRetrieve': q.attributesToRetrieve = commaList(text); break
      case 'retrieveVectors': q.retrieveVectors = booleanParam(CODES.retrieveVectors, name, text); break
      case 'showRankingScore': q.showRankingScore = booleanParam(CODES.showRankingScore, name, text); break
      case 'showRankingScoreDetails': q.showRankingScoreDetails = booleanParam(CODES.showRankingScoreDetails, name, text); break
      case 'showPerformanceDetails': q.showPerformanceDetails = booleanParam(CODES.showPerformanceDetails, name, text); break
      case 'rankingScoreThreshold': {
        const f = parseRustFloat(text)
        if (f === null || f > 1 || f < 0) throw invalidParameter(CODES.rankingScoreThreshold, name, THRESHOLD_MESSAGE)
        q.rankingScoreThreshold = f
        break
      }
      default: throw unknownParameter(name, SIMILAR_FIELDS)
    }
  }
  if (id === null) throw new TesseraError('bad_request', 'Missing parameter `id`')
  if (embedder === null) throw new TesseraError('bad_request', 'Missing parameter `embedder`')
  return { ...q, id, embedder }
}
