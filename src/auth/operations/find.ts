/**
 * Reading users (Payload's `find` and `findByID`): the collection's `read` access decides, and a `Where` answer
 * filters. `showHiddenFields` (local API) adds the hidden fields, `_verificationToken` among them.
 */
import type { Where } from '../config/types.js'
import { executeAccess, whereOf } from '../access/execute.js'
import { NotFound } from '../errors.js'
import { userView } from '../user-view.js'
import { matchesWhere } from '../where.js'
import type { UserRecord } from '../store/user-record.js'
import type { OperationArgs } from './types.js'

export interface ReadOptions {
  overrideAccess?: boolean
  showHiddenFields?: boolean
}

export interface PaginatedDocs {
  docs: Record<string, unknown>[]
  totalDocs: number
  limit: number
  totalPages: number
  page: number
  pagingCounter: number
  hasPrevPage: boolean
  hasNextPage: boolean
  prevPage: number | null
  nextPage: number | null
}

async function readConstraint(args: OperationArgs & ReadOptions, id?: string): Promise<Where | null> {
  if (args.overrideAccess) return null
  return whereOf(await executeAccess(args.collection.access.read, { req: { user: args.req.user }, id }))
}

/** Access filters match against what the reader may know of a user, never its hash or tokens. */
function matchable(args: OperationArgs, record: UserRecord): Record<string, unknown> {
  return userView(args.collection, record, args.auth.secret, { viewer: null, overrideAccess: true })
}

export async function findByIDOperation(args: OperationArgs & ReadOptions & { id: string }): Promise<Record<string, unknown>> {
  const constraint = await readConstraint(args, args.id)
  const record = typeof args.id === 'string' ? args.auth.users.get(args.collection.slug, args.id) : null
  if (!record || (constraint && !matchesWhere(matchable(args, record), constraint))) throw new NotFound()
  return userView(args.collection, record, args.auth.secret, { viewer: args.req.user, overrideAccess: args.overrideAccess, showHiddenFields: args.showHiddenFields })
}

export async function findOperation(args: OperationArgs & ReadOptions & { where?: Where; limit?: number; page?: number }): Promise<PaginatedDocs> {
  const constraint = await readConstraint(args)
  const limit = Number.isInteger(args.limit) && args.limit! > 0 ? args.limit! : 10
  const page = Number.isInteger(args.page) && args.page! > 0 ? args.page! : 1
  const matching: UserRecord[] = []
  for await (const record of args.auth.users.all(args.collection.slug)) {
    const visible = matchable(args, record)
    if (constraint && !matchesWhere(visible, constraint)) continue
    // A query may name hidden fields (e.g. `_verificationToken`), as a Payload database query may.
    if (matchesWhere({ ...record, ...visible }, args.where)) matching.push(record)
  }
  // Newest first, Payload's default sort (`-createdAt`).
  matching.reverse()
  const totalDocs = matching.length
  const totalPages = Math.max(1, Math.ceil(totalDocs / limit))
  const docs = matching.slice((page - 1) * limit, page * limit)
    .map((r) => userView(args.collection, r, args.auth.secret, { viewer: args.req.user, overrideAccess: args.overrideAccess, showHiddenFields: args.showHiddenFields }))
  return {
    docs, totalDocs, limit, totalPages, page,
    pagingCounter: (page - 1) * limit + 1,
    hasPrevPage: page > 1,
    hasNextPage: page < totalPages,
    prevPage: page > 1 ? page - 1 : null,
    nextPage: page < totalPages ? page + 1 : null,
  }
}
