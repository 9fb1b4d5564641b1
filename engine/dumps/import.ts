/**
 * Importing a dump (`--import-dump`): a new data directory is built beside the target and renamed into place only
 * once complete, so a bad dump leaves nothing behind (the target stays absent).
 *
 * The indexes are rebuilt through the engine's own pipeline: each index is created, given its settings and its
 * documents as ordinary tasks, processed by the scheduler as any write would be. Then the queue those tasks left
 * is replaced by the dump's: its tasks with their uids, dates and details, its batches, its keys, and the
 * documents of each task still waiting (as payloads, so they run after the start). Index dates are the dump's.
 */
import { createReadStream, existsSync } from 'node:fs'
import { rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, join, basename } from 'node:path'
import { Engine, type EngineOptions, type Log } from '../engine.js'
import type { WorkerPool } from '../pool/index.js'
import type { Features, FeaturesPatch } from '../features/index.js'
import { FEATURE_NAMES } from '../features/index.js'
import type { SettingsUpdate } from '../settings/index.js'
import { encode, keys, type WriteOp } from '../storage/index.js'
import { runJob } from '../pool/jobs.js'
import type { Task } from '../tasks/types.js'
import { addDocuments } from '../operations/add-documents.js'
import { createIndex } from '../operations/create-index.js'
import { updateSettings } from '../operations/update-settings.js'
import { TesseraError } from '../errors/index.js'
import { unreadableDump } from './errors.js'
import { readDump, unpackDump, type DumpContents } from './read.js'

export interface DumpImportOptions {
  pool?: WorkerPool
  log?: Log
  batchLimits?: EngineOptions['batchLimits']
  /** The service's settings validator: a dump's `settings.json` is checked as a `PATCH /settings` body. */
  parseSettings: (body: unknown, features: Features) => SettingsUpdate
}

/** What was imported, for the log. */
export interface ImportSummary {
  indexes: number
  documents: number
  tasks: number
  keys: number
}

/** Build the data directory `dbPath` (absent or empty) from the dump at `file`. */
export async function importDump(file: string, dbPath: string, options: DumpImportOptions): Promise<ImportSummary> {
  const work = join(dirname(dbPath), `.${basename(dbPath)}.dump-import`)
  await rm(work, { recursive: true, force: true })
  try {
    const unpacked = join(work, 'dump')
    await unpackDump(file, unpacked)
    const dump = readDump(unpacked)
    const built = join(work, 'data')
    const summary = await build(dump, built, options)
    if (existsSync(dbPath)) await rmdir(dbPath) // an empty directory: the rules allow nothing else here
    await rename(built, dbPath)
    return summary
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

async function build(dump: DumpContents, path: string, options: DumpImportOptions): Promise<ImportSummary> {
  const engine = await Engine.open({ path, pool: options.pool, log: options.log, batchLimits: options.batchLimits })
  try {
    if (dump.features) {
      const patch: FeaturesPatch = {}
      for (const name of FEATURE_NAMES) if (typeof dump.features[name] === 'boolean') patch[name] = dump.features[name] as boolean
      await engine.features.patch(patch)
    }
    if (dump.network) await engine.network.restore(dump.network)
    let documents = 0
    for (const index of dump.indexes) {
      const { uid, primaryKey } = index.meta
      await createIndex(engine, uid, primaryKey)
      await updateSettings(engine, uid, checked(() => options.parseSettings(index.settings, engine.features), `indexes/${uid}/settings.json`))
      if ((await stat(index.documentsPath)).size > 0) {
        const task = await checkedAsync(() => addDocuments(engine, uid, createReadStream(index.documentsPath), { method: 'replace', format: 'ndjson', csvDelimiter: ',', primaryKey, allowIndexCreation: true }), `indexes/${uid}/documents.jsonl`)
        documents += Number(engine.queue.get(task.taskUid)?.details?.receivedDocuments ?? 0)
      }
    }
    await settled(engine)
    const failed = engine.queue.getMany(engine.queue.index.status('failed'))[0]
    if (failed) throw unreadableDump(`index \`${failed.indexUid}\` cannot be rebuilt: ${failed.error?.message ?? 'its task failed'}`)
    await engine.scheduler.stop()
    const tasks = await replaceQueue(engine, dump, options)
    return { indexes: dump.indexes.length, documents, tasks, keys: dump.keys.length }
  } finally {
    await engine.close()
  }
}

/** A TesseraError from the engine's validation, reported as a fault of the dump's file `what`. */
function checked<T>(run: () => T, what: string): T {
  try {
    return run()
  } catch (err) {
    if (err instanceof TesseraError) throw unreadableDump(`\`${what}\`: ${err.message}`)
    throw err
  }
}

async function checkedAsync<T>(run: () => Promise<T>, what: string): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof TesseraError) throw unreadableDump(`\`${what}\`: ${err.message}`)
    throw err
  }
}

