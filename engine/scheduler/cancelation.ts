/** A task cancelation: the enqueued tasks it matched (when registered) are canceled, and their payloads removed. */
import roaring from '../util/roaring.js'
import type { Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import { failedDetails, finish, type BatchEnv, type ComputedBatch } from './computed-batch.js'

const { RoaringBitmap32 } = roaring

export function computeCancelation(env: BatchEnv, task: Task, batchUid: number): ComputedBatch {
  const op = task.operation as Extract<Task['operation'], { type: 'taskCancelation' }>
  const matched = RoaringBitmap32.deserialize(Buffer.from(op.tasks, 'base64'), 'portable')
  const cancelable = RoaringBitmap32.and(matched, env.queue.index.status('enqueued'))
  cancelable.remove(task.uid)
  // Cluster mode: tasks opened before the cancelation's place in the log run on every node; only later ones go.
  if (op.openedThrough !== undefined) cancelable.removeRange(0, op.openedThrough + 1)
  const now = nowMicros()
  const victims = env.queue.getMany(cancelable)
  const finals: Task[] = victims.map((v) => ({ ...finish(v, 'canceled', failedDetails(v.details), null), canceledBy: task.uid, batchUid, finishedAt: now }))
  finals.push(finish(task, 'succeeded', { ...task.details, canceledTasks: victims.length }, null))
  return {
    prepare: async () => [],
    finals,
    before: new Map([...victims, task].map((t) => [t.uid, t])),
    publish: () => {},
    afterCommit: async () => {
      for (const v of victims) if (v.operation.type === 'documentAdditionOrUpdate') await env.deps.payloads.remove(v.operation.payload)
    },
    abandon: async () => {},
  }
}
