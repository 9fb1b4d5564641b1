/**
 * `POST /indexes/{uid}/fields` bodies (Meilisearch's `ListFields`, deny-unknown): `offset` (0), `limit` (20) and a
 * `filter` of `attributePatterns` and boolean capabilities, each with its own error code.
 */
import type { FieldsFilter, FieldsQuery } from '../../engine/index.js'
import type { ErrorCode } from '../../engine/errors/index.js'
import { expectBoolean, expectObject, expectStringList, expectUsize } from './deserr.js'

const FILTER_KEYS = ['attributePatterns', 'displayed', 'searchable', 'sortable', 'distinct', 'rankingRule', 'filterable'] as const
const FILTER_CODES: Record<(typeof FILTER_KEYS)[number], ErrorCode> = {
  attributePatterns: 'invalid_index_fields_filter_attribute_patterns',
  displayed: 'invalid_index_fields_filter_displayed',
  searchable: 'invalid_index_fields_filter_searchable',
  sortable: 'invalid_index_fields_filter_sortable',
  distinct: 'invalid_index_fields_filter_distinct',
  rankingRule: 'invalid_index_fields_filter_ranking_rule',
  filterable: 'invalid_index_fields_filter_filterable',
}

export function parseFieldsBody(body: unknown): FieldsQuery {
  const obj = expectObject(body, '', ['offset', 'limit', 'filter'])
  const query: FieldsQuery = { offset: 0, limit: 20, filter: null }
  if (obj.offset !== undefined) query.offset = expectUsize(obj.offset, '.offset', 'invalid_index_offset')
  if (obj.limit !== undefined) query.limit = expectUsize(obj.limit, '.limit', 'invalid_index_limit')
  if (obj.filter !== undefined && obj.filter !== null) {
    const raw = expectObject(obj.filter, '.filter', FILTER_KEYS, 'invalid_index_fields_filter', 'invalid_index_fields_filter')
    const filter: FieldsFilter = {}
    for (const key of FILTER_KEYS) {
      const value = raw[key]
      if (value === undefined || value === null) continue
      if (key === 'attributePatterns') filter.attributePatterns = expectStringList(value, `.filter.${key}`, FILTER_CODES[key])
      else filter[key] = expectBoolean(value, `.filter.${key}`, FILTER_CODES[key])
    }
    query.filter = filter
  }
  return query
}
