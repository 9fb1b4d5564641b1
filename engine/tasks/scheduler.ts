/**
 * The scheduler: picks the next batch (cancelations first, then deletions, then the index of the oldest
 * enqueued task, autobatched), marks it processing, computes its effects off the critical path, and commits
 * the effects, the final task states and the batch record in one atomic write. A cancelation that targets the
 * running batch aborts it before that commit; its tasks go back to `enqueued` and are then canceled.
 */
import roaring from 'roaring'
import { TesseraError, toErrorObject } from '../errors/index.js'
import { DocumentBatch, BatchAborted } from '../documents/batch.js'
import type { InvertedStore } from '../inverted/index.js'
import type { FacetStore } from '../facets/index.js'
import { settingsUpdateCreatesIndex } from '../settings/index.js'
import type { DocumentStore } from '../documents/store.js'
import type { PayloadFiles } from '../payload/files.js'
import type { Features } from '../features/index.js'
import type { WorkerPool } from '../pool/index.js'
import { keys, type Store, type WriteOp } from '../storage/index.js'
import { PER_INDEX_COLUMNS, indexRangeOf } from '../indexes/ranges.js'
import { IndexCatalog, garbageDone } from '../indexes/catalog.js'
import { applyIndexOperation, type OperationContext } from '../indexes/operations.js'
import { autobatch, type BatchClass } from './autobatcher.js'
import { newBitmap, type Bitmap } from './task-index.js'
import type { TaskQueue } from './queue.js'
import type { Batch, BatchStats, Details, Micros, Task, TaskStatus } from './types.js'
import { TASK_STATUSES, TASK_TYPES } from './types.js'
import { nowMicros } from './time.js'

const { RoaringBitmap32 } = roaring

/** The most tasks one batch takes (Meilisearch's `--experimental-max-number-of-batched-tasks` is unlimited by default). */
export const MAX_BATCHED_TASKS = 10_000

/** What document and settings batches need besides the queue and the catalog. */
export interface SchedulerDeps {
  documents: DocumentStore
  payloads: PayloadFiles
  inverted: InvertedStore
  facets: FacetStore
  features: Features
  pool?: WorkerPool
}

export interface SchedulerOptions {
  /** Test hook: wait this long after marking a batch processing, before applying it. */
  batchDelayMs?: number
  log?: (msg: string, level?: 'INFO' | 'ERROR') => void
}

interface Selection {
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

/** Count fields of details that mean "how much was done": a task that failed or was canceled did none of it. */
const DONE_COUNTS = ['indexedDocuments', 'deletedDocuments', 'editedDocuments', 'canceledTasks', 'deletedTasks']
export function failedDetails(details: Details | null): Details | null {
  if (details === null) return null
  const out: Details = { ...details }
  for (const k of DONE_COUNTS) if (k in out) out[k] = 0
  return out
}

/** See Scheduler.gather: arrivals during a batch that mean a stream, enough waiting tasks, the longest wait. */
const GATHER_MIN_ARRIVALS = 4
const GATHER_ENOUGH_TASKS = 1_000
const GATHER_MAX_MS = 100

/**
 * How long to wait before the next batch (Scheduler.gather): `arrivals` tasks registered while the last batch ran
 * for `lastBatchMs`, `enqueued` waiting now.
 */
export function gatherDelayMs(arrivals: number, enqueued: number, lastBatchMs: number): number {
  if (arrivals < GATHER_MIN_ARRIVALS || enqueued >= GATHER_ENOUGH_TASKS) return 0
  return Math.max(0, Math.min(GATHER_MAX_MS, lastBatchMs))
}

export class Scheduler {
  /** Batches published so far (caches of published state compare it). */
  publishedBatches = 0
  private running = false
  private wakeRequested = false
  private stopped = false
  private current: { uids: Bitmap; abort: AbortController } | null = null
  private idle: Promise<void> = Promise.resolve()
  /** Registrations (wakes) seen since the running batch started: tasks are streaming in. */
  private arrivals = 0

