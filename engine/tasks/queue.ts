/**
 * The task queue: durable registration (group-committed by the storage writer), reads, and the in-memory indexes
 * of tasks and batches used by filters and by the scheduler.
 *
 * Start-up reads only the tasks that are not finished (the `pendingTasks` column lists them), so a server with a
 * million finished tasks starts as fast as an empty one; the index of the finished tasks and of the batches is then
 * loaded in the background (`loaded`), and what needs it (listings, filters, cancelations and deletions, the
 * scheduler) waits for it. Past `maxTasks` tasks, the queue registers a deletion of the oldest finished ones
 * itself, as Meilisearch does, so it never grows without bound.
 */
import { Store, keys, type WriteOp } from '../storage/index.js'
import { TaskIndex, newBitmap, paginate, type Bitmap } from './task-index.js'
import type { Batch, Details, Micros, Operation, Task, TaskStatus, TaskType } from './types.js'
import type { Page, TaskFilter } from './query.js'
import { formatMicros, nowMicros } from './time.js'
import type { Progress } from './progress.js'

/**
 * Tasks and batches are stored as JSON text: their details and settings updates carry user-named keys, which must
 * round-trip exactly (msgpackr renames `__proto__`).
 */
const encode = (value: Task | Batch): Buffer => Buffer.from(JSON.stringify(value))
const decode = <T>(raw: Uint8Array): T => JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as T

const NEXT_TASK_UID = keys.utf8('nextTaskUid')
const NEXT_BATCH_UID = keys.utf8('nextBatchUid')
/** Set once the `pendingTasks` column lists every unfinished task (databases made before it existed lack it). */
const PENDING_LISTED = keys.utf8('pendingTasksListed')
const EMPTY = new Uint8Array(0)

/** Meilisearch's `max_number_of_tasks` and the most finished tasks one automatic deletion takes. */
export const DEFAULT_MAX_TASKS = 1_000_000
const CLEANUP_TASKS = 100_000

const FINISHED: readonly TaskStatus[] = ['succeeded', 'failed', 'canceled']
const isFinished = (status: TaskStatus) => FINISHED.includes(status)

export interface NewTask {
  type: TaskType
  indexUid: string | null
  details: Details | null
  operation: Operation
  customMetadata?: string
}

/** The record of a task just registered as `uid` at `enqueuedAt`. */
export function enqueuedTask(spec: NewTask, uid: number, enqueuedAt: Micros): Task {
  const task: Task = {
    uid, batchUid: null, indexUid: spec.indexUid, status: 'enqueued', type: spec.type, canceledBy: null,
    details: spec.details, error: null, enqueuedAt, startedAt: null, finishedAt: null, operation: spec.operation,
  }
  if (spec.customMetadata !== undefined) task.customMetadata = spec.customMetadata
  return task
}

export interface QueueOptions {
  maxTasks?: number
  log?: (msg: string) => void
}

export class TaskQueue {
  readonly index = new TaskIndex()
  private readonly batchUids = newBitmap()
  private readonly batchTimes = new Map<number, { startedAt: Micros; finishedAt: Micros | null }>()
  private readonly batchOfTask = new Map<number, number>()
  /** The batch being processed: visible on `GET /batches` (with `finishedAt: null`) until it is recorded. */
  private processingBatch: Batch | null = null
  /** What it is doing (updated by the scheduler and the indexing code as they go). */
  private processingProgress: Progress | null = null
  private nextUid: number
  nextBatchUid: number
  /** Called after each registration becomes durable. */
  onRegistered: (task: Task) => void = () => {}
  /** Resolves once finished tasks and batches are indexed too (see the file comment). */
  readonly loaded: Promise<void>
  private isLoaded = false
  /** The automatic deletion registered last (no second one is registered while it waits or is being registered). */
  private cleanup: number | 'registering' | null = null
  private readonly maxTasks: number

  private constructor(private readonly store: Store, nextUid: number, nextBatchUid: number, private readonly options: QueueOptions) {
    this.nextUid = nextUid
    this.nextBatchUid = nextBatchUid
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS
    this.loaded = this.loadFinished()
    // Readers await `loaded`; a failure is theirs to see, not an unhandled rejection here.
    this.loaded.catch(() => {})
  }

