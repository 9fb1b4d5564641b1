/**
 * Start-up recovery: what a crash can leave behind is put right before anything else runs. Batches commit
 * atomically, so a crash leaves either all of a batch or nothing of it; what remains to do is:
 * - finish dropping the data of indexes whose deletion was committed but not yet cleared;
 * - re-run the tasks of the batch that was interrupted (they are `processing` on disk, nothing of them applied);
 * - drop the rows a batch wrote ahead (staged documents, unused document ids) that never committed;
 * - restore the small payloads of waiting tasks from their database copies, and remove every payload no waiting
 *   task needs.
 */
import roaring from './util/roaring.js'
import type { Store } from './storage/index.js'
import type { TaskQueue } from './tasks/queue.js'
import type { Task } from './tasks/types.js'
import { pendingGarbage, type IndexCatalog } from './indexes/catalog.js'
import { dropGarbage } from './indexes/garbage.js'
import type { DocumentStore } from './documents/store.js'
import type { PayloadFiles } from './payload/files.js'

const { RoaringBitmap32 } = roaring

export interface RecoveryParts {
  store: Store
  queue: TaskQueue
  catalog: IndexCatalog
  documents: DocumentStore
  payloads: PayloadFiles
  log: (msg: string) => void
}

export async function recover({ store, queue, catalog, documents, payloads, log }: RecoveryParts): Promise<void> {
  await dropGarbage(store, await pendingGarbage(store))
  const interrupted = queue.getMany(queue.index.status('processing'))
  if (interrupted.length > 0) {
    const requeued = interrupted.map((t): Task => ({ ...t, status: 'enqueued', batchUid: null, startedAt: null }))
    // The interrupted batch was never recorded: the next batch takes its uid, so batch uids stay contiguous.
    const abandoned = Math.min(...interrupted.map((t) => t.batchUid ?? Infinity))
    if (abandoned === queue.nextBatchUid - 1) queue.nextBatchUid = abandoned
    await store.commit([...requeued.flatMap((t) => queue.putOps(t)), queue.nextBatchUidOp()])
    interrupted.forEach((t, i) => queue.replaced(t, requeued[i]!))
    log(`re-running ${interrupted.length} task(s) interrupted while processing`)
  }
  for (const meta of catalog.list()) await documents.dropStaged(meta.id)
  await documents.dropUnusedIds(catalog.nextUnusedId)
  const waiting = queue.getMany(RoaringBitmap32.or(queue.index.status('enqueued'), queue.index.status('processing')))
  await payloads.recover(new Set(waiting.flatMap((t) => (t.operation.type === 'documentAdditionOrUpdate' ? [t.operation.payload] : []))))
}
