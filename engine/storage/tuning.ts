/**
 * RocksDB's block caches, sized per use (issue 18, part 4). Left to the binding's defaults, each of the ~18 column
 * families had an 8 MB block cache of its own. Now the documents' (read at random by every search) has 32 MB;
 * postings and forward records, only scanned when an index is loaded into memory, have none; the rest 2 MB.
 *
 * Write buffers keep RocksDB's defaults (64 MB, two per column family before writes stall). Bounded ones were
 * measured and dropped: with the binding's level-compaction preset and 2-16 MB buffers for the bulk columns
 * (from `--max-indexing-memory`), GCIDE's 126k-document batch left 40 MB less resident memory but took 105 MB on
 * disk instead of 29 MB (levels 0-1 uncompressed); with 1 MB buffers for the small column families only, the
 * total write-ahead-log limit (derived from the write buffers) shrinks, which can force early flushes of the bulk
 * columns, and two of three bench runs on GCIDE saw a batch spend 10 s with little CPU (on a machine with a load
 * average of 17 on 2 cores: the cause was not settled, so the defaults stay).
 */
import { COLUMNS, type Column } from './columns.js'

const MB = 1 << 20
/** Columns read only by scans at load (their data is then served from memory): no block cache. */
const SCANNED: ReadonlySet<Column> = new Set(['postings', 'positions'])
const DOCUMENTS_CACHE = 32 * MB
const SMALL_CACHE = 2 * MB

/** RocksDB options of one column family (the binding's names). */
export function columnOptions(column: Column): Record<string, unknown> {
  return { cacheSize: column === 'documents' ? DOCUMENTS_CACHE : SCANNED.has(column) ? 0 : SMALL_CACHE }
}

/** The options of every column family, as `RocksLevel.open` takes them. */
export function allColumnOptions(): Record<Column, Record<string, unknown>> {
  return Object.fromEntries(COLUMNS.map((c) => [c, columnOptions(c)])) as Record<Column, Record<string, unknown>>
}
