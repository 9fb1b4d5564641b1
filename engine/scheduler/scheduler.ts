/**
 * The scheduler: picks the next batch (cancelations first, then deletions, then the index of the oldest
 * enqueued task, autobatched), marks it processing, computes its effects off the critical path, and commits
 * the effects, the final task states and the batch record in one atomic write. A cancelation that targets the
 * running batch aborts it before that commit; its tasks go back to `enqueued` and are then canceled.
 */
import { toErrorObject } from '../errors/index.js'
import { BatchAborted } from '../indexing/index-batch.js'
import type { Store, Write } from '../storage/index.js'
import type { IndexCatalog } from '../indexes/catalog.js'
import { newBitmap, type Bitmap } from '../tasks/task-index.js'
import type { TaskQueue } from '../tasks/queue.js'
import type { Micros, Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import { Progress } from '../tasks/progress.js'
import { failedDetails, type BatchEnv, type ComputedBatch, type OpenedLog, type SchedulerDeps, type SchedulerOptions } from './computed-batch.js'
import { performance } from 'node:perf_hooks'
import { makeBatch } from './batch-record.js'
import { StageTimer } from '../search/performance.js'
import { selectBatch, type Selection } from './selection.js'
import { computeCancelation } from './cancelation.js'
import { computeDeletion } from './task-deletion.js'
import { computeIndexBatch } from './index-tasks.js'
import type { EmbedderRequests } from '../embedders/index.js'
import { computeDump } from './dump-creation.js'
import { computeSnapshot } from './snapshot-creation.js'
import { computeTopologyChange } from './topology-change.js'
import { QuietCollection } from '../util/garbage.js'

export type { SchedulerDeps, SchedulerOptions } from './computed-batch.js'

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

/** The pause before asking the log again to open tasks, after it could not be asked. */
const OPEN_RETRY_MS = 1_000

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
  /**
   * What batches leave on this thread's heap (payload chunks, staging, the replaced views) is collected once batches
   * stop for a moment (util/garbage.ts): GCIDE's batch left 190 MB of garbage resident, searches then grew from there.
   */
  private readonly quiet = new QuietCollection({ growthBytes: 64 << 20, quietMs: 500 })

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


  /**
   * Abort the running batch if it contains any of `uids` (a cancelation was registered for them). Not in cluster
   * mode: a running batch's tasks were opened before the cancelation, so they run on every node (cluster/openings.ts).
   */
  abortIfProcessing(uids: Bitmap): void {
    if (this.deps.openings) return
    if (this.current && this.current.uids.intersects(uids)) this.current.abort.abort()
  }

  /**
   * Test hook: until the returned function is called, each batch waits in `processing` (after its mark), so a test
   * can enqueue tasks behind it and know they form the next batch, however slow the machine. A cancelation or
   * `stop` ends the wait of the batch it aborts.
   */
  hold(): () => void {
    let release!: () => void
    const gate = new Promise<void>((resolve) => { release = resolve })
    this.gate = gate
    return () => { if (this.gate === gate) this.gate = null; release() }
  }

  private gate: Promise<void> | null = null

  /** Whether the scheduler stopped for good (closed, or the storage refused to record a failure). */
  get halted(): boolean {
    return this.stopped
  }

  /** Stop taking new batches; the running one finishes (or is abandoned by the caller closing storage). */
  async stop(): Promise<void> {
    this.stopped = true
    this.current?.abort.abort()
    this.stopWaiting?.()
    await this.idle
  }

  private async loop(): Promise<void> {
    try {
      // Batches read the whole task index (deletions, renames): wait until finished tasks are indexed too.
      await this.queue.loaded
      while (this.wakeRequested && !this.stopped) {
        this.wakeRequested = false
        while (!this.stopped) {
          const openings = this.deps.openings
          const selection = selectBatch(this.queue, this.catalog, this.options.batchLimits, this.deps.settled, openings ? openings.through : null)
          if (!selection) {
            if (openings && await this.askOpening(openings)) continue
            break
          }
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
   * Cluster mode: when tasks wait past the opened position, ask the log to open through the last task of the batch
   * this node would take (so later tasks stay cancelable); true once opened. When the log cannot be asked, a pass is
   * tried again later.
   */
  private async askOpening(openings: OpenedLog): Promise<boolean> {
    const wanted = selectBatch(this.queue, this.catalog, this.options.batchLimits, this.deps.settled)
    if (!wanted) return false
    try {
      await openings.open(Math.max(...wanted.tasks.map((t) => t.uid)))
      return true
    } catch (err) {
      this.options.log?.(`cluster: tasks cannot be opened for batching yet (${(err as Error).message}); trying again`, 'ERROR')
      setTimeout(() => this.wake(), OPEN_RETRY_MS).unref()
      return false
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

  /**
   * Run one batch. The scheduler's own writes (processing mark, requeue, final commit) are shadowed commits: until
   * the in-memory view is updated (in the same tick as the commit's acknowledgement), readers keep seeing the
   * values on disk as they were, so disk and memory never disagree for them. A failure that is not the batch's own (the disk, a bug) fails the batch's tasks instead of leaving
   * them `processing`.
   */
  private async process(selection: Selection): Promise<void> {
    this.quiet.workStarted()
    const batchUid = this.queue.nextBatchUid++
    const startedAt = nowMicros()
    const abort = new AbortController()
    const progress = new Progress()
    this.current = { uids: newBitmap(selection.tasks.map((t) => t.uid)), abort }
    let processing: Task[] = selection.tasks
    let outcome: ComputedBatch | null = null
    let committed = false
    // The stages' durations, shown as the batch's `progressTrace`.
    const trace = new StageTimer('processing tasks')
    const processStart = performance.now()
    let stageStart = processStart
    const endStage = (name: string) => { const now = performance.now(); trace.record(`processing tasks > ${name}`, now - stageStart); stageStart = now }
    try {
      // 1. Mark the tasks processing (durably: a crash from here on re-runs them at start-up).
      processing = selection.tasks.map((t): Task => ({ ...t, status: 'processing', batchUid, startedAt }))
      await this.shadowed([...processing.flatMap((t) => this.queue.putOps(t)), this.queue.nextBatchUidOp()], () => {
        selection.tasks.forEach((t, i) => this.queue.replaced(t, processing[i]!))
      })
      this.queue.batchStarted(makeBatch(batchUid, processing, startedAt, null, selection.strategy), progress)
      endStage('registering tasks as processing')

      while (this.gate && !abort.signal.aborted) await Promise.race([this.gate, aborted(abort.signal)])
      while (this.options.batchHeldWhile?.() && !abort.signal.aborted) await sleep(10, abort.signal)

      // 2. Compute the effects.
      outcome = abort.signal.aborted ? null : await this.compute(processing, batchUid, abort.signal, progress)
      endStage('computing batch')
      // The effects' writes: a settings reindex runs here, and a cancelation can stop it too.
      const ops = outcome && !abort.signal.aborted ? await this.prepare(outcome, abort.signal) : null
      endStage('preparing writes')
      if (abort.signal.aborted || !outcome || !ops) {
        await outcome?.abandon()
        // A cancelation targets this batch: nothing was applied; the tasks wait again and get canceled next.
        const requeued = processing.map((t): Task => ({ ...t, status: 'enqueued', batchUid: null, startedAt: null }))
        // The abandoned batch is never recorded: the next batch takes its uid, so batch uids stay contiguous.
        if (this.queue.nextBatchUid === batchUid + 1) this.queue.nextBatchUid = batchUid
        await this.shadowed([...requeued.flatMap((t) => this.queue.putOps(t)), this.queue.nextBatchUidOp()], () => {
          processing.forEach((t, i) => this.queue.replaced(t, requeued[i]!))
        })
        this.queue.batchAbandoned(batchUid)
        return
      }

      // 3. Commit effects + final task states + batch record atomically, and publish in the same tick.
      progress.phase('writing tasks to disk')
      const finishedAt = nowMicros()
      // The batch's members (its own tasks, and the tasks a cancelation cancels) take the batch's dates; task
      // history rewritten by a rename or swap keeps its own.
      const members = outcome.finals.filter((t) => t.batchUid === batchUid)
      for (const t of members) { t.startedAt = startedAt; t.finishedAt = finishedAt }
      const batch = makeBatch(batchUid, members, startedAt, finishedAt, selection.strategy, trace.details(performance.now() - processStart), outcome.embedderRequests)
      const all = ops
      for (const t of outcome.finals) all.push(...this.queue.putOps(t))
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
      await this.failBatch(processing, batchUid, startedAt, selection.strategy, err, outcome?.embedderRequests)
    } finally {
      this.current = null
      this.queue.batchAbandoned(batchUid) // a no-op unless processing failed before the batch was recorded
      this.quiet.workDone()
    }
  }

  /** The batch's writes; null when a cancelation stopped their computation (then nothing of the batch is applied). */
  private async prepare(outcome: ComputedBatch, signal: AbortSignal): Promise<Write[] | null> {
    try {
      return await outcome.prepare()
    } catch (err) {
      if (signal.aborted || err instanceof BatchAborted) return null
      throw err
    }
  }

  /** Commit `ops` durably and apply `publish` in the tick the commit is acknowledged, readers shadowed meanwhile. */
  private async shadowed(ops: Write[], publish: () => void): Promise<void> {
    const commit = await this.store.commitShadowed(ops)
    try {
      await commit.done
      publish()
    } finally {
      this.publishedBatches++
      commit.release()
    }
  }

  /** Record the batch's tasks as failed with `err` (an internal or storage error). */
  private async failBatch(tasks: Task[], batchUid: number, startedAt: Micros, strategy: string, err: unknown, embedderRequests?: EmbedderRequests): Promise<void> {
    const error = toErrorObject(err, (line) => this.options.log?.(`batch ${batchUid}: ${line}`, 'ERROR'))
    const finishedAt = nowMicros()
    const failed = tasks.map((t): Task => ({ ...t, status: 'failed', batchUid, startedAt, finishedAt, details: failedDetails(t.details), error }))
    const batch = makeBatch(batchUid, failed, startedAt, finishedAt, strategy, undefined, embedderRequests)
    try {
      await this.store.commit([...failed.flatMap((t) => this.queue.putOps(t)), this.queue.putBatchOp(batch), this.queue.nextBatchUidOp()])
    } catch (again) {
      if (this.store.refusingWrites) {
        this.options.log?.(`cannot record the end of batch ${batchUid} (${(again as Error).message}): its tasks run again once the disk has room`, 'ERROR')
        await this.requeueWhenWritable(tasks, batchUid)
        return
      }
      // The storage refuses writes for good: stop scheduling rather than spin; the tasks run again after a restart.
      this.options.log?.(`cannot record the failure of batch ${batchUid} (${(again as Error).message}): the scheduler stops`, 'ERROR')
      this.stopped = true
      return
    }
    const current = new Map(tasks.map((t) => [t.uid, this.queue.get(t.uid) ?? t]))
    for (const t of failed) this.queue.replaced(current.get(t.uid)!, t)
    this.queue.batchRecorded(batch)
    for (const t of tasks) if (t.operation.type === 'documentAdditionOrUpdate') await this.deps.payloads.remove(t.operation.payload)
  }

  /**
   * The storage refuses writes until the disk has room (see engine/storage/recovery.ts): nothing of the batch was
   * written but its `processing` mark, so once writes resume its tasks are enqueued again and run in a later batch,
   * as a restart would re-run them. Stopping the scheduler meanwhile leaves them `processing` for the next start.
   */
  private async requeueWhenWritable(tasks: Task[], batchUid: number): Promise<void> {
    const stop = new AbortController()
    this.stopWaiting = () => stop.abort()
    try {
      // The disk may fill again before the requeue is written: then wait again.
      while (!this.stopped && await this.store.writable(stop.signal)) {
        const current = tasks.map((t) => this.queue.get(t.uid) ?? t)
        const requeued = current.map((t): Task => ({ ...t, status: 'enqueued', batchUid: null, startedAt: null }))
        if (this.queue.nextBatchUid === batchUid + 1) this.queue.nextBatchUid = batchUid
        try {
          await this.shadowed([...requeued.flatMap((t) => this.queue.putOps(t)), this.queue.nextBatchUidOp()], () => {
            current.forEach((t, i) => this.queue.replaced(t, requeued[i]!))
          })
          return
        } catch (err) {
          if (!this.store.refusingWrites) throw err
        }
      }
    } finally {
      this.stopWaiting = null
    }
  }

  /** Ends the wait of `requeueWhenWritable` when the scheduler stops. */
  private stopWaiting: (() => void) | null = null

  /** The batch's effects; null when it was aborted midway (nothing of it will be committed). */
  private async compute(tasks: Task[], batchUid: number, signal: AbortSignal, progress: Progress): Promise<ComputedBatch | null> {
    const env: BatchEnv = { store: this.store, queue: this.queue, catalog: this.catalog, deps: this.deps, options: this.options, progress }
    const first = tasks[0]!
    if (first.type === 'taskCancelation') return computeCancelation(env, first, batchUid)
    if (first.type === 'taskDeletion') return computeDeletion(env, tasks)
    if (first.type === 'dumpCreation') return computeDump(env, first)
    if (first.type === 'snapshotCreation') return computeSnapshot(env, tasks)
    if (first.type === 'networkTopologyChange') return computeTopologyChange(env, first, signal)
    return computeIndexBatch(env, tasks, signal)
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
  })
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
