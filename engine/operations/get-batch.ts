import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import type { BatchView } from '../tasks/types.js'
import { batchView } from '../tasks/view.js'

/** `GET /batches/{uid}`. */
export async function getBatch(engine: Engine, uid: number): Promise<BatchView> {
  await engine.queue.loaded
  const batch = engine.queue.getBatch(uid)
  if (!batch) throw new TesseraError('batch_not_found', `Batch \`${uid}\` not found.`)
  return batchView(batch, engine.queue.progressOf(uid))
}
