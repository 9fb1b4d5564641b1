/**
 * Task and batch filters: the parameters of `GET /tasks`, `POST /tasks/cancel`, `DELETE /tasks` and
 * `GET /batches`, already parsed and validated (the HTTP layer does that, see src/routes/task-params.ts).
 */
import type { Micros, TaskStatus, TaskType } from './types.js'

export interface TaskFilter {
  uids?: number[]
  batchUids?: number[]
  indexUids?: string[]
  statuses?: TaskStatus[]
  types?: TaskType[]
  canceledBy?: number[]
  beforeEnqueuedAt?: Micros
  afterEnqueuedAt?: Micros
  beforeStartedAt?: Micros
  afterStartedAt?: Micros
  beforeFinishedAt?: Micros
  afterFinishedAt?: Micros
  /**
   * Only the tasks an API key restricted to some indexes may see (Meilisearch's
   * `get_task_ids_from_authorized_indexes`): the tasks of indexes it allows, and no task that is not about exactly
   * one index (swaps, cancelations, deletions, dumps, ...). Absent: every task.
   */
  indexScope?: (indexUid: string) => boolean
}

export interface Page {
  limit: number
  from?: number
  reverse: boolean
}
