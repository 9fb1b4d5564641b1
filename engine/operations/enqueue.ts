/**
 * Registering a task through the engine's task log (local, or replicated in cluster mode): durable when the promise
 * resolves, answered with the task reference (`taskUid`, ...).
 */
import type { Engine } from '../engine.js'
import type { NewTask } from '../tasks/queue.js'
import type { EnqueuedTask } from '../tasks/types.js'
import type { WriteOp } from '../storage/index.js'
import { enqueuedView } from '../tasks/view.js'

/**
 * `withOps`: writes that must become durable together with the task (a small payload's copy). `customMetadata`: the
 * write's `?customMetadata=`, kept with the task.
 */
export async function enqueue(engine: Engine, task: NewTask, withOps: WriteOp[] = []): Promise<EnqueuedTask> {
  return enqueuedView(await engine.taskLog.append(task, withOps))
}
