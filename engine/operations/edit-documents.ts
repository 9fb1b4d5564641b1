import type { Engine } from '../engine.js'
import type { DocumentEdition, EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/**
 * `POST /indexes/{uid}/documents/edit`: the script compiled and the filter parsed by the caller. The details show the
 * filter as JSON text (as deletions by filter do), the context and the function; the counts come with the task.
 */
export function editDocuments(engine: Engine, uid: string, edition: Omit<DocumentEdition, 'type'>, customMetadata?: string): Promise<EnqueuedTask> {
  const details = {
    editedDocuments: null,
    deletedDocuments: null,
    originalFilter: edition.filter === null ? null : JSON.stringify(edition.filter),
    context: edition.context,
    function: edition.function,
  }
  return enqueue(engine, { type: 'documentEdition', indexUid: uid, details, operation: { type: 'documentEdition', ...edition }, customMetadata })
}
