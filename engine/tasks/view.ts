import type { Batch, BatchView, EnqueuedTask, Task, TaskView } from './types.js'
import { formatDuration, formatMicros } from './time.js'
import { Progress } from './progress.js'

export function enqueuedView(task: Task): EnqueuedTask {
  const view: EnqueuedTask = { taskUid: task.uid, indexUid: task.indexUid, status: 'enqueued', type: task.type, enqueuedAt: formatMicros(task.enqueuedAt) }
  if (task.customMetadata !== undefined) view.customMetadata = task.customMetadata
  return view
}

/** The public shape of a task: keys in Meilisearch's order, `details` left out when a task has none. */
export function taskView(task: Task): TaskView {
  const view: TaskView = {
    uid: task.uid,
    batchUid: task.batchUid,
    indexUid: task.indexUid,
    status: task.status,
    type: task.type,
    canceledBy: task.canceledBy,
  } as TaskView
  if (task.details !== null) view.details = task.details
  view.error = task.error
  view.duration = task.startedAt !== null && task.finishedAt !== null ? formatDuration(task.finishedAt - task.startedAt) : null
  view.enqueuedAt = formatMicros(task.enqueuedAt)
  view.startedAt = task.startedAt === null ? null : formatMicros(task.startedAt)
  view.finishedAt = task.finishedAt === null ? null : formatMicros(task.finishedAt)
  if (task.customMetadata !== undefined) view.customMetadata = task.customMetadata
  return view
}

/** `progress`: what the batch is doing while it runs (a batch without one shows its first step). */
export function batchView(batch: Batch, progress: Progress | null = null): BatchView {
  return {
    uid: batch.uid,
    progress: batch.finishedAt === null ? (progress ?? new Progress()).view() : null,
    details: batch.details,
    stats: batch.stats,
    duration: batch.finishedAt === null ? null : formatDuration(batch.finishedAt - batch.startedAt),
    startedAt: formatMicros(batch.startedAt),
    finishedAt: batch.finishedAt === null ? null : formatMicros(batch.finishedAt),
    batchStrategy: batch.batchStrategy,
  }
}
