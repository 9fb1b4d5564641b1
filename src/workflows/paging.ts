/**
 * The paging of every listing route (workflows, tags, projects), as n8n's: `limit` (default 100, at most 250) and
 * `cursor` (the previous page's `nextCursor`) in the query, `{data, nextCursor}` in the answer with `nextCursor`
 * null on the last page. A cursor carries its page size, which wins over the query's, as n8n's does.
 */
import { json } from '../http/json.js'
import type { Response } from '../http/types.js'
import type { Listing } from './cursor.js'
import type { OperationInput } from './operation.js'
import type { Schema } from './schema.js'
import type { Page } from './types.js'

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 250

/** n8n's shared `limit` parameter (a number, at most 250), with the minimum of 1 and the whole numbers it lacks. */
export const LIMIT_SCHEMA: Schema = { type: 'number', minimum: 1, maximum: MAX_LIMIT, whole: true }
export const CURSOR_SCHEMA: Schema = { type: 'string' }
export const PAGE_QUERY = { limit: LIMIT_SCHEMA, cursor: CURSOR_SCHEMA }

/** Where the page starts and how long it is: from the start, or where the cursor's page ended. */
export function pageStart({ query, service }: OperationInput, listing: Listing, scope: string): { after: number; limit: number } {
  const limit = typeof query.limit === 'number' ? query.limit : DEFAULT_LIMIT
  if (typeof query.cursor === 'string') return service.cursors.decode(listing, scope, query.cursor)
  return { after: 0, limit }
}

export function pageReply<T extends { seq: number }>(
  { service }: OperationInput,
  listing: Listing,
  scope: string,
  page: Page<T>,
  limit: number,
  data: unknown[],
): Response {
  const last = page.items[page.items.length - 1]
  return json(200, {
    data,
    nextCursor: page.more && last ? service.cursors.encode(listing, scope, { after: last.seq, limit }) : null,
  })
}
