/** The batch record shown by `GET /batches`: its tasks' statistics and merged details. */
import type { Batch, BatchStats, Details, Micros, Task } from '../tasks/types.js'
import type { EmbedderRequests } from '../embedders/index.js'
import { TASK_STATUSES, TASK_TYPES } from '../tasks/types.js'

export function makeBatch(uid: number, tasks: Task[], startedAt: Micros, finishedAt: Micros | null, batchStrategy: string, progressTrace?: Record<string, string>, embedderRequests?: EmbedderRequests): Batch {
  const stats: BatchStats = { totalNbTasks: tasks.length, status: {}, types: {}, indexUids: {} }
  for (const s of TASK_STATUSES) {
    const n = tasks.filter((t) => t.status === s).length
    if (n) stats.status[s] = n
  }
  for (const ty of TASK_TYPES) {
    const n = tasks.filter((t) => t.type === ty).length
    if (n) stats.types[ty] = n
  }
  const uids = tasks.flatMap((t) => (t.indexUid === null || t.type === 'indexSwap' ? [] : [t.indexUid])).sort()
  for (const u of uids) stats.indexUids[u] = (stats.indexUids[u] ?? 0) + 1
  if (progressTrace !== undefined) stats.progressTrace = progressTrace
  if (embedderRequests && (embedderRequests.total > 0 || embedderRequests.failed > 0 || embedderRequests.lastError !== null)) {
    stats.embedderRequests = { total: embedderRequests.total, failed: embedderRequests.failed, ...(embedderRequests.lastError === null ? {} : { lastError: embedderRequests.lastError }) }
  }
  return { uid, details: mergeDetails(tasks), stats, startedAt, finishedAt, batchStrategy }
}

/** The batch's details: the tasks' details merged, numbers summed, nulls left out. */
function mergeDetails(tasks: Task[]): Details {
  const out: Details = {}
  for (const t of tasks) {
    for (const [k, v] of Object.entries(t.details ?? {})) {
      if (v === null || v === undefined) continue
      if (typeof v === 'number' && typeof out[k] === 'number') out[k] = (out[k] as number) + v
      else if (Array.isArray(v) && Array.isArray(out[k])) out[k] = [...(out[k] as unknown[]), ...v]
      else out[k] = v
    }
  }
  return out
}