  static async load(store: Store, options: QueueOptions = {}): Promise<TaskQueue> {
    const counter = (k: Buffer) => { const v = store.get('meta', k); return v ? keys.readU32(v) : 0 }
    if (!store.get('meta', PENDING_LISTED)) await listPending(store)
    const pending: number[] = []
    for await (const [key] of store.scan('pendingTasks')) pending.push(keys.readU32(key))
    const queue = new TaskQueue(store, counter(NEXT_TASK_UID), counter(NEXT_BATCH_UID), options)
    for (const task of queue.getMany(pending)) {
      queue.indexTask(task)
      queue.nextUid = Math.max(queue.nextUid, task.uid + 1)
    }
    return queue
  }

  /** Index the finished tasks and the batches, skipping what was indexed meanwhile (registered or changed since). */
  private async loadFinished(): Promise<void> {
    await Promise.resolve()
    for await (const [, value] of this.store.scan('tasks')) {
      const task = decode<Task>(value)
      if (!this.index.all.has(task.uid)) this.indexTask(task)
      this.nextUid = Math.max(this.nextUid, task.uid + 1)
    }
    for await (const [, value] of this.store.scan('batches')) {
      const batch = decode<Batch>(value)
      if (!this.batchUids.has(batch.uid)) this.indexBatch(batch)
      this.nextBatchUid = Math.max(this.nextBatchUid, batch.uid + 1)
    }
    this.isLoaded = true
  }

  /** Write a new task durably, then make it visible. Concurrent calls share one fsync. */
  async register(spec: NewTask, withOps: WriteOp[] = []): Promise<Task> {
    await this.keepBounded()
    return this.write(spec, withOps)
  }

  /** `withOps`: writes that must become durable together with the task (e.g. a small payload's copy). */
  private async write(spec: NewTask, withOps: WriteOp[]): Promise<Task> {
    const uid = this.nextUid++
    const task = enqueuedTask(spec, uid, nowMicros())
    await this.store.commit([...this.putOps(task), { column: 'meta', key: NEXT_TASK_UID, value: keys.u32(uid + 1) }, ...withOps])
    this.indexTask(task)
    this.onRegistered(task)
    return task
  }

  /** The uid the next registered task takes. */
  get nextTaskUid(): number {
    return this.nextUid
  }

  /**
   * Register tasks whose uids and enqueue times a replicated log chose (engine/cluster/), in one write: they must be
   * the next uids, in order, and the counter moves in the same write, so a crash leaves them registered with their
   * counter or none of them. One caller registers at a time (the log's applier, in order). `beforeVisible` runs once
   * the write is durable, before the scheduler can see the tasks (a change registered with its task switches the
   * state the task will read). `next`: the counter after them when the log's entries among them were not all tasks
   * (openings, whose writes are among `withOps`): the tasks' uids then skip those places.
   */
  async registerReplicated(tasks: Task[], withOps: WriteOp[] = [], beforeVisible?: () => void, upTo?: number): Promise<void> {
    if (upTo === undefined) {
      if (tasks.length === 0) return
      tasks.forEach((task, i) => {
        if (task.uid !== this.nextUid + i) throw new Error(`replicated task ${task.uid} is not the next task (${this.nextUid + i})`)
      })
    } else {
      if (upTo <= this.nextUid) throw new Error(`replicated entries up to ${upTo - 1} are registered already (next: ${this.nextUid})`)
      let expected = this.nextUid
      for (const task of tasks) {
        if (task.uid < expected || task.uid >= upTo) throw new Error(`replicated task ${task.uid} is not among the next tasks (${expected} to ${upTo - 1})`)
        expected = task.uid + 1
      }
    }
    const next = upTo ?? tasks[tasks.length - 1]!.uid + 1
    await this.store.commit([...tasks.flatMap((task) => this.putOps(task)), { column: 'meta', key: NEXT_TASK_UID, value: keys.u32(next) }, ...withOps])
    beforeVisible?.()
    // Counted and indexed in one step, once durable: a reader never sees a uid counted but its task missing.
    this.nextUid = next
    for (const task of tasks) this.indexTask(task)
    for (const task of tasks) this.onRegistered(task)
  }

  /**
   * Pass uid `uid` without a task: the replicated log's entry there was a change of instance state, applied by
   * `withOps` in the same write as the counter (so it is applied once, like a task's registration).
   */
  async skipReplicated(uid: number, withOps: WriteOp[]): Promise<void> {
    if (uid !== this.nextUid) throw new Error(`replicated entry ${uid} is not the next task (${this.nextUid})`)
    await this.store.commit([{ column: 'meta', key: NEXT_TASK_UID, value: keys.u32(uid + 1) }, ...withOps])
    this.nextUid = uid + 1
  }

