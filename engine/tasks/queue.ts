/**
 * The task queue: durable registration (group-committed by the storage writer), reads, and the in-memory
 * indexes of tasks and batches used by filters and by the scheduler.
 */
import { Store, keys, type WriteOp } from '../storage/index.js'

/**
 * Tasks and batches are stored as JSON text: their details and settings updates carry user-named keys, which must
 * round-trip exactly (msgpackr renames `__proto__`).
 */
const encode = (value: Task | Batch): Buffer => Buffer.from(JSON.stringify(value))
const decode = <T>(raw: Uint8Array): T => JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as T
import { TaskIndex, newBitmap, paginate, type Bitmap } from './task-index.js'
import type { Batch, Details, Micros, Operation, Task, TaskType } from './types.js'
import type { Page, TaskFilter } from './query.js'
import { nowMicros } from './time.js'

const NEXT_TASK_UID = keys.utf8('nextTaskUid')
const NEXT_BATCH_UID = keys.utf8('nextBatchUid')

export interface NewTask {
  type: TaskType
  indexUid: string | null
  details: Details | null
  operation: Operation
}

export class TaskQueue {
  readonly index = new TaskIndex()
  private readonly batchUids = newBitmap()
  private readonly batchTimes = new Map<number, { startedAt: Micros; finishedAt: Micros | null }>()
  private readonly batchOfTask = new Map<number, number>()
  /** The batch being processed: visible on `GET /batches` (with `finishedAt: null`) until it is recorded. */
  private processingBatch: Batch | null = null
  private nextUid: number
  nextBatchUid: number
  /** Called after each registration becomes durable. */
  onRegistered: (task: Task) => void = () => {}

  private constructor(private readonly store: Store, nextUid: number, nextBatchUid: number) {
    this.nextUid = nextUid
    this.nextBatchUid = nextBatchUid
  }

  static async load(store: Store): Promise<TaskQueue> {
    const counter = (k: Buffer) => { const v = store.get('meta', k); return v ? keys.readU32(v) : 0 }
    const queue = new TaskQueue(store, counter(NEXT_TASK_UID), counter(NEXT_BATCH_UID))
    for await (const [, value] of store.scan('tasks')) {
      const task = decode<Task>(value)
      queue.indexTask(task)
      queue.nextUid = Math.max(queue.nextUid, task.uid + 1)
    }
    for await (const [, value] of store.scan('batches')) {
      const batch = decode<Batch>(value)
      queue.indexBatch(batch)
      queue.nextBatchUid = Math.max(queue.nextBatchUid, batch.uid + 1)
    }
    return queue
  }

  /** Write a new task durably, then make it visible. Concurrent calls share one fsync. */
  /** `with`: writes that must become durable together with the task (e.g. a small payload's copy). */
  async register(spec: NewTask, withOps: WriteOp[] = []): Promise<Task> {
    const uid = this.nextUid++
    const task: Task = {
      uid, batchUid: null, indexUid: spec.indexUid, status: 'enqueued', type: spec.type, canceledBy: null,
      details: spec.details, error: null, enqueuedAt: nowMicros(), startedAt: null, finishedAt: null, operation: spec.operation,
    }
    await this.store.commit([this.putOp(task), { column: 'meta', key: NEXT_TASK_UID, value: keys.u32(uid + 1) }, ...withOps])
    this.indexTask(task)
    this.onRegistered(task)
    return task
  }

  putOp(task: Task): WriteOp {
    return { column: 'tasks', key: keys.u32(task.uid), value: encode(task) }
  }

  deleteOp(uid: number): WriteOp {
    return { column: 'tasks', key: keys.u32(uid) }
  }

  putBatchOp(batch: Batch): WriteOp {
    return { column: 'batches', key: keys.u32(batch.uid), value: encode(batch) }
  }

  nextBatchUidOp(): WriteOp {
    return { column: 'meta', key: NEXT_BATCH_UID, value: keys.u32(this.nextBatchUid) }
  }

  get(uid: number): Task | undefined {
    if (!this.index.all.has(uid)) return undefined
    const raw = this.store.get('tasks', keys.u32(uid))
    return raw ? decode<Task>(raw) : undefined
  }

  getMany(uids: Iterable<number>): Task[] {
    const list = [...uids]
    return this.store.getMany('tasks', list.map((u) => keys.u32(u))).flatMap((raw) => (raw ? [decode<Task>(raw)] : []))
  }

  getBatch(uid: number): Batch | undefined {
    if (!this.batchUids.has(uid)) return undefined
    if (this.processingBatch?.uid === uid) return this.processingBatch
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
    if (this.processingBatch?.uid === batch.uid) this.processingBatch = null
    this.indexBatch(batch)
  }

  /** A batch started: show it while it runs. */
  batchStarted(batch: Batch): void {
    this.processingBatch = batch
    this.indexBatch(batch)
  }

  /** The running batch was abandoned (aborted, or it failed to commit): it never existed. */
  batchAbandoned(uid: number): void {
    if (this.processingBatch?.uid !== uid) return
    this.processingBatch = null
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
    const { uids, batchUids, beforeStartedAt, afterStartedAt, beforeFinishedAt, afterFinishedAt, ...taskLevel } = filter
    let result = this.batchUids.clone()
    if (uids) result.andInPlace(newBitmap(uids))
    if (batchUids) result.andInPlace(newBitmap(batchUids))
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