/** Wait until the scheduler has processed every task registered so far. */
async function settled(engine: Engine): Promise<void> {
  while (engine.queue.index.status('enqueued').size + engine.queue.index.status('processing').size > 0) {
    // A scheduler that stopped (the storage refused a write) would leave the import waiting forever.
    if (engine.scheduler.halted) throw new Error('the scheduler stopped while the dump was being imported (see the log)')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Rows per commit while the queue is replaced (the directory is renamed into place only once all are written). */
const COMMIT_ROWS = 10_000

/**
 * Swap the rebuilding tasks and batches for the dump's, and set keys and index dates; returns how many tasks the dump
 * had. Written in chunks: the data directory is not in place until the import is complete, so atomicity is not needed.
 */
async function replaceQueue(engine: Engine, dump: DumpContents, options: DumpImportOptions): Promise<number> {
  let ops: WriteOp[] = []
  const flush = async (force = false) => {
    if (ops.length >= COMMIT_ROWS || (force && ops.length > 0)) {
      await engine.store.commit(ops, { sync: force })
      ops = []
    }
  }
  const own: Buffer[] = []
  for await (const [key] of engine.store.scan('tasks')) own.push(Buffer.from(key))
  for (const key of own) { ops.push({ column: 'tasks', key }, { column: 'pendingTasks', key }); await flush() }
  for await (const [key] of engine.store.scan('batches')) ops.push({ column: 'batches', key: Buffer.from(key) })
  await flush(true)
  let nextTask = 0
  let nextBatch = 0
  let count = 0
  for await (const { task, line, updateFile } of dump.tasks()) {
    const restored = await waitingPayload(engine, await waitingSettings(engine, task, line.tessera === undefined, options), updateFile, ops)
    ops.push(...engine.queue.putOps(restored))
    nextTask = Math.max(nextTask, task.uid + 1)
    if (task.batchUid !== null) nextBatch = Math.max(nextBatch, task.batchUid + 1)
    count++
    await flush()
  }
  for (const batch of dump.batches) {
    ops.push(engine.queue.putBatchOp(batch))
    nextBatch = Math.max(nextBatch, batch.uid + 1)
    await flush()
  }
  ops.push(engine.queue.nextTaskUidOp(nextTask))
  ops.push(engine.queue.nextBatchUidOp(nextBatch))
  for (const key of dump.keys) ops.push({ column: 'keys', key: keys.utf8(key.uid), value: encode(key) })
  for (const index of dump.indexes) {
    const meta = engine.catalog.get(index.meta.uid)
    if (meta) ops.push({ column: 'indexes', key: keys.utf8(meta.uid), value: encode({ ...meta, createdAt: index.meta.createdAt, updatedAt: index.meta.updatedAt }) })
  }
  await flush(true)
  return count
}

const waits = (task: Task) => task.status === 'enqueued' || task.status === 'processing'

/** A waiting settings update from Meilisearch's dump holds Meilisearch's settings: validated as Tessera's update. */
async function waitingSettings(engine: Engine, task: Task, translated: boolean, options: DumpImportOptions): Promise<Task> {
  if (!translated || !waits(task) || task.operation.type !== 'settingsUpdate') return task
  const update = checked(() => options.parseSettings(task.operation.type === 'settingsUpdate' ? task.operation.update : {}, engine.features), `task ${task.uid}'s settings`)
  return { ...task, operation: { type: 'settingsUpdate', update } }
}

/** A waiting document addition gets its update file as a new payload (NDJSON, validated and chunked as any other). */
async function waitingPayload(engine: Engine, task: Task, updateFile: string | null, ops: WriteOp[]): Promise<Task> {
  const op = task.operation
  if (!waits(task) || op.type !== 'documentAdditionOrUpdate') return task
  if (updateFile === null) throw unreadableDump(`task ${task.uid} waits to add documents, but \`tasks/update_files/${task.uid}.jsonl\` is missing`)
  const written = await engine.payloads.write(createReadStream(updateFile))
  if (written.copy) ops.push(written.copy)
  const checkedPayload = await runJob(undefined, 'validatePayload', { path: engine.payloads.path(written.name), ...(written.inline ? { bytes: written.inline } : {}), format: 'ndjson', csvDelimiter: ',' })
  if (!checkedPayload.ok) throw unreadableDump(`\`tasks/update_files/${task.uid}.jsonl\`: ${checkedPayload.message}`)
  const { csvHeader: _header, ...rest } = op
  return { ...task, operation: { ...rest, payload: written.name, bytes: written.bytes, format: 'ndjson', csvDelimiter: ',', chunks: checkedPayload.chunks } }
}
