import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `DELETE /indexes/{uid}/documents/{id}` and `POST .../documents/delete-batch`. */
export function deleteDocuments(engine: Engine, uid: string, ids: string[], customMetadata?: string): Promise<EnqueuedTask> {
  return enqueue(engine, {
    type: 'documentDeletion', indexUid: uid, details: { providedIds: ids.length, deletedDocuments: null, originalFilter: null },
    operation: { type: 'documentDeletion', ids }, customMetadata,
  })
}
