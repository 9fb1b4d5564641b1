/**
 * Importing a snapshot (`--import-snapshot`): the tar is unpacked beside the target and renamed into place once
 * whole and recognised as a data directory, so a bad snapshot leaves nothing behind. Start-up recovery then runs
 * on it as after any stop (interrupted batches re-run, stray payloads swept).
 */
import { existsSync } from 'node:fs'
import { mkdir, rename, rm, rmdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import * as tar from 'tar'
import { BadDump } from '../dumps/errors.js'

/** Unpack the snapshot at `file` as the data directory `dbPath` (absent or empty). */
export async function importSnapshot(file: string, dbPath: string): Promise<void> {
  const work = join(dirname(dbPath), `.${basename(dbPath)}.snapshot-import`)
  await rm(work, { recursive: true, force: true })
  try {
    await mkdir(work, { recursive: true })
    try {
      tar.x({ file, cwd: work, strict: true, preservePaths: false, sync: true })
    } catch (err) {
      throw new BadDump(`the snapshot is not a readable gzipped tar (${(err as Error).message})`)
    }
    if (!existsSync(join(work, 'db', 'CURRENT'))) throw new BadDump('the snapshot holds no database (`db/CURRENT` is missing)')
    if (existsSync(dbPath)) await rmdir(dbPath)
    await rename(work, dbPath)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
