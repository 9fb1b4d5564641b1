/**
 * Applying the replicated task log on this node: every entry, in stream order, is registered in the local task
 * queue as task `sequence - 1`, with the entry's writes (a small payload's copy) and the next-uid counter in the
 * same atomic write (consecutive entries that arrived together share one write). The local queue is then scheduled
 * and batched exactly as on a single node, so each task is applied once (a batch commits its effects with its
 * tasks' final states), and the counter is the resume point: after a crash the node consumes again from the first
 * entry it had not registered.
 */
import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream'
import type { ObjectStore } from '@nats-io/obj'
import type { TaskQueue } from '../tasks/queue.js'
import { enqueuedTask } from '../tasks/queue.js'
import type { Task } from '../tasks/types.js'
import type { WriteOp } from '../storage/index.js'
import type { PayloadFiles } from '../payload/files.js'
import type { Scheduler } from '../scheduler/scheduler.js'
import { decodeEntry, type ChangeEntry } from './entry.js'
import type { StateChanges, StatePlan } from '../tasks/state-changes.js'
import { fetchPayload } from './payload-objects.js'
import { nowMicros } from '../tasks/time.js'
import type { Openings } from './openings.js'

/** The pause before reading the log again after reading failed or ended. */
const RETRY_MS = 250
/**
 * How often the watchdog compares the stream's last entry with the last one registered here, and after how many
 * checks without progress while entries wait it reads the log again: a consumer whose server died can stay silent
 * (seen with one of three nats-servers killed: the client's own recovery did not resume it within minutes).
 */
const WATCH_MS = 1_000
const STALLED_CHECKS = 3
/** The most outcomes of this node's changes kept for a request that has not asked for them yet. */
const MAX_UNCLAIMED = 1_000
/** The most entries registered in one write (and waiting to be). */
const MAX_GROUP = 1_000

export interface ApplierParts {
  queue: TaskQueue
  payloads: PayloadFiles
  scheduler: Scheduler
  stateChanges: StateChanges
  /** This process's id in the cluster: the `origin` of the changes it publishes (random, per process). */
  nodeId: string
  /** The opened position (openings.ts), moved by opening entries. */
  openings: Openings
  log: (msg: string, level?: 'INFO' | 'ERROR') => void
}

type Waiter = { resolve: (task: Task | null) => void; timer: NodeJS.Timeout }
/** What a change of instance state came to on this node: the plan's answer, or the planner's refusal. */
export type ChangeOutcome = { value: unknown } | { error: unknown }
type ChangeWaiter = { resolve: (outcome: ChangeOutcome | null) => void; timer: NodeJS.Timeout }

export class LogApplier {
  private readonly waiters = new Map<number, Waiter[]>()
  private readonly changeWaiters = new Map<number, ChangeWaiter[]>()
  /** Outcomes of this node's own changes applied before it waited for them (see `applyChange`). */
  private readonly unclaimed = new Map<number, ChangeOutcome>()
  private stopped = false
  private stopConsuming: (() => void) | null = null
  /** Entries received and not registered yet, in stream order; `flushing` registers them (see `kick`). */
  private readonly pending: { sequence: number; data: Uint8Array }[] = []
  private flushing: Promise<void> | null = null
  private done: Promise<void> = Promise.resolve()
  /** Set when an entry could not be registered: this node stops applying (and says so) rather than skip it. */
  failure: Error | null = null

  constructor(
    private readonly parts: ApplierParts,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly bucket: ObjectStore,
  ) {}

  /**
   * Consume the stream from the first entry not registered here, until `stop`. Reading may fail or end (a server
   * lost, a leader being elected): it then starts again from the first entry not registered, after a pause. An entry
   * that cannot be registered stops applying for good (see `failure`).
   */
  start(): void {
    const watchdog = setInterval(() => void this.watch(), WATCH_MS)
    watchdog.unref()
    this.done = this.run().finally(() => clearInterval(watchdog))
  }

