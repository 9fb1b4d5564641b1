import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import type { TaskView } from '../tasks/types.js'
import { taskView } from '../tasks/view.js'

/** `GET /tasks/{uid}`; a task outside `indexScope` (see `TaskFilter`) is not found. */
export function getTask(engine: Engine, uid: number, indexScope?: (indexUid: string) => boolean): TaskView {
  const task = engine.queue.get(uid)
  const visible = task !== undefined && (indexScope === undefined || engine.queue.index.match({ uids: [uid], indexScope }).size > 0)
  if (!visible) throw new TesseraError('task_not_found', `Task \`${uid}\` not found.`)
  return taskView(task)
}
