import type { Engine } from '../engine.js'
import type { Page, TaskFilter } from '../tasks/query.js'
import type { TaskView } from '../tasks/types.js'
import { taskView } from '../tasks/view.js'

/** A page of tasks or batches: newest first, `next` the uid after the page. */
export interface ListPage<T> {
  results: T[]
  total: number
  limit: number
  from: number | null
  next: number | null
}

/** `GET /tasks`. */
export async function listTasks(engine: Engine, filter: TaskFilter, page: Page): Promise<ListPage<TaskView>> {
  await engine.queue.loaded
  const { results, total, next } = engine.queue.list(filter, page)
  return { results: results.map(taskView), total, limit: page.limit, from: results[0]?.uid ?? null, next }
}