  private watched = { next: -1, stalled: 0 }

  /** Read the log again when entries wait and none was registered for STALLED_CHECKS checks. */
  private async watch(): Promise<void> {
    const next = this.parts.queue.nextTaskUid
    let last: number
    try {
      last = (await this.jsm.streams.info(this.stream)).state.last_seq
    } catch {
      return // the servers are unreachable: the consumer's state says nothing more
    }
    const waiting = last > next
    this.watched.stalled = waiting && next === this.watched.next ? this.watched.stalled + 1 : 0
    this.watched.next = next
    if (this.watched.stalled >= STALLED_CHECKS && !this.stopped) {
      this.watched.stalled = 0
      this.parts.log(`cluster: reading the task log stalled at task ${next} (the stream is at ${last - 1}); reading again`, 'ERROR')
      this.stopConsuming?.()
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const consumer = await this.js.consumers.get(this.stream, {
          deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.parts.queue.nextTaskUid + 1,
        })
        const messages = await consumer.consume({ max_messages: 512 })
        const close = () => { void messages.close() }
        this.stopConsuming = close
        if (this.stopped) break
        for await (const message of messages) {
          if (this.stopped || this.failure) break
          this.pending.push({ sequence: message.seq, data: message.data })
          this.kick(close)
          if (this.pending.length >= MAX_GROUP) await this.flushing
        }
        close()
      } catch (err) {
        if (!this.stopped) this.parts.log(`cluster: reading the task log failed (${(err as Error).message}); reading again from task ${this.parts.queue.nextTaskUid}`, 'ERROR')
      }
      // Read again only from what is registered: entries taken but not registered yet are registered first.
      await this.flushing
      if (this.failure) return
      this.pending.length = 0
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
    }
  }

  /**
   * Group commit: entries arriving while a group is being registered wait and form the next group, so a stream of
   * small tasks costs one write per group, not one per task.
   */
  private kick(close: () => void): void {
    if (this.flushing || this.failure) return
    this.flushing = this.flush(close).finally(() => {
      this.flushing = null
      if (this.pending.length > 0) this.kick(close)
    })
  }

  private async flush(close: () => void): Promise<void> {
    while (this.pending.length > 0 && !this.failure) {
      const group = this.pending.splice(0, MAX_GROUP)
      try {
        await this.apply(group)
      } catch (err) {
        this.failure = err as Error
        this.pending.length = 0
        this.parts.log(`cluster: this node stopped applying the task log at task ${this.parts.queue.nextTaskUid}: ${(err as Error).stack ?? err}`, 'ERROR')
        close()
      }
    }
  }

  /**
   * Register a group of consecutive entries (those registered already, delivered again, are skipped). Tasks are
   * registered together; a change of instance state is applied alone, in its place, after the tasks before it.
   */
  private async apply(group: { sequence: number; data: Uint8Array }[]): Promise<void> {
    const { queue, payloads } = this.parts
    let tasks: Task[] = []
    let ops: WriteOp[] = []
    let next = queue.nextTaskUid
    // The opened position as of each entry (openings.ts); openings are written with the group's tasks.
    let opened = this.parts.openings.through
    for (const { sequence, data } of group) {
      const uid = sequence - 1
      if (uid < next) continue
      if (uid > next) throw new Error(`task log entry ${sequence} arrived before entry ${next + 1}`)
      const entry = decodeEntry(data)
      next++
      if ('opening' in entry) {
        opened = Math.max(opened, entry.opening)
        ops.push(this.parts.openings.op(opened))
        continue
      }
      if ('change' in entry) {
        await this.register(tasks, ops, uid, opened)
        tasks = []
        ops = []
        await this.applyChange(uid, entry)
        continue
      }
      if (entry.object && entry.task.operation.type === 'documentAdditionOrUpdate') {
        if (!(await fetchPayload(this.bucket, entry.object.name, payloads.path(entry.object.name), entry.object.bytes))) {
          this.parts.log(`cluster: the payload of task ${uid} is missing from the bucket; the task will fail`, 'ERROR')
        }
      }
      const task = enqueuedTask(entry.task, uid, entry.enqueuedAt)
      // A cancelation is decided at its place in the log: it cancels only tasks no opening before it covered.
      if (task.operation.type === 'taskCancelation') task.operation = { ...task.operation, openedThrough: opened }
      tasks.push(task)
      ops.push(...entry.ops)
    }
    await this.register(tasks, ops, next, opened)
  }

  /**
   * Register tasks, and pass the openings among them, in one write up to uid `next`; the opened position moves to
   * `opened` before the scheduler sees the tasks.
   */
  private async register(tasks: Task[], ops: WriteOp[], next: number, opened: number): Promise<void> {
    const { queue, openings, scheduler } = this.parts
    if (next <= queue.nextTaskUid) return
    const opening = opened > openings.through
    await queue.registerReplicated(tasks, ops, () => openings.registered(opened), next)
    // A cancelation does not stop a running batch: its tasks were opened before it, so they run on every node.
    for (const task of tasks) this.settle(task.uid, task)
    if (opening) scheduler.wake()
  }

  /**
   * Apply a change of the network, the features or the keys, with the counter in the same write. A change its
   * planner refuses (the state changed since the node that took it checked it) is refused on every node alike: the
   * uid is passed without a write of its own, and the refusal is the answer of the node that took it.
   */
  private async applyChange(uid: number, entry: ChangeEntry): Promise<void> {
    const { kind, body } = entry.change
    await this.parts.stateChanges.ready(kind)
    let outcome: ChangeOutcome
    let plan: StatePlan | null = null
    try {
      plan = this.parts.stateChanges.plan(kind, body, entry.origin === this.parts.nodeId)
    } catch (err) {
      outcome = { error: err }
    }
    if (plan?.task) {
      // The change and the task it causes (a shard move) take its place in the log in one write, on every node.
      const task = enqueuedTask(plan.task, uid, entry.enqueuedAt ?? nowMicros())
      await this.parts.queue.registerReplicated([task], plan.ops, () => { outcome = { value: plan!.apply() } })
      this.settle(uid, task)
    } else {
      await this.parts.queue.skipReplicated(uid, plan?.ops ?? [])
      if (plan) outcome = { value: plan.apply() }
    }
    const list = this.changeWaiters.get(uid)
    this.changeWaiters.delete(uid)
    for (const w of list ?? []) { clearTimeout(w.timer); w.resolve(outcome!) }
    // Applied before the node that took it heard the acknowledgement: kept until it asks (a few at most).
    if (list === undefined && entry.origin === this.parts.nodeId) {
      this.unclaimed.set(uid, outcome!)
      if (this.unclaimed.size > MAX_UNCLAIMED) this.unclaimed.delete(this.unclaimed.keys().next().value!)
    }
  }

  /** Resolves with the outcome of the change at `uid` once applied here, or null after `timeoutMs`. */
  changed(uid: number, timeoutMs: number): Promise<ChangeOutcome | null> {
    const known = this.unclaimed.get(uid)
    if (known !== undefined) {
      this.unclaimed.delete(uid)
      return Promise.resolve(known)
    }
    return new Promise((resolve) => {
      const waiter: ChangeWaiter = {
        resolve,
        timer: setTimeout(() => {
          const list = this.changeWaiters.get(uid)
          list?.splice(list.indexOf(waiter), 1)
          if (list?.length === 0) this.changeWaiters.delete(uid)
          resolve(null)
        }, timeoutMs),
      }
      const list = this.changeWaiters.get(uid) ?? []
      list.push(waiter)
      this.changeWaiters.set(uid, list)
    })
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
    for (const [, list] of this.changeWaiters) for (const w of list) { clearTimeout(w.timer); w.resolve(null) }
    this.changeWaiters.clear()
  }
}
