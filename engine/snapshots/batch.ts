/** A batch of `snapshotCreation` tasks: one snapshot serves every snapshot task waiting; each succeeds without details. */
import { resolve } from 'node:path'
import type { Task } from '../tasks/types.js'
import type { WriteOp } from '../storage/index.js'
import { finish, type BatchEnv, type ComputedBatch } from '../scheduler/computed-batch.js'
import { writeSnapshot } from './write.js'

/** Where snapshots go when `--snapshot-dir` is not given (Meilisearch's default, relative to the working directory). */
export const DEFAULT_SNAPSHOT_DIR = 'snapshots/'

export async function computeSnapshot(env: BatchEnv, tasks: Task[]): Promise<ComputedBatch> {
  // The copy holds these tasks as `processing`: they are dropped from it, and their batch uid is free again there.
  const edits: WriteOp[] = tasks.flatMap((t) => env.queue.putOps(t).map((op) => ({ column: op.column, key: op.key })))
  const batchUid = tasks[0]?.batchUid
  if (batchUid != null) edits.push(env.queue.nextBatchUidOp(batchUid))
  await writeSnapshot(env.store, env.deps.payloads.dir, resolve(env.options.snapshotDir ?? DEFAULT_SNAPSHOT_DIR), edits)
  return {
    prepare: async () => [],
    finals: tasks.map((t) => finish(t, 'succeeded', null, null)),
    before: new Map(tasks.map((t) => [t.uid, t])),
    publish: () => {},
    afterCommit: async () => {},
    abandon: async () => {},
  }
}
