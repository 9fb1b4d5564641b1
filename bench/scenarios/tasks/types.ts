/** What the tasks scenario measures: one result per part (one-document tasks, mixed tasks, settings-driven reindex). */
import type { LatencySummary } from '../../harness/latency.js'
import type { TasksOptions } from './options.js'

/** Tasks per batch. */
export interface BatchSizes {
  min: number
  mean: number
  max: number
}

export interface OneDocResult {
  ok: boolean
  /** Why the part failed (a POST refused, a timeout, a wrong document count, a task that did not succeed). */
  error?: string
  indexUid: string
  tasks: number
  clients: number
  /** First send → last 202, seconds. */
  registrationSeconds: number | null
  registrationTasksPerSecond: number | null
  /** Round trip of each POST, ms. */
  registrationLatencyMs: LatencySummary | null
  /** POSTs not answered 202 (or not answered). */
  registrationErrors: number
  /** First send → every task seen ended (polled every 25 ms), seconds: the figure the target is checked on. */
  processingSeconds: number | null
  processingTasksPerSecond: number | null
  /** Last 202 → every task seen ended, seconds: what processing took beyond the registration. */
  drainSeconds: number | null
  /** The service's own span: earliest `startedAt` → latest `finishedAt` of the tasks, seconds. */
  serverSpanSeconds: number | null
  serverTasksPerSecond: number | null
  /** Earliest `enqueuedAt` → earliest `startedAt`: how long the first task waited, seconds. */
  queueWaitSeconds: number | null
  /** Distinct `batchUid`s of the tasks. */
  batches: number | null
  tasksPerBatch: BatchSizes | null
  /** The first 40 batches, in order: their tasks and seconds (earliest `startedAt` → latest `finishedAt`). */
  firstBatches: Array<{ tasks: number; seconds: number }>
  /** Sum over the batches of their seconds; the service span less this is time spent between batches. */
  batchBusySeconds: number | null
  succeeded: number | null
  failed: number | null
  canceled: number | null
  firstFailure?: string
  /** `numberOfDocuments` of `GET /indexes/{uid}/stats` afterwards (must equal `tasks`). */
  numberOfDocuments: number | null
  /** Server CPU, % of one core, during the registration and after it until every task ended. */
  serverCpuRegistrationPercent: number | null
  serverCpuDrainPercent: number | null
  /** This bench process (the clients), % of one core, first send → every task ended. */
  benchCpuPercent: number | null
  /** Every other process of the machine over the same window, % of one core. */
  otherCpuPercent: number | null
  /** The target, scaled to the count: processingTasksPerSecond ≥ 2,000 (null when not measured). */
  targetTasksPerSecond: number
  targetMet: boolean | null
  peakRssMiB: number | null
  /** The part's whole time (set-up and checks included), seconds. */
  totalSeconds: number
}

export interface MixedResult {
  ok: boolean
  error?: string
  indexUid: string
  tasks: number
  clients: number
  documentTasks: number
  settingsTasks: number
  documentsPerTask: number
  documents: number
  registrationSeconds: number | null
  registrationTasksPerSecond: number | null
  registrationErrors: number
  /** First send → every task seen ended, seconds. */
  wallSeconds: number | null
  tasksPerSecond: number | null
  documentsPerSecond: number | null
  serverSpanSeconds: number | null
  batches: number | null
  /** Batches that held a settings task, and those that held only additions. */
  settingsBatches: number | null
  documentBatches: number | null
  /** Tasks per document batch. */
  tasksPerDocumentBatch: BatchSizes | null
  /** Sum of the durations of the settings batches and of the document batches, seconds. */
  settingsBatchSeconds: number | null
  documentBatchSeconds: number | null
  succeeded: number | null
  failed: number | null
  canceled: number | null
  firstFailure?: string
  numberOfDocuments: number | null
  peakRssMiB: number | null
  totalSeconds: number
}

export interface ReindexChange {
  change: string
  /** The body of the PATCH. */
  settings: Record<string, unknown>
  ok: boolean
  error?: string
  /** PATCH sent → task seen `succeeded`, seconds. */
  wallSeconds: number | null
  /** The task's own `duration`, seconds. */
  taskSeconds: number | null
  /** documents / wallSeconds. */
  documentsPerSecond: number | null
}

export interface ReindexResult {
  ok: boolean
  error?: string
  indexUid: string
  documents: number
  payloadBytes: number | null
  /** The NDJSON POST → its task seen `succeeded`, seconds, and documents/s on it. */
  indexingSeconds: number | null
  indexingDocumentsPerSecond: number | null
  changes: ReindexChange[]
  numberOfDocuments: number | null
  /** VmHWM of the server after the part (peak RSS over its lifetime), and VmRSS then, MiB. */
  peakRssMiB: number | null
  rssMiB: number | null
  totalSeconds: number
}

export interface TasksResult {
  options: TasksOptions
  oneDoc: OneDocResult
  mixed: MixedResult
  reindex: ReindexResult
  totalSeconds: number
}