  constructor(
    private readonly store: Store,
    private readonly queue: TaskQueue,
    private readonly catalog: IndexCatalog,
    private readonly deps: SchedulerDeps,
    private readonly options: SchedulerOptions = {},
  ) {}

  /** Ask for a scheduling pass soon (after the current one, if any). */
  wake(): void {
    if (this.stopped) return
    this.arrivals++
    this.wakeRequested = true
    if (!this.running) {
      this.running = true
      this.idle = new Promise<void>((resolve) => setImmediate(() => this.loop().finally(resolve)))
    }
  }


  /** Abort the running batch if it contains any of `uids` (a cancelation was registered for them). */
  abortIfProcessing(uids: Bitmap): void {
    if (this.current && this.current.uids.intersects(uids)) this.current.abort.abort()
  }

  /** Stop taking new batches; the running one finishes (or is abandoned by the caller closing storage). */
  async stop(): Promise<void> {
    this.stopped = true
    this.current?.abort.abort()
    await this.idle
  }

  private async loop(): Promise<void> {
    try {
      while (this.wakeRequested && !this.stopped) {
        this.wakeRequested = false
        while (!this.stopped) {
          const selection = this.select()
          if (!selection) break
          this.arrivals = 0
          const started = performance.now()
          await this.process(selection)
          await this.gather(performance.now() - started)
        }
      }
    } catch (err) {
      this.options.log?.(`scheduler error: ${(err as Error).stack ?? err}`, 'ERROR')
    } finally {
      this.running = false
    }
  }

