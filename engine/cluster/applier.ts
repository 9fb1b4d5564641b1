/**
 * Applying the replicated task log on this node: every entry, in stream order, is registered in the local task
 * queue as task `sequence - 1`, with the entry's writes (a small payload's copy) and the next-uid counter in the
 * same atomic write. The local queue is then scheduled and batched exactly as on a single node, so each task is
 * applied once (a batch commits its effects with its tasks' final states), and the counter is the resume point:
 * after a crash the node consumes again from the first entry it had not registered.
 */
import roaring from 'roaring'
import { DeliverPolicy, type JetStreamClient } from '@nats-io/jetstream'
import type { ObjectStore } from '@nats-io/obj'
import type { TaskQueue } from '../tasks/queue.js'
import { enqueuedTask } from '../tasks/queue.js'
import type { Task } from '../tasks/types.js'
import type { PayloadFiles } from '../payload/files.js'
import type { Scheduler } from '../scheduler/scheduler.js'
import { decodeEntry } from './entry.js'
import { fetchPayload } from './payload-objects.js'

const { RoaringBitmap32 } = roaring

export interface ApplierParts {
  queue: TaskQueue
  payloads: PayloadFiles
  scheduler: Scheduler
  log: (msg: string, level?: 'INFO' | 'ERROR') => void
}

type Waiter = { resolve: (task: Task | null) => void; timer: NodeJS.Timeout }

export class LogApplier {
  private readonly waiters = new Map<number, Waiter[]>()
  private stopped = false
  private stopConsuming: (() => void) | null = null
  private done: Promise<void> = Promise.resolve()
  /** Set when an entry could not be registered: this node stops applying (and says so) rather than skip it. */
  failure: Error | null = null

  constructor(
    private readonly parts: ApplierParts,
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly bucket: ObjectStore,
  ) {}

  /** Consume the stream from the first entry not registered here, until `stop`. */
  async start(): Promise<void> {
    const consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.parts.queue.nextTaskUid + 1,
    })
    const messages = await consumer.consume({ max_messages: 512 })
    this.stopConsuming = () => { void messages.close() }
    this.done = (async () => {
      try {
        for await (const message of messages) {
          if (this.stopped) break
          await this.apply(message.seq, message.data)
        }
      } catch (err) {
        this.failure = err as Error
        this.parts.log(`cluster: this node stopped applying the task log at task ${this.parts.queue.nextTaskUid}: ${(err as Error).stack ?? err}`, 'ERROR')
        void messages.close()
      }
    })()
  }

  private async apply(sequence: number, data: Uint8Array): Promise<void> {
    const { queue, payloads, scheduler } = this.parts
    const uid = sequence - 1
    if (uid < queue.nextTaskUid) return // delivered again after a reconnect: registered already
    if (uid > queue.nextTaskUid) throw new Error(`task log entry ${sequence} arrived before entry ${queue.nextTaskUid + 1}`)
    const entry = decodeEntry(data)
    if (entry.object && entry.task.operation.type === 'documentAdditionOrUpdate') {
      const path = payloads.path(entry.object.name)
      if (!(await fetchPayload(this.bucket, entry.object.name, path, entry.object.bytes))) {
        this.parts.log(`cluster: the payload of task ${uid} is missing from the bucket; the task will fail`, 'ERROR')
      }
    }
    const task = enqueuedTask(entry.task, uid, entry.enqueuedAt)
    await queue.registerReplicated(task, entry.ops)
    // A cancelation stops a running batch holding its tasks at once, on every node (as on the one that took it).
    if (task.operation.type === 'taskCancelation') scheduler.abortIfProcessing(RoaringBitmap32.deserialize(Buffer.from(task.operation.tasks, 'base64'), 'portable'))
    this.settle(uid, task)
  }

  /** Resolves with task `uid` once this node registered it, or null after `timeoutMs`. */
  registered(uid: number, timeoutMs: number): Promise<Task | null> {
    if (uid < this.parts.queue.nextTaskUid) return Promise.resolve(this.parts.queue.get(uid) ?? null)
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const list = this.waiters.get(uid)
          list?.splice(list.indexOf(waiter), 1)
          if (list?.length === 0) this.waiters.delete(uid)
          resolve(null)
        }, timeoutMs),
      }
      const list = this.waiters.get(uid) ?? []
      list.push(waiter)
      this.waiters.set(uid, list)
    })
  }

  private settle(uid: number, task: Task): void {
    const list = this.waiters.get(uid)
    if (!list) return
    this.waiters.delete(uid)
    for (const w of list) { clearTimeout(w.timer); w.resolve(task) }
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.stopConsuming?.()
    await this.done
    for (const [, list] of this.waiters) for (const w of list) { clearTimeout(w.timer); w.resolve(null) }
    this.waiters.clear()
  }
}
