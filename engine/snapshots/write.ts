/**
 * Writing a snapshot: a consistent copy of the data directory (the database as of one point in the commit order,
 * `Store.checkpoint`, plus the payload files of waiting document additions) packed as a gzipped tar at
 * `<snapshot-dir>/<db-name>.snapshot` (Meilisearch's name: `data.ms.snapshot` for `./data.ms`), read-only (0444).
 * The tar is written beside it and renamed into place, so the snapshot file is always a whole one.
 */
import { chmod, copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import * as tar from 'tar'
import type { Store, WriteOp } from '../storage/index.js'

/** The file name of the snapshot of the data directory at `dbPath`. */
export function snapshotName(dbPath: string): string {
  return `${basename(dbPath)}.snapshot`
}

/**
 * `edits`: writes applied to the copy only (the snapshot tasks leave themselves out of it, as Meilisearch's do: an
 * instance started from the snapshot does not run them again).
 */
export async function writeSnapshot(store: Store, payloadDir: string, dir: string, edits: readonly WriteOp[] = []): Promise<string> {
  await mkdir(dir, { recursive: true })
  const name = snapshotName(store.path)
  const target = join(dir, name)
  const work = join(dir, `.${name}.tmp`)
  const partial = `${target}.partial`
  await rm(work, { recursive: true, force: true })
  try {
    await store.checkpoint(work, edits)
    // Payload files after the database: every file a task of the copy refers to is still there (only the
    // scheduler, busy with this snapshot, removes them); a file newer than the copy is swept when it is opened.
    await mkdir(join(work, 'payloads'))
    for (const file of await readdir(payloadDir)) {
      if (file.endsWith('.partial')) continue
      await copyFile(join(payloadDir, file), join(work, 'payloads', file)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err
      })
    }
    await tar.c({ gzip: true, file: partial, cwd: work, portable: true }, ['.'])
    await chmod(partial, 0o444)
    await rename(partial, target)
    return target
  } finally {
    await rm(work, { recursive: true, force: true })
    await rm(partial, { force: true })
  }
}