  /**
   * Autobatching under a stream of small tasks: when tasks kept arriving while the last batch ran and few are
   * waiting, wait as long as that batch took (at most GATHER_MAX_MS) so the next batch takes more of them. A batch
   * has a fixed cost (its commit, posting lists rewritten, the new view published): thousands of one-document
   * tasks processed a few at a time would pay it thousands of times. A task that arrives alone is not delayed.
   */
  private async gather(lastBatchMs: number): Promise<void> {
    const ms = gatherDelayMs(this.arrivals, this.queue.index.status('enqueued').size, lastBatchMs)
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms))
  }

  private select(): Selection | null {
    const enqueued = this.queue.index.status('enqueued')
    if (enqueued.size === 0) return null
    const ofType = (type: Task['type']) => RoaringBitmap32.and(enqueued, this.queue.index.byType.get(type) ?? newBitmap())
    const cancelations = ofType('taskCancelation')
    if (cancelations.size > 0) {
      const task = this.queue.get(cancelations.minimum())!
      return { tasks: [task], strategy: `created batch containing only task with id ${task.uid} of type \`taskCancelation\` that cannot be batched with any other task.` }
    }
    const deletions = ofType('taskDeletion')
    if (deletions.size > 0) {
      return { tasks: this.queue.getMany(deletions), strategy: 'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.' }
    }
    const oldest = this.queue.get(enqueued.minimum())!
    if (oldest.indexUid === null) {
      return { tasks: [oldest], strategy: `created batch containing only task with id ${oldest.uid} of type \`${oldest.type}\` that cannot be batched with any other task.` }
    }
    const ofIndex = RoaringBitmap32.and(enqueued, this.queue.index.byIndex.get(oldest.indexUid) ?? newBitmap())
    // At most MAX_BATCHED_TASKS are read and batched at once, so a long queue costs the same per batch.
    const tasks = this.queue.getMany(ofIndex.rangeUint32Array(0, MAX_BATCHED_TASKS))
    const picked = autobatch(tasks.map((t) => ({ uid: t.uid, type: t.type, class: batchClassOf(t) })), oldest.indexUid, this.catalog.has(oldest.indexUid))
    const chosen = new Set(picked.uids)
    const strategy = picked.uids.length === MAX_BATCHED_TASKS && ofIndex.size > MAX_BATCHED_TASKS
      ? `batched up to configured batch limit of ${MAX_BATCHED_TASKS} tasks`
      : picked.strategy
    return { tasks: tasks.filter((t) => chosen.has(t.uid)), strategy }
  }

  /**
   * Run one batch. The scheduler's own writes (processing mark, requeue, final commit) are shadowed commits: until
   * the in-memory view is updated (in the same tick as the commit's acknowledgement), readers keep seeing the
   * values on disk as they were, so disk and memory never disagree for them. A failure that is not the batch's own (the disk, a bug) fails the batch's tasks instead of leaving
   * them `processing`.
   */
  private async process(selection: Selection): Promise<void> {
    const batchUid = this.queue.nextBatchUid++
    const startedAt = nowMicros()
    const abort = new AbortController()
    this.current = { uids: newBitmap(selection.tasks.map((t) => t.uid)), abort }
    let processing: Task[] = selection.tasks
    let outcome: ComputedBatch | null = null
    let committed = false
    try {
      // 1. Mark the tasks processing (durably: a crash from here on re-runs them at start-up).
      processing = selection.tasks.map((t): Task => ({ ...t, status: 'processing', batchUid, startedAt }))
      await this.shadowed([...processing.map((t) => this.queue.putOp(t)), this.queue.nextBatchUidOp()], () => {
        selection.tasks.forEach((t, i) => this.queue.replaced(t, processing[i]!))
      })
      this.queue.batchStarted(makeBatch(batchUid, processing, startedAt, null, selection.strategy))

      if (this.options.batchDelayMs) await sleep(this.options.batchDelayMs, abort.signal)

      // 2. Compute the effects.
      outcome = abort.signal.aborted ? null : await this.compute(processing, batchUid, abort.signal)
      if (abort.signal.aborted || !outcome) {
        await outcome?.abandon()
        // A cancelation targets this batch: nothing was applied; the tasks wait again and get canceled next.
        const requeued = processing.map((t): Task => ({ ...t, status: 'enqueued', batchUid: null, startedAt: null }))
        // The abandoned batch is never recorded: the next batch takes its uid, so batch uids stay contiguous.
        if (this.queue.nextBatchUid === batchUid + 1) this.queue.nextBatchUid = batchUid
        await this.shadowed([...requeued.map((t) => this.queue.putOp(t)), this.queue.nextBatchUidOp()], () => {
          processing.forEach((t, i) => this.queue.replaced(t, requeued[i]!))
        })
        this.queue.batchAbandoned(batchUid)
        return
      }
      const ops = await outcome.prepare()

      // 3. Commit effects + final task states + batch record atomically, and publish in the same tick.
      const finishedAt = nowMicros()
      // The batch's members (its own tasks, and the tasks a cancelation cancels) take the batch's dates; task
      // history rewritten by a rename or swap keeps its own.
      const members = outcome.finals.filter((t) => t.batchUid === batchUid)
      for (const t of members) { t.startedAt = startedAt; t.finishedAt = finishedAt }
      const batch = makeBatch(batchUid, members, startedAt, finishedAt, selection.strategy)
      const all = ops
      for (const t of outcome.finals) all.push(this.queue.putOp(t))
      all.push(this.queue.putBatchOp(batch))
      const published = outcome
      await this.shadowed(all, () => {
        committed = true
        published.publish()
        for (const t of published.finals) this.queue.replaced(published.before.get(t.uid)!, t)
        this.queue.batchRecorded(batch)
      })
      await outcome.afterCommit()
    } catch (err) {
      if (committed) {
        this.options.log?.(`after batch ${batchUid}: ${(err as Error).stack ?? err}`, 'ERROR')
        return
      }
      this.options.log?.(`batch ${batchUid} failed: ${(err as Error).stack ?? err}`, 'ERROR')
      await outcome?.abandon().catch(() => {})
      await this.failBatch(processing, batchUid, startedAt, selection.strategy, err)
    } finally {
      this.current = null
      this.queue.batchAbandoned(batchUid) // a no-op unless processing failed before the batch was recorded
    }
  }

  /** Commit `ops` durably and apply `publish` in the tick the commit is acknowledged, readers shadowed meanwhile. */
  private async shadowed(ops: WriteOp[], publish: () => void): Promise<void> {
    const commit = this.store.commitShadowed(ops)
    try {
      await commit.done
      publish()
    } finally {
      this.publishedBatches++
      commit.release()
    }
  }

  /** Record the batch's tasks as failed with `err` (an internal or storage error). */
  private async failBatch(tasks: Task[], batchUid: number, startedAt: Micros, strategy: string, err: unknown): Promise<void> {
    const error = toErrorObject(err)
    const finishedAt = nowMicros()
    const failed = tasks.map((t): Task => ({ ...t, status: 'failed', batchUid, startedAt, finishedAt, details: failedDetails(t.details), error }))
    const batch = makeBatch(batchUid, failed, startedAt, finishedAt, strategy)
    try {
      await this.store.commit([...failed.map((t) => this.queue.putOp(t)), this.queue.putBatchOp(batch), this.queue.nextBatchUidOp()])
    } catch (again) {
      // The storage refuses writes: stop scheduling rather than spin; the tasks run again after a restart.
      this.options.log?.(`cannot record the failure of batch ${batchUid} (${(again as Error).message}): the scheduler stops`, 'ERROR')
      this.stopped = true
      return
    }
    const current = new Map(tasks.map((t) => [t.uid, this.queue.get(t.uid) ?? t]))
    for (const t of failed) this.queue.replaced(current.get(t.uid)!, t)
    this.queue.batchRecorded(batch)
    for (const t of tasks) if (t.operation.type === 'documentAdditionOrUpdate') await this.deps.payloads.remove(t.operation.payload)
  }

  /** The batch's effects; null when it was aborted midway (nothing of it will be committed). */
  private async compute(tasks: Task[], batchUid: number, signal: AbortSignal): Promise<ComputedBatch | null> {
    const first = tasks[0]!
    if (first.type === 'taskCancelation') return this.computeCancelation(first, batchUid)
    if (first.type === 'taskDeletion') return this.computeDeletion(tasks)
    return this.computeIndexBatch(tasks, signal)
  }

  private async computeIndexBatch(tasks: Task[], signal: AbortSignal): Promise<ComputedBatch | null> {
    const draft = this.catalog.draft()
    const now = nowMicros()
    const ctx: OperationContext = { draft, now, renames: new Map(), documentCount: (id) => this.deps.documents.count(id) }
    const documents = new DocumentBatch({ store: this.store, documents: this.deps.documents, payloads: this.deps.payloads, inverted: this.deps.inverted, facets: this.deps.facets, pool: this.deps.pool, features: this.deps.features, draft, now, signal })
    const finals: Task[] = []
    const payloads = tasks.flatMap((t) => (t.operation.type === 'documentAdditionOrUpdate' ? [t.operation.payload] : []))
    // The batch's commit drops the payloads' database copies; their files go after it.
    const dropCopies = payloads.map((p) => this.deps.payloads.dropCopyOp(p))
    const removePayloads = async () => { for (const p of payloads) await this.deps.payloads.remove(p, true) }
    let renamer = -1
    // An index deletion absorbs the document and settings tasks batched before it: they are not applied (the index
    // goes anyway) and succeed having done nothing, as in Meilisearch.
    const deletes = tasks[tasks.length - 1]!.operation.type === 'indexDeletion'
    try {
      for (const task of tasks) {
        if (DocumentBatch.handles(task)) {
          finals.push(finish(task, 'succeeded', deletes ? failedDetails(task.details) : await documents.apply(task), null))
          continue
        }
        const renamesBefore = ctx.renames.size
        const result = applyIndexOperation(ctx, task.indexUid, task.operation, task.details)
        if (ctx.renames.size !== renamesBefore) renamer = task.uid
        finals.push(finish(task, result.error ? 'failed' : 'succeeded', result.error ? failedDetails(result.details) : result.details, result.error ? result.error.toJSON() : null))
      }
    } catch (err) {
      await documents.abandon()
      if (signal.aborted || err instanceof BatchAborted) return null
      if (!(err instanceof TesseraError)) this.options.log?.(`batch failed: ${(err as Error).stack ?? err}`, 'ERROR')
      // A failing document or settings task fails its whole batch, and nothing of the batch is applied.
      const error = toErrorObject(err)
      return {
        prepare: async () => dropCopies,
        finals: tasks.map((t) => finish(t, 'failed', failedDetails(t.details), error)),
        before: new Map(tasks.map((t) => [t.uid, t])),
        publish: () => {},
        afterCommit: removePayloads,
        abandon: async () => {},
      }
    }
    const prepare = async () => {
      const ops = draft.ops.slice()
      for (const op of await documents.finalOps()) ops.push(op)
      for (const op of dropCopies) ops.push(op)
      return ops
    }
    const before = new Map<number, Task>(tasks.map((t) => [t.uid, t]))
    // Renames and swaps carry the task history along: earlier tasks now name the index by its new uid. The
    // renaming task itself and every later task keep the names they were registered with (Meilisearch rewrites
    // only the tasks older than the swap).
    if (ctx.renames.size > 0) {
      const touched = this.queue.index.byIndex.union([...ctx.renames.keys()])
      const inBatch = new Map(finals.map((t) => [t.uid, t]))
      for (const uid of touched) {
        if (uid >= renamer) break
        const original = inBatch.get(uid) ?? this.queue.get(uid)
        if (!original) continue
        const rewritten = renameInTask(original, ctx.renames)
        if (inBatch.has(uid)) finals[finals.findIndex((t) => t.uid === uid)] = rewritten
        else { finals.push(rewritten); before.set(uid, original) }
      }
    }
    return {
      prepare,
      finals,
      before,
      publish: () => {
        this.catalog.publish(draft)
        documents.publish()
        for (const id of draft.garbage) { this.deps.documents.forget(id); this.deps.inverted.forget(id); this.deps.facets.forget(id) }
      },
      afterCommit: async () => {
        await removePayloads()
        await dropGarbage(this.store, draft.garbage)
      },
      abandon: () => documents.abandon(),
    }
  }

  private computeCancelation(task: Task, batchUid: number): ComputedBatch {
    const op = task.operation as Extract<Task['operation'], { type: 'taskCancelation' }>
    const matched = RoaringBitmap32.deserialize(Buffer.from(op.tasks, 'base64'), 'portable')
    const cancelable = RoaringBitmap32.and(matched, this.queue.index.status('enqueued'))
    cancelable.remove(task.uid)
    const now = nowMicros()
    const victims = this.queue.getMany(cancelable)
    const finals: Task[] = victims.map((v) => ({ ...finish(v, 'canceled', failedDetails(v.details), null), canceledBy: task.uid, batchUid, finishedAt: now }))
    finals.push(finish(task, 'succeeded', { ...task.details, canceledTasks: victims.length }, null))
    return {
      prepare: async () => [],
      finals,
      before: new Map([...victims, task].map((t) => [t.uid, t])),
      publish: () => {},
      afterCommit: async () => {
        for (const v of victims) if (v.operation.type === 'documentAdditionOrUpdate') await this.deps.payloads.remove(v.operation.payload)
      },
      abandon: async () => {},
    }
  }

  private computeDeletion(tasks: Task[]): ComputedBatch {
    const finished = RoaringBitmap32.orMany((['succeeded', 'failed', 'canceled'] as TaskStatus[]).map((s) => this.queue.index.status(s)))
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
    const victims = this.queue.getMany(doomed)
    const ops: WriteOp[] = victims.map((v) => this.queue.deleteOp(v.uid))
    // A batch whose tasks are all deleted goes too.
    const emptied: number[] = []
    const batches = new Set(victims.flatMap((v) => (v.batchUid === null ? [] : [v.batchUid])))
    for (const b of batches) {
      const remaining = RoaringBitmap32.andNot(this.queue.tasksOfBatch(b), doomed)
      if (remaining.size === 0) emptied.push(b)
    }
    for (const b of emptied) ops.push({ column: 'batches', key: keys.u32(b) })
    return {
      prepare: async () => ops,
      finals,
      before: new Map(tasks.map((t) => [t.uid, t])),
      publish: () => {
        for (const v of victims) this.queue.removed(v)
        for (const b of emptied) this.queue.batchRemoved(b)
      },
      afterCommit: async () => {},
      abandon: async () => {},
    }
  }
}

