/** A `dumpCreation` batch: the dump is written while the batch computes; the task succeeds with its `dumpUid`. */
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { nowMicros } from '../tasks/time.js'
import type { Task } from '../tasks/types.js'
import { finish, type BatchEnv, type ComputedBatch } from '../scheduler/computed-batch.js'
import { newDumpUid, writeDump } from './write.js'

/** Where dumps go when `--dump-dir` is not given (Meilisearch's default, relative to the working directory). */
export const DEFAULT_DUMP_DIR = 'dumps/'

export async function computeDump(env: BatchEnv, task: Task): Promise<ComputedBatch> {
  const uid = newDumpUid()
  const path = await writeDump({ ...env.deps, store: env.store, queue: env.queue, catalog: env.catalog }, {
    dir: resolve(env.options.dumpDir ?? DEFAULT_DUMP_DIR), uid, task, startedAt: task.startedAt ?? nowMicros(), dbVersion: env.options.dbVersion ?? 'unknown',
  })
  return {
    prepare: async () => [],
    finals: [finish(task, 'succeeded', { dumpUid: uid }, null)],
    before: new Map([[task.uid, task]]),
    publish: () => {},
    afterCommit: async () => {},
    // Canceled before its commit: the task is not done, so its file goes.
    abandon: async () => { await rm(path, { force: true }) },
  }
}
