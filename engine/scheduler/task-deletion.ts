/**
 * Task deletions: the finished tasks each matched (when registered) are deleted, and a batch left without tasks
 * goes too.
 */
import roaring from '../util/roaring.js'
import { keys, type WriteOp } from '../storage/index.js'
import { newBitmap } from '../tasks/task-index.js'
import type { Task, TaskStatus } from '../tasks/types.js'
import { finish, type BatchEnv, type ComputedBatch } from './computed-batch.js'

const { RoaringBitmap32 } = roaring

export function computeDeletion(env: BatchEnv, tasks: Task[]): ComputedBatch {
  const finished = RoaringBitmap32.orMany((['succeeded', 'failed', 'canceled'] as TaskStatus[]).map((s) => env.queue.index.status(s)))
  const doomed = newBitmap()
  const finals: Task[] = []
  for (const task of tasks) {
    const op = task.operation as Extract<Task['operation'], { type: 'taskDeletion' }>
    const matched = RoaringBitmap32.deserialize(Buffer.from(op.tasks, 'base64'), 'portable')
    const deletable = RoaringBitmap32.and(matched, finished)
    deletable.andNotInPlace(doomed)
    doomed.orInPlace(deletable)
    finals.push(finish(task, 'succeeded', { ...task.details, deletedTasks: deletable.size }, null))
  }
  const victims = env.queue.getMany(doomed)
  const ops: WriteOp[] = victims.map((v) => env.queue.deleteOp(v.uid))
  // A batch whose tasks are all deleted goes too.
  const emptied: number[] = []
  const batches = new Set(victims.flatMap((v) => (v.batchUid === null ? [] : [v.batchUid])))
  for (const b of batches) {
    const remaining = RoaringBitmap32.andNot(env.queue.tasksOfBatch(b), doomed)
    if (remaining.size === 0) emptied.push(b)
  }
  for (const b of emptied) ops.push({ column: 'batches', key: keys.u32(b) })
  return {
    prepare: async () => ops,
    finals,
    before: new Map(tasks.map((t) => [t.uid, t])),
    publish: () => {
      for (const v of victims) env.queue.removed(v)
      for (const b of emptied) env.queue.batchRemoved(b)
    },
    afterCommit: async () => {},
    abandon: async () => {},
  }
}
