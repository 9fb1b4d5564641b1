import type { Engine } from '../engine.js'
import type { TaskFilter } from '../tasks/query.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** `DELETE /tasks`: delete the finished tasks among those matching `filter` when it is registered. */
export async function deleteTasks(engine: Engine, filter: TaskFilter, originalFilter: string): Promise<EnqueuedTask> {
  await engine.queue.loaded
  const matched = engine.queue.index.match(filter)
  return enqueue(engine, {
    type: 'taskDeletion', indexUid: null,
    details: { matchedTasks: matched.size, deletedTasks: null, originalFilter },
    operation: { type: 'taskDeletion', tasks: Buffer.from(matched.serialize('portable')).toString('base64'), originalFilter },
  })
}
