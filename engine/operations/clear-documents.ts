import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `DELETE /indexes/{uid}/documents`. */
export function clearDocuments(engine: Engine, uid: string, customMetadata?: string): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'documentDeletion', indexUid: uid, details: { deletedDocuments: null }, operation: { type: 'documentDeletion', clear: true }, customMetadata })
}
