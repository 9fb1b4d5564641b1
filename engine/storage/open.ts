/** Opening the database and its writer thread (at start-up, and again when the store recovers from a full disk). */
import { Worker } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { siblingModule } from '../util/module-path.js'
import { threadExecArgv } from '../util/thread-argv.js'
import { allColumnOptions } from './tuning.js'

const require = createRequire(import.meta.url)
const { RocksLevel } = require('@nxtedition/rocksdb')

export type RocksHandle = any // the binding has no types

/**
 * What RocksDB writes to `db/LOG`: errors only by default; `info` adds its flush and compaction events (each with
 * the column family and the memtable's bytes), which is how the soak's memory growth is read (README, "Memory under
 * a stream of writes").
 */
export type StorageLogLevel = 'error' | 'info'

/** Open the RocksDB database of a data directory with every column family. */
export async function openDatabase(path: string, logLevel: StorageLogLevel = 'error'): Promise<RocksHandle> {
  const db = new RocksLevel(join(path, 'db'), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open({
    createIfMissing: true,
    createMissingColumnFamilies: true,
    infoLogLevel: logLevel,
    columns: allColumnOptions(),
  })
  return db
}

/** The writer thread of an open database, once it has opened it through the handle. */
export async function startWriter(db: RocksHandle): Promise<Worker> {
  const writer = new Worker(siblingModule(import.meta.url, './writer'), { workerData: { handle: db.handle }, execArgv: threadExecArgv() })
  writer.unref()
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: { ready?: boolean }) => { if (m.ready) { writer.off('error', reject); writer.off('message', onMessage); resolve() } }
    writer.on('message', onMessage)
    writer.once('error', reject)
  })
  return writer
}