  /**
   * Meilisearch's `cleanup_task_queue`: once the queue holds `maxTasks` tasks, a task deletion of up to 100,000 of
   * the oldest finished tasks is registered before the next task (at least two must be deletable, or it would only
   * ever delete its own deletions).
   */
  private async keepBounded(): Promise<void> {
    if (!this.isLoaded || this.index.all.size < this.maxTasks) return
    if (this.cleanup === 'registering' || (this.cleanup !== null && this.index.status('enqueued').has(this.cleanup))) return
    const finished = this.index.byStatus.union([...FINISHED])
    const doomed = newBitmap(finished.rangeUint32Array(0, CLEANUP_TASKS))
    if (doomed.size < 2) {
      this.options.log?.('The task queue is almost full, but no task can be deleted yet.')
      return
    }
    const newest = this.get(doomed.maximum())!
    const originalFilter = `?beforeEnqueuedAt=${formatMicros(newest.enqueuedAt + 1)}&statuses=succeeded,failed,canceled`
    this.options.log?.(`The task queue is almost full. Deleting the oldest ${doomed.size} finished tasks.`)
    this.cleanup = 'registering'
    const task = await this.write({
      type: 'taskDeletion', indexUid: null,
      details: { matchedTasks: doomed.size, deletedTasks: null, originalFilter },
      operation: { type: 'taskDeletion', tasks: Buffer.from(doomed.serialize('portable')).toString('base64'), originalFilter },
    }, []).catch((err) => { this.cleanup = null; throw err })
    this.cleanup = task.uid
  }

  /** The writes that store a task (and keep the list of unfinished tasks in step). */
  putOps(task: Task): WriteOp[] {
    const key = keys.u32(task.uid)
    return [
      { column: 'tasks', key, value: encode(task) },
      isFinished(task.status) ? { column: 'pendingTasks', key } : { column: 'pendingTasks', key, value: EMPTY },
    ]
  }

  deleteOp(uid: number): WriteOp {
    return { column: 'tasks', key: keys.u32(uid) }
  }

  putBatchOp(batch: Batch): WriteOp {
    return { column: 'batches', key: keys.u32(batch.uid), value: encode(batch) }
  }

  /** The write that stores the next task uid (a dump's import sets it past the dump's tasks). */
  nextTaskUidOp(value: number): WriteOp {
    return { column: 'meta', key: NEXT_TASK_UID, value: keys.u32(value) }
  }

  /** The write that stores the next batch uid (`value`, by default the queue's). */
  nextBatchUidOp(value = this.nextBatchUid): WriteOp {
    return { column: 'meta', key: NEXT_BATCH_UID, value: keys.u32(value) }
  }

  get(uid: number): Task | undefined {
    if (this.isLoaded && !this.index.all.has(uid)) return undefined
    const raw = this.store.get('tasks', keys.u32(uid))
    return raw ? decode<Task>(raw) : undefined
  }

  getMany(uids: Iterable<number>): Task[] {
    const list = [...uids]
    return this.store.getMany('tasks', list.map((u) => keys.u32(u))).flatMap((raw) => (raw ? [decode<Task>(raw)] : []))
  }

  /** The progress of batch `uid` while it runs; null otherwise. */
  progressOf(uid: number): Progress | null {
    return this.processingBatch?.uid === uid ? this.processingProgress : null
  }

  getBatch(uid: number): Batch | undefined {
    if (this.processingBatch?.uid === uid) return this.processingBatch
    if (this.isLoaded && !this.batchUids.has(uid)) return undefined
    const raw = this.store.get('batches', keys.u32(uid))
    return raw ? decode<Batch>(raw) : undefined
  }

  /** Record the new state of tasks already written by the caller's commit. */
  replaced(before: Task, after: Task): void {
    this.index.update(before, after)
    if (before.batchUid !== null) this.batchOfTask.delete(before.uid)
    if (after.batchUid !== null) this.batchOfTask.set(after.uid, after.batchUid)
  }

  removed(task: Task): void {
    this.index.remove(task)
    this.batchOfTask.delete(task.uid)
  }

  batchRecorded(batch: Batch): void {
    if (this.processingBatch?.uid === batch.uid) { this.processingBatch = null; this.processingProgress = null }
    this.indexBatch(batch)
  }