interface ComputedBatch {
  /** The effects' writes (flushing anything written ahead first). */
  prepare(): Promise<WriteOp[]>
  /** Final states of the batch's tasks, plus any other task whose record the batch rewrites. */
  finals: Task[]
  before: Map<number, Task>
  publish(): void
  afterCommit(): Promise<void>
  /** The batch will not be committed (aborted before its commit): undo what it wrote ahead. */
  abandon(): Promise<void>
}

function finish(task: Task, status: TaskStatus, details: Details | null, error: Task['error']): Task {
  return { ...task, status, details, error }
}

function renameInTask(task: Task, renames: Map<string, string>): Task {
  const rename = (u: string) => renames.get(u) ?? u
  const out: Task = { ...task, indexUid: task.indexUid === null ? null : rename(task.indexUid) }
  if (task.operation.type === 'indexUpdate' && task.operation.newIndexUid !== null) {
    out.operation = { ...task.operation, newIndexUid: rename(task.operation.newIndexUid) }
  }
  if (task.operation.type === 'indexSwap') {
    const swaps = task.operation.swaps.map((s) => ({ ...s, indexes: s.indexes.map(rename) as [string, string] }))
    out.operation = { ...task.operation, swaps }
    out.details = { ...task.details, swaps }
  }
  return out
}

