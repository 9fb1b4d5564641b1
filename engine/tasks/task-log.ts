/**
 * The task log: where a new task is registered. A single node's log is its own task queue (durable in RocksDB
 * before the promise resolves); in cluster mode it is a replicated log (engine/cluster/) whose entries every node
 * then registers in its own queue. Everything that registers a task goes through `append` (operations/enqueue.ts),
 * so this is the one place the two modes differ on the write path.
 */
import type { WriteOp } from '../storage/index.js'
import type { NewTask, TaskQueue } from './queue.js'
import type { Task } from './types.js'

export interface TaskLog {
  /** Register `task` durably (with `withOps`, writes that must be durable with it) and return it as registered. */
  append(task: NewTask, withOps: WriteOp[]): Promise<Task>
  /** Stop appending (and applying, for a replicated log). */
  close(): Promise<void>
}

/** A single node's log: the local queue itself. */
export class LocalTaskLog implements TaskLog {
  constructor(private readonly queue: TaskQueue) {}

  append(task: NewTask, withOps: WriteOp[]): Promise<Task> {
    return this.queue.register(task, withOps)
  }

  async close(): Promise<void> {}
}
