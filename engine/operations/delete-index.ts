import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `DELETE /indexes/{uid}`. */
export function deleteIndex(engine: Engine, uid: string): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'indexDeletion', indexUid: uid, details: { deletedDocuments: null }, operation: { type: 'indexDeletion' } })
}
