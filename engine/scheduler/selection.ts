/**
 * Which tasks run next, as Meilisearch's `create_next_batch` picks them: the last cancelation first, then every task
 * deletion, then the index of the oldest enqueued task, autobatched (autobatcher.ts); a task without an index runs
 * alone. The strategy is the batch's `batchStrategy` text.
 */
import roaring from 'roaring'
import type { IndexCatalog } from '../indexes/catalog.js'
import { settingsUpdateCreatesIndex } from '../settings/index.js'
import type { TaskQueue } from '../tasks/queue.js'
import { newBitmap } from '../tasks/task-index.js'
import type { Task } from '../tasks/types.js'
import { autobatch, type BatchClass } from './autobatcher.js'

const { RoaringBitmap32 } = roaring

/** The most tasks one batch takes (Meilisearch's `--experimental-max-number-of-batched-tasks` is unlimited by default). */
export const MAX_BATCHED_TASKS = 10_000

export interface Selection {
  tasks: Task[]
  strategy: string
}

export function batchClassOf(task: Task): BatchClass {
  const op = task.operation
  switch (op.type) {
    case 'indexDeletion': return { kind: 'indexDeletion' }
    case 'documentAdditionOrUpdate': return { kind: 'documentAddition', primaryKey: op.primaryKey, allowIndexCreation: op.allowIndexCreation }
    case 'documentDeletion':
      return 'clear' in op ? { kind: 'documentClear' } : 'ids' in op ? { kind: 'documentDeletionByIds' } : { kind: 'documentDeletionByFilter' }
    case 'settingsUpdate': return { kind: 'settings', allowIndexCreation: settingsUpdateCreatesIndex(op.update) }
    default: return { kind: 'alone' }
  }
}

export function selectBatch(queue: TaskQueue, catalog: IndexCatalog): Selection | null {
  const enqueued = queue.index.status('enqueued')
  if (enqueued.size === 0) return null
  const ofType = (type: Task['type']) => RoaringBitmap32.and(enqueued, queue.index.byType.get(type) ?? newBitmap())
  const cancelations = ofType('taskCancelation')
  if (cancelations.size > 0) {
    const task = queue.get(cancelations.minimum())!
    return { tasks: [task], strategy: `created batch containing only task with id ${task.uid} of type \`taskCancelation\` that cannot be batched with any other task.` }
  }
  const deletions = ofType('taskDeletion')
  if (deletions.size > 0) {
    return { tasks: queue.getMany(deletions), strategy: 'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.' }
  }
  const oldest = queue.get(enqueued.minimum())!
  if (oldest.indexUid === null) {
    return { tasks: [oldest], strategy: `created batch containing only task with id ${oldest.uid} of type \`${oldest.type}\` that cannot be batched with any other task.` }
  }
  const ofIndex = RoaringBitmap32.and(enqueued, queue.index.byIndex.get(oldest.indexUid) ?? newBitmap())
  // At most MAX_BATCHED_TASKS are read and batched at once, so a long queue costs the same per batch.
  const tasks = queue.getMany(ofIndex.rangeUint32Array(0, MAX_BATCHED_TASKS))
  const picked = autobatch(tasks.map((t) => ({ uid: t.uid, type: t.type, class: batchClassOf(t) })), oldest.indexUid, catalog.has(oldest.indexUid))
  const chosen = new Set(picked.uids)
  const strategy = picked.uids.length === MAX_BATCHED_TASKS && ofIndex.size > MAX_BATCHED_TASKS
    ? `batched up to configured batch limit of ${MAX_BATCHED_TASKS} tasks`
    : picked.strategy
  return { tasks: tasks.filter((t) => chosen.has(t.uid)), strategy }
}
