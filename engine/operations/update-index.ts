import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `PATCH /indexes/{uid}`: a new primary key, or a new uid (a rename, which carries the task history along). */
export function updateIndex(engine: Engine, uid: string, primaryKey: string | null, newIndexUid: string | null): Promise<EnqueuedTask> {
  const details: Record<string, unknown> = { primaryKey }
  if (newIndexUid !== null) { details.oldIndexUid = uid; details.newIndexUid = newIndexUid }
  return enqueue(engine, { type: 'indexUpdate', indexUid: uid, details, operation: { type: 'indexUpdate', primaryKey, newIndexUid } })
}
