import type { Engine } from '../engine.js'
import type { TaskFilter } from '../tasks/query.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/**
 * `POST /tasks/cancel`: cancel the tasks matching `filter` when it is registered (as Meilisearch's cancelations
 * act on what they matched then); a running batch holding any of them stops at once, before anything of it is
 * committed. In cluster mode it cancels only what no opening covered before its place in the log, alike on every
 * node, and never stops a running batch (cluster/openings.ts).
 */
export async function cancelTasks(engine: Engine, filter: TaskFilter, originalFilter: string): Promise<EnqueuedTask> {
  await engine.queue.loaded
  const matched = engine.queue.index.match(filter)
  const task = await enqueue(engine, {
    type: 'taskCancelation', indexUid: null,
    details: { matchedTasks: matched.size, canceledTasks: null, originalFilter },
    operation: { type: 'taskCancelation', tasks: Buffer.from(matched.serialize('portable')).toString('base64'), originalFilter },
  })
  engine.scheduler.abortIfProcessing(matched)
  return task
}
