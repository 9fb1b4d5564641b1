/**
 * What an authenticated request may touch, handed to its route as `ctx.auth` (Meilisearch's `AuthFilter`):
 * which indexes (the key's patterns, narrowed by a tenant token's search rules), whether it may create an index,
 * and the tenant token's filter for each index. The master key, and every request when no master key is set, get
 * `FULL_GRANT`.
 */
import { anyMatches } from './index-pattern.js'
import type { LoadedKey } from './key-store.js'
import { allowsAllIndexes, isIndexAuthorizedBy, ruleFilter, type SearchRules } from './search-rules.js'

export interface Grant {
  /** Every index is allowed. */
  readonly allIndexes: boolean
  isIndexAuthorized(uid: string): boolean
  /** May this request create `uid` (explicitly, or by writing to a missing index)? */
  allowIndexCreation(uid: string): boolean
  /** The tenant token's filter for `uid`, to AND with a search's filter; undefined for none. */
  searchFilter(uid: string): unknown
  /** For listings (tasks, batches, indexes, stats): which indexes are visible; undefined when all are. */
  readonly indexScope: ((uid: string) => boolean) | undefined
}

export const FULL_GRANT: Grant = {
  allIndexes: true,
  isIndexAuthorized: () => true,
  allowIndexCreation: () => true,
  searchFilter: () => undefined,
  indexScope: undefined,
}

export function keyGrant(key: LoadedKey, tenant: SearchRules | null): Grant {
  const byKey = (uid: string) => key.allIndexes || anyMatches(key.indexes, uid)
  const isIndexAuthorized = (uid: string) => byKey(uid) && (tenant === null || isIndexAuthorizedBy(tenant, uid))
  const allIndexes = key.allIndexes && (tenant === null || allowsAllIndexes(tenant))
  const canCreate = key.granted.has('indexes.create') && key.indexes.length > 0
  return {
    allIndexes,
    isIndexAuthorized,
    allowIndexCreation: (uid) => canCreate && isIndexAuthorized(uid),
    // An API key's own patterns carry no filter; only a tenant token's rules do.
    searchFilter: (uid) => (tenant !== null && isIndexAuthorized(uid) ? ruleFilter(tenant, uid) : undefined),
    indexScope: allIndexes ? undefined : isIndexAuthorized,
  }
}
