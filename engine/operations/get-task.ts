import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import type { TaskView } from '../tasks/types.js'
import { taskView } from '../tasks/view.js'

/** `GET /tasks/{uid}`. */
export function getTask(engine: Engine, uid: number): TaskView {
  const task = engine.queue.get(uid)
  if (!task) throw new TesseraError('task_not_found', `Task \`${uid}\` not found.`)
  return taskView(task)
}
