/**
 * When the database stops taking writes, and when to try again. RocksDB keeps a write-ahead-log or flush I/O error
 * (a full disk most of all) as a "background error" that fails every later write until the database is reopened;
 * the binding has no call to resume it (no `DB::Resume`). So the store refuses writes at once while it is in that
 * state, watches the free space of the data directory's file system, and reopens the database in process once
 * there is room again (Store.recover).
 */
import { statfs } from 'node:fs/promises'

/** Free bytes needed before a reopen is tried: room for a new write-ahead log, a manifest and a memtable flush or two. */
export const RECOVERY_FREE_BYTES = 16 << 20

/** How often the free space is checked (and a failed reopen retried) while writes are refused. */
export const RECOVERY_POLL_MS = 500

/**
 * Whether a write error leaves RocksDB refusing every later write. Its I/O errors read `IO error: …` (a full disk:
 * `IO error: No space left on device: While appending to file: …`); a plain ENOSPC (a payload file) is not sticky.
 */
export function isStickyWriteError(message: string): boolean {
  return /^IO error\b/.test(message) || /No space left on device/.test(message) && !/^ENOSPC/.test(message)
}

/** Bytes an unprivileged writer can still use on the file system holding `path` (Infinity when unknown). */
export async function freeBytes(path: string): Promise<number> {
  try {
    const fs = await statfs(path)
    return Number(fs.bavail) * Number(fs.bsize)
  } catch {
    return Infinity
  }
}

/** A pause that does not keep the process alive. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
