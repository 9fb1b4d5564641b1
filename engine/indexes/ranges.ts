import type { Column } from '../storage/index.js'
import { keys } from '../storage/index.js'

/** The column families whose keys start with an index's internal id. */
export const PER_INDEX_COLUMNS: Column[] = ['documents', 'externalIds', 'settings', 'postings', 'positions', 'prefixes', 'facets', 'sortValues', 'vectors']

export function indexRangeOf(id: number): { gte: Buffer; lt: Buffer } {
  return keys.indexRange(id)
}
