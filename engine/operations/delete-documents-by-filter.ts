import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/**
 * `POST /indexes/{uid}/documents/delete`: the filter's syntax was checked by the caller; whether its attributes are
 * filterable is the task's to check. The details show the filter as JSON text, as Meilisearch's do.
 */
export function deleteDocumentsByFilter(engine: Engine, uid: string, filter: unknown, customMetadata?: string): Promise<EnqueuedTask> {
  return enqueue(engine, {
    type: 'documentDeletion', indexUid: uid, details: { providedIds: 0, deletedDocuments: null, originalFilter: JSON.stringify(filter) },
    operation: { type: 'documentDeletion', filter }, customMetadata,
  })
}
