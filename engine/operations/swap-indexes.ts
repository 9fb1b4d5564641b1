import type { Engine } from '../engine.js'
import type { EnqueuedTask, IndexSwap } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `POST /swap-indexes`: each pair swaps (or, with `rename`, the first is renamed to the second). */
export function swapIndexes(engine: Engine, swaps: IndexSwap[]): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'indexSwap', indexUid: null, details: { swaps }, operation: { type: 'indexSwap', swaps } })
}
