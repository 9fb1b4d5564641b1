/**
 * Snapshots: `createSnapshot` registers a `snapshotCreation` task (the copy is made when it runs, see batch.ts and
 * write.ts); `importSnapshot` unpacks a snapshot file as a data directory (import.ts).
 */
import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from '../operations/enqueue.js'

export { importSnapshot } from './import.js'
export { snapshotName } from './write.js'
export { DEFAULT_SNAPSHOT_DIR } from './batch.js'

/** `POST /snapshots`, and each tick of `--schedule-snapshot`. */
export function createSnapshot(engine: Engine): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'snapshotCreation', indexUid: null, details: null, operation: { type: 'snapshotCreation' } })
}
