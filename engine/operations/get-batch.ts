import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import type { BatchView } from '../tasks/types.js'
import { batchView } from '../tasks/view.js'

/** `GET /batches/{uid}`; a batch with a task outside `indexScope` (see `TaskFilter`) is not found. */
export async function getBatch(engine: Engine, uid: number, indexScope?: (indexUid: string) => boolean): Promise<BatchView> {
  await engine.queue.loaded
  const batch = engine.queue.getBatch(uid)
  const visible = batch !== undefined && (indexScope === undefined || engine.queue.matchBatches({ uids: [uid], indexScope }).size > 0)
  if (!visible) throw new TesseraError('batch_not_found', `Batch \`${uid}\` not found.`)
  return batchView(batch, engine.queue.progressOf(uid))
}
