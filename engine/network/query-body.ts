/**
 * A parsed search query written back as the JSON a remote instance receives in its multi-search: every field that
 * differs from its default, in Meilisearch's `SearchQuery` field names. Pagination, `facets`, `useNetwork` and
 * `showPerformanceDetails` are not written: in a federated search they belong to the `federation` object (or, for
 * `useNetwork`, must not recurse).
 */
import type { JsonObject } from '../json/value.js'
import { defaultSearchQuery, type SearchQuery } from '../search/request.js'

const SKIPPED = new Set<keyof SearchQuery>(['offset', 'limit', 'page', 'hitsPerPage', 'facets', 'useNetwork', 'showPerformanceDetails'])

/** Locales as Tessera stores them (`eng`) are accepted as is by Meilisearch's `Locale` deserializer. */
export function remoteQueryBody(indexUid: string, query: SearchQuery, federationOptions: JsonObject): JsonObject {
  const defaults = defaultSearchQuery() as unknown as Record<string, unknown>
  const body: JsonObject = { indexUid }
  for (const [key, value] of Object.entries(query) as [keyof SearchQuery, unknown][]) {
    if (SKIPPED.has(key) || value === undefined) continue
    if (JSON.stringify(value) === JSON.stringify(defaults[key])) continue
    body[key] = value as JsonObject[string]
  }
  body.federationOptions = federationOptions
  return body
}
