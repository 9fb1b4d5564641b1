/**
 * RocksDB's memory, bounded (issue 18, part 4). Left to the binding's defaults, each of the ~18 column families
 * had RocksDB's 64 MB write buffer (two of them before writes stall) and a block cache of its own (8 MB): an
 * indexed corpus stayed in memtables until each one filled, so a 42 MB dictionary left over 100 MB of memtables
 * resident after its batch, and the worst case was above 2 GB on a machine sized for 2 cores.
 *
 * Now every column family uses level compaction with a memtable budget (the binding then sets a write buffer of a
 * quarter of it, merges two before a flush, and keeps levels 0 and 1 uncompressed and small): the columns a
 * batch writes in bulk get a budget from `--max-indexing-memory` (1/32 of it, 8 to 64 MB, so 2 to 16 MB write
 * buffers), the others a small fixed one. Block caches: the documents' (read at random by every search) keeps
 * its 32 MB; postings and forward records are only scanned when an index is loaded into memory and get none;
 * the rest a small one.
 */
import type { Column } from './columns.js'

export interface StoreTuning {
  /** Bytes indexing may use (`--max-indexing-memory`); sizes the write buffers of the bulk columns. */
  maxIndexingMemory?: number
}

const MB = 1 << 20
/** Columns a document batch writes in bulk. */
const BULK: ReadonlySet<Column> = new Set(['documents', 'positions', 'postings', 'externalIds', 'facets', 'sortValues', 'vectors', 'tasks'])
/** Columns read only by scans at load (their data is then served from memory): no block cache. */
const SCANNED: ReadonlySet<Column> = new Set(['postings', 'positions'])
const SMALL_BUDGET = 4 * MB
const DOCUMENTS_CACHE = 32 * MB
const SMALL_CACHE = 2 * MB
/** Without `--max-indexing-memory` (tests, tools): the budget of a 1 GiB indexing memory. */
const DEFAULT_INDEXING_MEMORY = 1 << 30

/** The memtable budget of a bulk column for an indexing memory. */
export function bulkMemtableBudget(maxIndexingMemory: number): number {
  return Math.min(64 * MB, Math.max(8 * MB, Math.floor(maxIndexingMemory / 32)))
}

/** RocksDB options of one column family (the binding's names). */
export function columnOptions(column: Column, tuning: StoreTuning = {}): Record<string, unknown> {
  const budget = BULK.has(column) ? bulkMemtableBudget(tuning.maxIndexingMemory ?? DEFAULT_INDEXING_MEMORY) : SMALL_BUDGET
  const cacheSize = column === 'documents' ? DOCUMENTS_CACHE : SCANNED.has(column) ? 0 : SMALL_CACHE
  return { compaction: 'level', memtableMemoryBudget: budget, cacheSize }
}
