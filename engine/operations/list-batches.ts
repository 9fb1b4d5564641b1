import type { Engine } from '../engine.js'
import type { Page, TaskFilter } from '../tasks/query.js'
import type { BatchView } from '../tasks/types.js'
import { batchView } from '../tasks/view.js'
import type { ListPage } from './list-tasks.js'

/** `GET /batches`. */
export async function listBatches(engine: Engine, filter: TaskFilter, page: Page): Promise<ListPage<BatchView>> {
  await engine.queue.loaded
  const { results, total, next } = engine.queue.listBatches(filter, page)
  return { results: results.map((b) => batchView(b, engine.queue.progressOf(b.uid))), total, limit: page.limit, from: results[0]?.uid ?? null, next }
}
