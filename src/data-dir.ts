/**
 * Start-up imports (`--import-dump`, `--import-snapshot`) and Meilisearch's rules for them (`setup_meilisearch`):
 * an import only ever fills a database that does not exist yet (a missing or empty directory); with an existing one
 * start-up fails unless `--ignore-*-if-db-exists` says to start on it; a missing file fails unless
 * `--ignore-missing-*` says to start without it. A failed import leaves no database behind.
 */
import { existsSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { BadDump, importDump, importSnapshot, type WorkerPool } from '../engine/index.js'
import type { Features } from '../engine/features/index.js'
import type { Config } from './config.js'
import type { Logger } from './log.js'
import { validateSettings } from './api/settings.js'

/** A start-up refusal: printed as `error: <message>`, and the process exits with status 1 (as Meilisearch's). */
export class StartupError extends Error {}

function isEmptyDb(path: string): boolean {
  return !existsSync(path) || readdirSync(path).length === 0
}

/** Rust's `{:?}` of a path: quoted. */
const quoted = (path: string) => JSON.stringify(path)

export async function prepareDataDir(config: Config, log: Logger, pool: WorkerPool): Promise<void> {
  const dbPath = resolve(config.dbPath)
  const empty = isEmptyDb(dbPath)
  const source = config.importSnapshot ?? config.importDump
  if (source === null) return
  const kind = config.importSnapshot !== null ? 'snapshot' : 'dump'
  const exists = existsSync(source)
  if (empty && exists) {
    log.info(`importing the ${kind} ${source} into ${dbPath}`)
    try {
      if (kind === 'snapshot') await importSnapshot(resolve(source), dbPath)
      else {
        const summary = await importDump(resolve(source), dbPath, {
          pool,
          log: (m, level) => (level === 'ERROR' ? log.error(m) : log.info(m)),
          batchLimits: { maxTasks: config.maxBatchedTasks, maxBytes: config.batchedTasksTotalSize },
          parseSettings: (body: unknown, features: Features) => validateSettings(body, null, features),
        })
        log.info(`dump imported: ${summary.indexes} index(es), ${summary.documents} document(s), ${summary.tasks} task(s), ${summary.keys} key(s)`)
      }
    } catch (err) {
      if (err instanceof BadDump) throw new StartupError(`the ${kind} at ${quoted(source)} cannot be imported: ${err.message}`)
      throw err
    }
    return
  }
  const ignoreIfExists = kind === 'snapshot' ? config.ignoreSnapshotIfDbExists : config.ignoreDumpIfDbExists
  const ignoreMissing = kind === 'snapshot' ? config.ignoreMissingSnapshot : config.ignoreMissingDump
  if (!empty && !ignoreIfExists) throw new StartupError(`database already exists at ${quoted(dbPath)}, try to delete it or rename it`)
  if (!exists && !ignoreMissing) {
    throw new StartupError(kind === 'snapshot' ? `snapshot doesn't exist at ${source}` : `dump doesn't exist at ${quoted(source)}`)
  }
  log.info(`the ${kind} ${source} is ignored (${!empty ? 'the database already exists' : 'the file does not exist'})`)
}
