/**
 * The copy half of `Store.checkpoint`: stream every column from iterators (each a read view of the same point in
 * the commit order) into a new RocksDB with the same column families, in large unsynced batches (the copy is
 * flushed when it is closed, and nobody reads it before).
 */
import { createRequire } from 'node:module'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { COLUMNS, type Column, type WriteOp } from './columns.js'

const require = createRequire(import.meta.url)
const { RocksLevel } = require('@nxtedition/rocksdb')

/** Rows per write of the copy. */
const COPY_BATCH = 1000

interface ColumnIterator {
  nextv(n: number): Promise<[Buffer, Buffer][]>
  close(): Promise<void>
}

/**
 * Copy `views` (one iterator per column, in COLUMNS order) into a new database at `path`, then apply `edits` to the
 * copy; closes the iterators.
 */
export async function copyColumns(views: ColumnIterator[], path: string, columnOptions: Partial<Record<Column, Record<string, unknown>>>, edits: readonly WriteOp[]): Promise<void> {
  mkdirSync(dirname(path), { recursive: true })
  const target = new RocksLevel(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  try {
    await target.open({
      createIfMissing: true,
      errorIfExists: true,
      createMissingColumnFamilies: true,
      infoLogLevel: 'error',
      columns: Object.fromEntries(COLUMNS.map((c) => [c, columnOptions[c] ?? {}])),
    })
    for (let i = 0; i < COLUMNS.length; i++) {
      const column = target.columns[COLUMNS[i]!]
      while (true) {
        const rows = await views[i]!.nextv(COPY_BATCH)
        if (rows.length === 0) break
        await target.batch(rows.map(([key, value]) => ({ type: 'put', key, value, column })), { sync: false })
      }
    }
    if (edits.length > 0) {
      await target.batch(edits.map((op) => ({
        type: op.value === undefined ? 'del' : 'put', key: Buffer.from(op.key), value: op.value && Buffer.from(op.value), column: target.columns[op.column],
      })), { sync: false })
    }
  } finally {
    for (const view of views) await view.close().catch(() => {})
    if (target.status === 'open') await target.close()
  }
}
