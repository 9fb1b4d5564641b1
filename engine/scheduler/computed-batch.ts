/**
 * What the scheduler asks of a batch, whatever its kind (an index's documents and settings, a cancelation, a task
 * deletion): its effects computed off the critical path, then the commit protocol's steps. The scheduler commits
 * the effects with the tasks' final states and the batch record in one atomic write, and publishes in the same tick.
 */
import type { Store, Write } from '../storage/index.js'
import type { TaskQueue } from '../tasks/queue.js'
import type { IndexCatalog } from '../indexes/catalog.js'
import type { DocumentStore } from '../documents/store.js'
import type { PayloadFiles } from '../payload/files.js'
import type { InvertedStore } from '../inverted/index.js'
import type { FacetStore } from '../facets/index.js'
import type { VectorStore } from '../vectors/store.js'
import type { EmbedderRequests } from '../embedders/index.js'
import type { NetworkConfig } from '../network/index.js'
import type { SettledDocuments } from './settled-documents.js'
import type { Features } from '../features/index.js'
import type { WorkerPool } from '../pool/index.js'
import type { Details, Task, TaskStatus } from '../tasks/types.js'
import type { BatchLimits } from './selection.js'
import type { Progress } from '../tasks/progress.js'

export interface ComputedBatch {
  /** The effects' writes (flushing anything written ahead first). */
  prepare(): Promise<Write[]>
  /** Final states of the batch's tasks, plus any other task whose record the batch rewrites. */
  finals: Task[]
  before: Map<number, Task>
  publish(): void
  afterCommit(): Promise<void>
  /** The batch will not be committed (aborted before its commit): undo what it wrote ahead. */
  abandon(): Promise<void>
  /** Requests sent to embedders so far (counts grow while the batch is prepared). */
  embedderRequests?: EmbedderRequests
}

/** What document and settings batches need besides the queue and the catalog. */
export interface SchedulerDeps {
  documents: DocumentStore
  payloads: PayloadFiles
  inverted: InvertedStore
  facets: FacetStore
  vectors: VectorStore
  features: Features
  pool?: WorkerPool
  /**
   * Cluster mode with shards: which documents this node keeps when it applies an addition, asked at each batch
   * (the network may change between batches); null or absent keeps every document.
   */
  keepsDocument?: () => ((id: string) => boolean) | null
  /** The network (cluster mode: shard moves read its shards, owners and remotes). */
  network?: NetworkConfig
  /**
   * Cluster mode: the log position up to which tasks may be batched, and how to ask for more (cluster/openings.ts);
   * absent: every task may be.
   */
  openings?: OpenedLog
  /** Cluster mode: documents shard moves took from donors past the move, which earlier tasks leave as they are. */
  settled?: SettledDocuments
}

/** The opened position of a replicated log (cluster/openings.ts implements it). */
export interface OpenedLog {
  readonly through: number
  /** Resolves once tasks up to `through` may be batched; rejects when the log could not be asked. */
  open(through: number): Promise<void>
}

export interface SchedulerOptions {
  /** Test hook: each batch waits in `processing` while this answers true (see Engine's option). */
  batchHeldWhile?: () => boolean
  /** How many tasks and payload bytes one batch takes at most (`--experimental-max-number-of-batched-tasks`,
   * `--experimental-limit-batched-tasks-total-size`). */
  batchLimits?: BatchLimits
  /** Where `dumpCreation` tasks write (`--dump-dir`; default `dumps/`). */
  dumpDir?: string
  /** Where `snapshotCreation` tasks write (`--snapshot-dir`; default `snapshots/`). */
  snapshotDir?: string
  /** The version a dump's `metadata.json` names. */
  dbVersion?: string
  log?: (msg: string, level?: 'INFO' | 'ERROR') => void
}

/** What every batch kind reads: the storage, the queue, the catalog and the components batches change. */
export interface BatchEnv {
  store: Store
  queue: TaskQueue
  catalog: IndexCatalog
  deps: SchedulerDeps
  options: SchedulerOptions
  /** What the batch is doing, shown on `GET /batches` while it runs. */
  progress: Progress
}

export function finish(task: Task, status: TaskStatus, details: Details | null, error: Task['error']): Task {
  return { ...task, status, details, error }
}

/** Count fields of details that mean "how much was done": a task that failed or was canceled did none of it. */
const DONE_COUNTS = ['indexedDocuments', 'deletedDocuments', 'editedDocuments', 'canceledTasks', 'deletedTasks']
export function failedDetails(details: Details | null): Details | null {
  if (details === null) return null
  const out: Details = { ...details }
  for (const k of DONE_COUNTS) if (k in out) out[k] = 0
  return out
}
