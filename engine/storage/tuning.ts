/**
 * RocksDB's memory, bounded where it costs nothing (issue 18, part 4). Left to the binding's defaults, each of the
 * ~18 column families had RocksDB's 64 MB write buffers (two before writes stall) and an 8 MB block cache of its
 * own. Now:
 * - the small column families (tasks' bookkeeping, settings, keys, auth, workflows, ...) use level compaction with
 *   a 4 MB memtable budget (1 MB write buffers): they are written a few rows at a time;
 * - the columns a document batch writes in bulk keep RocksDB's write buffers: smaller ones (2-16 MB, from
 *   `--max-indexing-memory`, with the binding's level-compaction preset) were measured on GCIDE at 40 MB less
 *   resident memory after a 126k-document batch, but with levels 0-1 uncompressed the index took 105 MB on disk
 *   instead of 29 MB, and on the loaded 2-core machine a batch stalled for 10 s waiting on compactions;
 * - block caches: the documents' (read at random by every search) keeps its 32 MB; postings and forward records
 *   are only scanned when an index is loaded into memory and get none; the rest 2 MB.
 */
import type { Column } from './columns.js'

const MB = 1 << 20
/** Columns a document batch writes in bulk. */
const BULK: ReadonlySet<Column> = new Set(['documents', 'positions', 'postings', 'externalIds', 'facets', 'sortValues', 'vectors', 'tasks'])
/** Columns read only by scans at load (their data is then served from memory): no block cache. */
const SCANNED: ReadonlySet<Column> = new Set(['postings', 'positions'])
const SMALL_BUDGET = 4 * MB
const DOCUMENTS_CACHE = 32 * MB
const SMALL_CACHE = 2 * MB

/** RocksDB options of one column family (the binding's names). */
export function columnOptions(column: Column): Record<string, unknown> {
  const cacheSize = column === 'documents' ? DOCUMENTS_CACHE : SCANNED.has(column) ? 0 : SMALL_CACHE
  if (BULK.has(column)) return { cacheSize }
  return { compaction: 'level', memtableMemoryBudget: SMALL_BUDGET, cacheSize }
}
