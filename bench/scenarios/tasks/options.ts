/** The tasks scenario's options (`--quick` scales them down) and the constants its parts share. */

export interface TasksOptions {
  /** One-document tasks of part 1. */
  oneDocTasks: number
  /** Concurrent keep-alive clients registering the tasks of parts 1 and 2. */
  clients: number
  /** Tasks of part 2 (settings and 10-document additions). */
  mixedTasks: number
  /** Every `settingsEvery`-th task of part 2 is a settings update. */
  settingsEvery: number
  /** Documents of the index part 3 reindexes. */
  reindexDocuments: number
  seed: number
}

export const DEFAULT_TASKS_OPTIONS: TasksOptions = {
  oneDocTasks: 10_000, clients: 16, mixedTasks: 2_000, settingsEvery: 50, reindexDocuments: 50_000, seed: 0x7a5c5,
}

/** `--quick`: 2,000 one-document tasks, 500 mixed tasks, 10,000 documents to reindex. */
export function quickTasksOptions(o: TasksOptions): TasksOptions {
  return { ...o, oneDocTasks: 2_000, mixedTasks: 500, reindexDocuments: 10_000 }
}

/** The target: 10,000 one-document tasks processed in ≤ 5 s, i.e. ≥ 2,000 tasks/s at any count. */
export const ONE_DOC_TARGET = { tasks: 10_000, seconds: 5, tasksPerSecond: 2_000 }

/** Documents in each addition task of the mixed part. */
export const MIXED_DOCUMENTS_PER_TASK = 10

/** Poll interval of the waits, and their deadlines. */
export const POLL_MS = 25
export const WAIT_ALL_TIMEOUT_MS = 300_000
export const SETTINGS_TIMEOUT_MS = 300_000
export const REQUEST_TIMEOUT_MS = 30_000
/** Registration stops (and the part fails) after this many failed POSTs. */
export const MAX_REGISTRATION_ERRORS = 50
