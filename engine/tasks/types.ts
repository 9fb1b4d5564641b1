/** The task queue's glossary: what a task is, what it does, and how it looks on the wire. */
import type { ErrorObject } from '../errors/index.js'

export const TASK_STATUSES = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

/**
 * Every task type Meilisearch defines, in the order of its `Kind` enum (`meilisearch-types/src/tasks.rs`; the order of
 * the "Available types are" message). Filters accept them all, even those Tessera never produces.
 */
export const TASK_TYPES = [
  'documentAdditionOrUpdate', 'documentEdition', 'documentDeletion', 'settingsUpdate', 'indexCreation', 'indexDeletion',
  'indexUpdate', 'indexSwap', 'taskCancelation', 'taskDeletion', 'dumpCreation', 'snapshotCreation', 'export',
  'upgradeDatabase', 'indexCompaction', 'networkTopologyChange', 'dsrUpdate', 'dsrClear',
] as const
export type TaskType = (typeof TASK_TYPES)[number]

/** Microseconds since the Unix epoch: task timestamps keep Meilisearch's sub-millisecond precision. */
export type Micros = number

export interface IndexSwap {
  indexes: [string, string]
  rename: boolean
}

/**
 * What a task does, with the parameters it was registered with. Stored with the task; never shown as is.
 * Later issues add their operations here (documents, settings, ...).
 */
export type Operation =
  | { type: 'indexCreation'; primaryKey: string | null }
  | { type: 'indexUpdate'; primaryKey: string | null; newIndexUid: string | null }
  | { type: 'indexDeletion' }
  | { type: 'indexSwap'; swaps: IndexSwap[] }
  /** `tasks`: the uids matched at registration, a portable roaring bitmap in base64. */
  /**
   * `openedThrough` (cluster mode, set when a node registers it): the log's opened position at its place; it cancels
   * only tasks past it (cluster/openings.ts).
   */
  | { type: 'taskCancelation'; tasks: string; originalFilter: string; openedThrough?: number }
  | { type: 'taskDeletion'; tasks: string; originalFilter: string }
  | DocumentAddition
  | { type: 'documentDeletion'; ids: string[] }
  | { type: 'documentDeletion'; filter: unknown }
  | { type: 'documentDeletion'; clear: true }
  | { type: 'settingsUpdate'; update: Record<string, unknown> }
  | DocumentEdition
  /** `POST /dumps`: a dump of the whole instance, written to the dump directory (see engine/dumps and scheduler/dump-creation.ts). */
  | { type: 'dumpCreation' }
  /** `POST /snapshots` and `--schedule-snapshot`: a copy of the data directory (see engine/snapshots and scheduler/snapshot-creation.ts). */
  | { type: 'snapshotCreation' }
  /** `POST /indexes/{uid}/compact`: reclaims the index's free space (see indexes/changes.ts). */
  | { type: 'indexCompaction' }
  | NetworkTopologyChange

/**
 * Cluster mode: the owners of the network's shards changed (`PATCH /network`); every node drops the documents of
 * shards it no longer owns and fetches those of shards it gained (scheduler/topology-change.ts). Owners by shard
 * name, before and after the change.
 */
export interface NetworkTopologyChange {
  type: 'networkTopologyChange'
  previous: Record<string, string[]>
  shards: Record<string, string[]>
}

/** The format of a stored document payload. */
export type PayloadFormat = 'json' | 'ndjson' | 'csv'

/** A document addition: its payload was validated and stored (fsynced) in a payload file before the 202. */
export interface DocumentAddition {
  type: 'documentAdditionOrUpdate'
  method: 'replace' | 'update'
  /** Payload file name, inside `<db-path>/payloads/`. */
  payload: string
  /** The payload's size in bytes (what the batch size limit counts; absent in tasks registered before it was kept). */
  bytes?: number
  format: PayloadFormat
  csvDelimiter: string
  primaryKey: string | null
  allowIndexCreation: boolean
  /** `skipCreation=true`: only documents already in the index are replaced or updated; new ids are left out. */
  skipCreation?: boolean
  /** Byte ranges of the file that each hold whole documents (see engine/payload/documents.ts). */
  chunks: [number, number][]
  /** CSV only: the header, parsed once. */
  csvHeader?: unknown
}

