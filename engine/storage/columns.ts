/**
 * RocksDB column families, one per kind of data. Keys inside the per-index families start with the index's
 * internal id (4 bytes, big-endian), so one index is one contiguous key range in each family.
 */
import type { RowRun } from './row-run.js'

export const COLUMNS = [
  'default',
  /** task uid (u32 BE) → the task as JSON text */
  'tasks',
  /** task uid (u32 BE) → nothing: the tasks not finished yet (enqueued or processing), all start-up has to read */
  'pendingTasks',
  /** batch uid (u32 BE) → the batch as JSON text */
  'batches',
  /** index uid (utf8) → msgpack IndexMeta */
  'indexes',
  /** service-wide counters and switches (next uids, experimental features, ...) */
  'meta',
  /** internal index id + document id → encoded document */
  'documents',
  /** internal index id + external id → document id */
  'externalIds',
  /** internal index id + settings name → settings value */
  'settings',
  /** internal index id + word → roaring bitmap of documents */
  'postings',
  /** internal index id + word + document → positions */
  'positions',
  /** internal index id + prefix → roaring bitmap */
  'prefixes',
  /** internal index id + field + value → roaring bitmap */
  'facets',
  /** internal index id + field + document → sort value */
  'sortValues',
  /** internal index id + embedder + document → vectors */
  'vectors',
  /** auth collections: users, sessions, lockout counters, tokens */
  'auth',
  /** workflows */
  'workflows',
  /** API keys: key uid (utf8) → msgpack record (never the key's value, which is derived from the master key) */
  'keys',
] as const

export type Column = (typeof COLUMNS)[number]

/** A write of one row, or a run of an index's rows (row-run.ts): what a batch's commit carries. */
export type Write = WriteOp | RowRun

/** A write: a put when `value` is set, a delete otherwise. */
export interface WriteOp {
  column: Column
  key: Uint8Array
  value?: Uint8Array
  /**
   * No reader reads this key from disk while the commit is in flight: the data is served from memory once loaded
   * (an index's postings and forward records, loaded before any batch edits them), or the key is written ahead for
   * a document that is not live yet. A shadowed commit need not keep the key's old value for readers.
   */
  unread?: true
}
