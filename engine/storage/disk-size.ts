/**
 * The size of a data directory on disk (`GET /stats`' `databaseSize`), walked asynchronously: concurrent callers
 * share the walk under way, and a result younger than a second is reused, so `GET /stats` in a loop never makes the
 * server walk the disk more than once a second.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** How long a measured size on disk is reused. */
const SIZE_FRESH_MS = 1000

export class DiskSize {
  private size: { at: number; value: Promise<number>; pending: boolean } | null = null

  constructor(private readonly path: string) {}

  read(): Promise<number> {
    const now = Date.now()
    if (this.size && (this.size.pending || now - this.size.at < SIZE_FRESH_MS)) return this.size.value
    const value = directorySize(this.path)
    const entry = { at: now, value, pending: true }
    this.size = entry
    value.finally(() => { entry.pending = false; entry.at = Date.now() }).catch(() => { if (this.size === entry) this.size = null })
    return value
  }
}

async function directorySize(path: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const p = join(path, entry.name)
    // Files come and go while the database works (compactions, payloads): a vanished one counts for nothing.
    if (entry.isDirectory()) total += await directorySize(p).catch(() => 0)
    else if (entry.isFile()) total += await stat(p).then((st) => st.size, () => 0)
  }
  return total
}