/** Edit by function: a Rhai script run on the documents matching `filter` (all without one), `context` in scope. */
export interface DocumentEdition {
  type: 'documentEdition'
  function: string
  /** The filter as sent (a string or an array), or null. */
  filter: unknown
  /** The `context` object, or null. */
  context: Record<string, unknown> | null
}

export type Details = Record<string, unknown>

/** The indexes a task concerns: its own, both sides of each swap, or both names of a rename (filters on `indexUids` see them). */
export function indexesOf(task: Pick<Task, 'indexUid' | 'operation'>): string[] {
  if (task.operation.type === 'indexSwap') return task.operation.swaps.flatMap((s) => s.indexes)
  // A rename concerns both names, as in Meilisearch (`KindWithContent::indexes`).
  if (task.operation.type === 'indexUpdate' && task.operation.newIndexUid !== null && task.indexUid !== null && task.operation.newIndexUid !== task.indexUid) {
    return [task.indexUid, task.operation.newIndexUid]
  }
  return task.indexUid === null ? [] : [task.indexUid]
}

/** A task as stored. */
export interface Task {
  uid: number
  batchUid: number | null
  indexUid: string | null
  status: TaskStatus
  type: TaskType
  canceledBy: number | null
  details: Details | null
  error: ErrorObject | null
  enqueuedAt: Micros
  startedAt: Micros | null
  finishedAt: Micros | null
  operation: Operation
  /** `?customMetadata=` of the write that registered it, shown as is in its views (absent when not sent). */
  customMetadata?: string
}

/** The answer to a write: exactly these five keys, in this order, and a sixth, `customMetadata`, when it was sent. */
export interface EnqueuedTask {
  taskUid: number
  indexUid: string | null
  status: 'enqueued'
  type: TaskType
  enqueuedAt: string
  customMetadata?: string
}

/** A task as `GET /tasks` shows it, in Meilisearch's key order. */
export interface TaskView {
  uid: number
  batchUid: number | null
  indexUid: string | null
  status: TaskStatus
  type: TaskType
  canceledBy: number | null
  details?: Details
  error: ErrorObject | null
  duration: string | null
  enqueuedAt: string
  startedAt: string | null
  finishedAt: string | null
  customMetadata?: string
}

/** Batch statistics, as shown on `GET /batches`. */
export interface BatchStats {
  totalNbTasks: number
  status: Partial<Record<TaskStatus, number>>
  types: Partial<Record<TaskType, number>>
  indexUids: Record<string, number>
  /**
   * How long each stage of the batch took (`"processing tasks > computing batch": "1.20ms"`, Meilisearch's
   * `progressTrace`); absent on batches recorded before it existed and on failed batches.
   */
  progressTrace?: Record<string, string>
  /**
   * Requests the batch sent to embedders, all embedders together (Meilisearch's `embedderRequests`): every attempt
   * in `total`, failed attempts in `failed`, the last failure's text in `lastError`; absent when there were none.
   */
  embedderRequests?: { total: number; failed: number; lastError?: string }
}

export interface Batch {
  uid: number
  details: Details
  stats: BatchStats
  startedAt: Micros
  finishedAt: Micros | null
  batchStrategy: string
}

/** What a running batch is doing (Meilisearch's ProgressView); `null` once the batch is finished. */
export interface BatchProgress {
  steps: { currentStep: string; finished: number; total: number }[]
  percentage: number
}

export interface BatchView {
  uid: number
  progress: BatchProgress | null
  details: Details
  stats: BatchStats
  duration: string | null
  startedAt: string
  finishedAt: string | null
  batchStrategy: string
}