  /** A batch started: show it while it runs. */
  batchStarted(batch: Batch, progress: Progress | null = null): void {
    this.processingBatch = batch
    this.processingProgress = progress
    this.indexBatch(batch)
  }

  /** The running batch was abandoned (aborted, or it failed to commit): it never existed. */
  batchAbandoned(uid: number): void {
    if (this.processingBatch?.uid !== uid) return
    this.processingBatch = null
    this.processingProgress = null
    this.batchRemoved(uid)
  }

  batchRemoved(uid: number): void {
    this.batchUids.remove(uid)
    this.batchTimes.delete(uid)
  }

  private indexTask(task: Task): void {
    this.index.insert(task)
    if (task.batchUid !== null) this.batchOfTask.set(task.uid, task.batchUid)
  }

  private indexBatch(batch: Batch): void {
    this.batchUids.add(batch.uid)
    this.batchTimes.set(batch.uid, { startedAt: batch.startedAt, finishedAt: batch.finishedAt })
  }

  list(filter: TaskFilter, page: Page): { results: Task[]; total: number; next: number | null } {
    const matched = this.index.match(filter)
    const { items, next } = paginate(matched, page)
    return { results: this.getMany(items), total: matched.size, next }
  }

  /**
   * Batches with at least one task matching the task-level filters; `uids`/`batchUids` name batches, and the
   * started/finished bounds apply to the batch's own dates.
   */
  matchBatches(filter: TaskFilter): Bitmap {
    const { uids, batchUids, beforeStartedAt, afterStartedAt, beforeFinishedAt, afterFinishedAt, indexScope, ...taskLevel } = filter
    let result = this.batchUids.clone()
    if (uids) result.andInPlace(newBitmap(uids))
    if (batchUids) result.andInPlace(newBitmap(batchUids))
    if (indexScope) {
      // A batch is shown only when every one of its tasks would be.
      const hidden = this.index.all.clone()
      hidden.andNotInPlace(this.index.match({ indexScope }))
      const hiddenBatches = newBitmap()
      for (const t of hidden) {
        const b = this.batchOfTask.get(t)
        if (b !== undefined) hiddenBatches.add(b)
      }
      result.andNotInPlace(hiddenBatches)
    }
    if (Object.values(taskLevel).some((v) => v !== undefined)) {
      const owners = newBitmap()
      for (const t of this.index.match(taskLevel)) {
        const b = this.batchOfTask.get(t)
        if (b !== undefined) owners.add(b)
      }
      result.andInPlace(owners)
    }
    if ([beforeStartedAt, afterStartedAt, beforeFinishedAt, afterFinishedAt].some((v) => v !== undefined)) {
      const keep = newBitmap()
      for (const b of result) {
        const t = this.batchTimes.get(b)!
        const inside = (v: Micros | null, after?: Micros, before?: Micros) =>
          (after === undefined && before === undefined) || (v !== null && (after === undefined || v > after) && (before === undefined || v < before))
        if (inside(t.startedAt, afterStartedAt, beforeStartedAt) && inside(t.finishedAt, afterFinishedAt, beforeFinishedAt)) keep.add(b)
      }
      result = keep
    }
    return result
  }

  listBatches(filter: TaskFilter, page: Page): { results: Batch[]; total: number; next: number | null } {
    const matched = this.matchBatches(filter)
    const { items, next } = paginate(matched, page)
    const running = this.processingBatch
    const stored = this.store.getMany('batches', items.map((u) => keys.u32(u)))
    const results = items.flatMap((u, i) => {
      if (running?.uid === u) return [running]
      const raw = stored[i]
      return raw ? [decode<Batch>(raw)] : []
    })
    return { results, total: matched.size, next }
  }

  /** Uids of the tasks of a batch. */
  tasksOfBatch(batchUid: number): Bitmap {
    return this.index.byBatch.get(batchUid) ?? newBitmap()
  }
}

/** A database made before `pendingTasks` existed: list its unfinished tasks once. */
async function listPending(store: Store): Promise<void> {
  const ops: WriteOp[] = []
  for await (const [key, value] of store.scan('tasks')) {
    if (!isFinished(decode<Task>(value).status)) ops.push({ column: 'pendingTasks', key: Buffer.from(key), value: EMPTY })
  }
  ops.push({ column: 'meta', key: PENDING_LISTED, value: keys.u32(1) })
  await store.commit(ops)
}
