/**
 * Dropping the data of deleted indexes. An index's data lives under its internal id in every per-index column, so
 * it is a key range per column: once the deletion (or the clear that replaced the id) is committed, nothing can
 * reach that range, and it is dropped with range tombstones. A crash in between leaves a `garbage/<id>` marker
 * (catalog.ts), and start-up recovery finishes the job.
 */
import { keys, type Column, type Store } from '../storage/index.js'
import { garbageDone } from './catalog.js'

/** The column families whose keys start with an index's internal id. */
export const PER_INDEX_COLUMNS: readonly Column[] = ['documents', 'externalIds', 'settings', 'postings', 'positions', 'prefixes', 'facets', 'sortValues', 'vectors']

export async function dropGarbage(store: Store, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const { gte, lt } = keys.indexRange(id)
    for (const column of PER_INDEX_COLUMNS) await store.clearRange(column, gte, lt)
    await store.commit([garbageDone(id)])
  }
}
