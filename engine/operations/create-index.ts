import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `POST /indexes`: a task; an index that exists already fails it (`index_already_exists`). */
export function createIndex(engine: Engine, uid: string, primaryKey: string | null): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'indexCreation', indexUid: uid, details: { primaryKey }, operation: { type: 'indexCreation', primaryKey } })
}
