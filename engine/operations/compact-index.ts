import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `POST /indexes/{uid}/compact`: an `indexCompaction` task (its details get the sizes once it ran). */
export function compactIndex(engine: Engine, uid: string): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'indexCompaction', indexUid: uid, details: {}, operation: { type: 'indexCompaction' } })
}
