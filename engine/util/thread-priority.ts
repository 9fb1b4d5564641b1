/**
 * Background threads yield the cores to searches. On two cores an ingesting index's pool threads (extraction, the
 * merges, graph builds) and its writer competed with the search threads as equals, and a search waited for a core
 * behind them: on the bench's concurrency scenario, p99 52 ms while GCIDE was indexed into another index against
 * 7.8 ms idle. A thread doing background work raises its own niceness (Linux schedules threads, and a thread's
 * niceness is its own), so it runs on whatever the searches leave and at full speed when nothing else runs: the
 * worker pool's threads. (RocksDB's flush and compaction threads, `rocksdb:high` and `rocksdb:low`, lowered as well
 * changed nothing measurable: p99 while ingesting 26-28 ms either way.)
 *
 * `TESSERA_BACKGROUND_NICENESS` (0-19, default 10): how much lower; 0 keeps the process's priority. Where threads'
 * ids cannot be read (not Linux), nothing changes.
 */
import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

export const DEFAULT_BACKGROUND_NICENESS = 10

/**
 * The setting's niceness increment: an integer from 0 to 19, or the default (the service refuses other values at
 * start-up, src/config.ts).
 */
export function backgroundNiceness(setting: string | undefined): number {
  if (setting === undefined || setting.trim() === '') return DEFAULT_BACKGROUND_NICENESS
  const n = Number(setting)
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : DEFAULT_BACKGROUND_NICENESS
}

/** The calling thread's kernel id (Linux), or null. */
export function threadId(): number | null {
  if (process.platform !== 'linux') return null
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isInteger(tid) && tid > 0 ? tid : null
  } catch {
    return null
  }
}

/**
 * Sets the calling thread's niceness `by` below the process's main thread (capped at the lowest, 19: calling it
 * twice changes nothing more). Returns its niceness after, or null when unchanged (nothing asked, or not possible).
 */
export function lowerThreadPriority(by = backgroundNiceness(process.env.TESSERA_BACKGROUND_NICENESS)): number | null {
  const tid = threadId()
  if (tid === null || by <= 0) return null
  try {
    const niceness = Math.min(19, getPriority(process.pid) + by)
    setPriority(tid, niceness)
    return niceness
  } catch {
    return null
  }
}
