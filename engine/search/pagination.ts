/**
 * Pagination of search results as Meilisearch computes it (`crates/meilisearch/src/search/mod.rs`: `prepare_search`
 * for the window, `perform_search` for `HitsInfo`):
 *
 * - `page` or `hitsPerPage` present → finite pagination: `hitsPerPage` defaults to 20 and `page` to 1; the window is
 *   `offset = hitsPerPage × (page − 1)`, `limit = hitsPerPage`, and `page = 0` is the empty window `(0, 0)`.
 *   Otherwise the window is `offset`/`limit` as sent.
 * - The window is then clamped to `maxTotalHits`: `offset = min(offset, max)`, `limit = min(limit, max − offset)`.
 * - The number of hits reported is `min(candidates, maxTotalHits)`: `estimatedTotalHits`, or `totalHits` with
 *   `totalPages = ceil(totalHits / hitsPerPage)` (0 when `hitsPerPage` is 0).
 * - The offset/limit response echoes the query's `limit` (not the clamped one) and the clamped `offset`.
 */
import { DEFAULT_SEARCH_LIMIT, type SearchQuery } from './request.js'

/** `pagination.maxTotalHits` when the setting is unset. */
export const DEFAULT_MAX_TOTAL_HITS = 1000

export type PaginationQuery = Pick<SearchQuery, 'offset' | 'limit' | 'page' | 'hitsPerPage'>

export interface SearchWindow {
  /** Documents to skip, after clamping. */
  offset: number
  /** Documents to return, after clamping. */
  limit: number
  /** `page`/`hitsPerPage` mode: the engine must count candidates exhaustively (`exhaustive_number_hits`). */
  finite: boolean
  /** The bound used. */
  maxTotalHits: number
}

export interface OffsetLimitInfo {
  limit: number
  offset: number
  estimatedTotalHits: number
}

export interface PageInfo {
  hitsPerPage: number
  page: number
  totalPages: number
  totalHits: number
}

export type HitsInfo = OffsetLimitInfo | PageInfo

export function isFinitePagination(query: Pick<SearchQuery, 'page' | 'hitsPerPage'>): boolean {
  return query.page !== null || query.hitsPerPage !== null
}

/** The slice of the ranked candidates to compute. `maxTotalHits` null or undefined means the default (1000). */
export function searchWindow(query: PaginationQuery, maxTotalHits?: number | null): SearchWindow {
  const max = maxTotalHits ?? DEFAULT_MAX_TOTAL_HITS
  const finite = isFinitePagination(query)
  let offset: number
  let limit: number
  if (finite) {
    const perPage = query.hitsPerPage ?? DEFAULT_SEARCH_LIMIT
    const page = query.page ?? 1
    // page 0 gives a limit of 0 forcing Meilisearch to return no document.
    if (page === 0) [offset, limit] = [0, 0]
    else [offset, limit] = [perPage * (page - 1), perPage]
  } else {
    offset = query.offset
    limit = query.limit
  }
  offset = Math.min(offset, max)
  limit = Math.min(limit, Math.max(0, max - offset))
  return { offset, limit, finite, maxTotalHits: max }
}

/** The response's pagination fields, in Meilisearch's key order, for `candidates` matching documents. */
export function hitsInfo(query: PaginationQuery, window: SearchWindow, candidates: number): HitsInfo {
  const hits = Math.min(candidates, window.maxTotalHits)
  if (isFinitePagination(query)) {
    const hitsPerPage = query.hitsPerPage ?? DEFAULT_SEARCH_LIMIT
    // If hitsPerPage is 0, pages can't be computed and Meilisearch answers 0.
    const totalPages = hitsPerPage === 0 ? 0 : Math.floor((hits + hitsPerPage - 1) / hitsPerPage)
    return { hitsPerPage, page: query.page ?? 1, totalPages, totalHits: hits }
  }
  return { limit: query.limit, offset: window.offset, estimatedTotalHits: hits }
}