function makeBatch(uid: number, tasks: Task[], startedAt: Micros, finishedAt: Micros | null, batchStrategy: string): Batch {
  const stats: BatchStats = { totalNbTasks: tasks.length, status: {}, types: {}, indexUids: {} }
  for (const s of TASK_STATUSES) {
    const n = tasks.filter((t) => t.status === s).length
    if (n) stats.status[s] = n
  }
  for (const ty of TASK_TYPES) {
    const n = tasks.filter((t) => t.type === ty).length
    if (n) stats.types[ty] = n
  }
  const uids = tasks.flatMap((t) => (t.indexUid === null || t.type === 'indexSwap' ? [] : [t.indexUid])).sort()
  for (const u of uids) stats.indexUids[u] = (stats.indexUids[u] ?? 0) + 1
  return { uid, details: mergeDetails(tasks), stats, startedAt, finishedAt, batchStrategy }
}

/** The batch's details: the tasks' details merged, numbers summed, nulls left out. */
function mergeDetails(tasks: Task[]): Details {
  const out: Details = {}
  for (const t of tasks) {
    for (const [k, v] of Object.entries(t.details ?? {})) {
      if (v === null || v === undefined) continue
      if (typeof v === 'number' && typeof out[k] === 'number') out[k] = (out[k] as number) + v
      else if (Array.isArray(v) && Array.isArray(out[k])) out[k] = [...(out[k] as unknown[]), ...v]
      else out[k] = v
    }
  }
  return out
}

export async function dropGarbage(store: Store, ids: number[]): Promise<void> {
  for (const id of ids) {
    const { gte, lt } = indexRangeOf(id)
    for (const column of PER_INDEX_COLUMNS) await store.clearRange(column, gte, lt)
    await store.commit([garbageDone(id)])
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
  })
}
