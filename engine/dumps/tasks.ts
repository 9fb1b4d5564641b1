/**
 * Tasks in a dump (`tasks/queue.jsonl`, one per line), in Meilisearch's v6 shape (`TaskDump` in `crates/dump`):
 * `type` is the `KindDump` enum (camelCase variants, snake_case fields), `details` the `Details` enum (PascalCase
 * variants, snake_case fields), dates RFC 3339. Meilisearch reads such a line whatever else it holds, so a task
 * Tessera writes also carries its own record under `tessera`: a dump read back by Tessera restores each task
 * exactly (operation, custom metadata), and one written by Meilisearch is translated from its kind and details.
 */
import { formatMicros, parseDateParam } from '../tasks/time.js'
import type { Details, Micros, Operation, Task, TaskStatus, TaskType } from '../tasks/types.js'
import { TASK_STATUSES } from '../tasks/types.js'
import type { ErrorObject } from '../errors/index.js'
import { settingsUpdateCreatesIndex } from '../settings/index.js'
import { unreadableDump } from './errors.js'

type Json = Record<string, unknown>

/** A task line of a v6 dump. */
export interface TaskDump {
  uid: number
  batchUid?: number | null
  indexUid?: string | null
  status: TaskStatus
  type: string | Json
  canceledBy?: number
  details?: Json
  error?: ErrorObject
  enqueuedAt: string
  startedAt?: string
  finishedAt?: string
  /** Tessera's own record of the task (absent from Meilisearch's dumps). */
  tessera?: Task
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)
const roaringBytes = (b64: string): number[] => [...Buffer.from(b64, 'base64')]

/** The `KindDump` of a task. */
function kindOf(task: Task): string | Json {
  const op = task.operation
  const d = task.details ?? {}
  switch (op.type) {
    case 'documentAdditionOrUpdate':
      return { documentImport: { primary_key: op.primaryKey, method: op.method === 'replace' ? 'ReplaceDocuments' : 'UpdateDocuments', documents_count: num(d.receivedDocuments) ?? 0, allow_index_creation: op.allowIndexCreation } }
    case 'documentDeletion':
      if ('clear' in op) return 'documentClear'
      if ('ids' in op) return { documentDeletion: { documents_ids: op.ids } }
      return { documentDeletionByFilter: { filter: op.filter } }
    case 'documentEdition':
      return { documentEdition: { filter: op.filter, context: op.context, function: op.function } }
    case 'settingsUpdate':
      return { settings: { settings: op.update, is_deletion: false, allow_index_creation: settingsUpdateCreatesIndex(op.update) } }
    case 'indexDeletion': return 'indexDeletion'
    case 'indexCreation': return { indexCreation: { primary_key: op.primaryKey } }
    case 'indexUpdate': return { indexUpdate: { primary_key: op.primaryKey, new_index_uid: op.newIndexUid } }
    case 'indexSwap': return { indexSwap: { swaps: op.swaps } }
    case 'taskCancelation': return { taskCancelation: { query: op.originalFilter, tasks: roaringBytes(op.tasks) } }
    case 'taskDeletion': return { tasksDeletion: { query: op.originalFilter, tasks: roaringBytes(op.tasks) } }
    case 'dumpCreation': return { dumpCreation: { keys: [], instance_uid: null } }
    case 'snapshotCreation': return 'snapshotCreation'
    case 'indexCompaction': return 'indexCompaction'
    // A cluster's shard move (Tessera's own fields: a dump of a cluster node is not meant for Meilisearch).
    case 'networkTopologyChange': return { networkTopologyChange: { previous: op.previous, shards: op.shards } }
  }
}

/** The `Details` of a task, from the details Tessera keeps (those `GET /tasks` shows). */
function detailsOf(task: Task): Json | undefined {
  const d = task.details
  if (d === null) return undefined
  switch (task.type) {
    case 'documentAdditionOrUpdate': return { DocumentAdditionOrUpdate: { received_documents: d.receivedDocuments ?? 0, indexed_documents: d.indexedDocuments ?? null } }
    case 'documentEdition':
      return { DocumentEdition: { deleted_documents: d.deletedDocuments ?? null, edited_documents: d.editedDocuments ?? null, original_filter: d.originalFilter ?? null, context: d.context ?? null, function: d.function ?? '' } }
    case 'documentDeletion':
      if ('providedIds' in d) return { DocumentDeletion: { provided_ids: d.providedIds, deleted_documents: d.deletedDocuments ?? null } }
      if ('originalFilter' in d) return { DocumentDeletionByFilter: { original_filter: d.originalFilter, deleted_documents: d.deletedDocuments ?? null } }
      return { ClearAll: { deleted_documents: d.deletedDocuments ?? null } }
    case 'indexDeletion': return { ClearAll: { deleted_documents: d.deletedDocuments ?? null } }
    case 'settingsUpdate': return { SettingsUpdate: { settings: d } }
    case 'indexCreation': case 'indexUpdate': return { IndexInfo: { primary_key: d.primaryKey ?? null } }
    case 'indexSwap': return { IndexSwap: { swaps: d.swaps ?? [] } }
    case 'taskCancelation': return { TaskCancelation: { matched_tasks: d.matchedTasks ?? 0, canceled_tasks: d.canceledTasks ?? null, original_filter: d.originalFilter ?? '' } }
    case 'taskDeletion': return { TaskDeletion: { matched_tasks: d.matchedTasks ?? 0, deleted_tasks: d.deletedTasks ?? null, original_filter: d.originalFilter ?? '' } }
    case 'dumpCreation': return { Dump: { dump_uid: d.dumpUid ?? null } }
    default: return undefined
  }
}

/** The dump line of a task. */
export function taskToDump(task: Task): TaskDump {
  // Key order as Meilisearch writes it: optional fields are left out rather than null.
  const line = { uid: task.uid, batchUid: task.batchUid, indexUid: task.indexUid, status: task.status, type: kindOf(task) } as TaskDump
  if (task.canceledBy !== null) line.canceledBy = task.canceledBy
  const details = detailsOf(task)
  if (details !== undefined) line.details = details
  if (task.error !== null) line.error = task.error
  line.enqueuedAt = formatMicros(task.enqueuedAt)
  if (task.startedAt !== null) line.startedAt = formatMicros(task.startedAt)
  if (task.finishedAt !== null) line.finishedAt = formatMicros(task.finishedAt)
  line.tessera = task
  return line
}

/** An RFC 3339 date of a dump, in microseconds. */
export function dumpDate(value: unknown, what: string): Micros {
  const micros = typeof value === 'string' ? parseDateParam(value, false) : undefined
  if (micros === undefined) throw unreadableDump(`${what} is not an RFC 3339 date: ${JSON.stringify(value)}`)
  return micros
}

const optionalDate = (value: unknown, what: string): Micros | null => (value == null ? null : dumpDate(value, what))

/** Meilisearch's `Details` variant as the details Tessera shows. */
function detailsFromDump(details: Json | undefined): Details | null {
  if (!details || typeof details !== 'object') return null
  const [variant, raw] = Object.entries(details)[0] ?? []
  const f = (raw ?? {}) as Json
  switch (variant) {
    case 'DocumentAdditionOrUpdate': return { receivedDocuments: f.received_documents ?? 0, indexedDocuments: f.indexed_documents ?? null }
    case 'SettingsUpdate': return { ...(f.settings as Json) }
    case 'IndexInfo': return { primaryKey: f.primary_key ?? null }
    case 'DocumentDeletion': return { providedIds: f.provided_ids ?? 0, deletedDocuments: f.deleted_documents ?? null }
    case 'DocumentDeletionByFilter': return { originalFilter: f.original_filter ?? null, deletedDocuments: f.deleted_documents ?? null }
    case 'DocumentEdition': return { deletedDocuments: f.deleted_documents ?? null, editedDocuments: f.edited_documents ?? null, function: f.function ?? null, context: f.context ?? null, originalFilter: f.original_filter ?? null }
    case 'ClearAll': return { deletedDocuments: f.deleted_documents ?? null }
    case 'TaskCancelation': return { matchedTasks: f.matched_tasks ?? 0, canceledTasks: f.canceled_tasks ?? null, originalFilter: f.original_filter ?? '' }
    case 'TaskDeletion': return { matchedTasks: f.matched_tasks ?? 0, deletedTasks: f.deleted_tasks ?? null, originalFilter: f.original_filter ?? '' }
    case 'Dump': return { dumpUid: f.dump_uid ?? null }
    case 'IndexSwap': return { swaps: f.swaps ?? [] }
    case 'UpgradeDatabase': return { upgradeFrom: fmtVersion(f.from), upgradeTo: fmtVersion(f.to) }
    default: return null
  }
}

const fmtVersion = (v: unknown): string => (Array.isArray(v) ? `v${v.join('.')}` : String(v))
const b64 = (bytes: unknown): string => Buffer.from(Array.isArray(bytes) ? (bytes as number[]) : []).toString('base64')

/** Meilisearch's `KindDump` as Tessera's task type and operation. */
function operationFromKind(kind: string | Json, uid: number): { type: TaskType; operation: Operation } {
  const [variant, raw] = typeof kind === 'string' ? [kind, {}] : (Object.entries(kind)[0] ?? ['', {}])
  const f = (raw ?? {}) as Json
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
  switch (variant) {
    case 'documentImport':
      return {
        type: 'documentAdditionOrUpdate',
        // The payload is attached by the import when the task still waits (its update file); a finished task needs none.
        operation: { type: 'documentAdditionOrUpdate', method: f.method === 'UpdateDocuments' ? 'update' : 'replace', payload: '', format: 'ndjson', csvDelimiter: ',', primaryKey: str(f.primary_key), allowIndexCreation: f.allow_index_creation !== false, chunks: [] },
      }
    case 'documentDeletion': return { type: 'documentDeletion', operation: { type: 'documentDeletion', ids: Array.isArray(f.documents_ids) ? f.documents_ids.map(String) : [] } }
    case 'documentDeletionByFilter': return { type: 'documentDeletion', operation: { type: 'documentDeletion', filter: f.filter ?? null } }
    case 'documentClear': return { type: 'documentDeletion', operation: { type: 'documentDeletion', clear: true } }
    case 'documentEdition':
      return { type: 'documentEdition', operation: { type: 'documentEdition', function: str(f.function) ?? '', filter: f.filter ?? null, context: (f.context as Record<string, unknown> | null) ?? null } }
    case 'settings': return { type: 'settingsUpdate', operation: { type: 'settingsUpdate', update: (f.settings as Record<string, unknown>) ?? {} } }
    case 'indexDeletion': return { type: 'indexDeletion', operation: { type: 'indexDeletion' } }
    case 'indexCreation': return { type: 'indexCreation', operation: { type: 'indexCreation', primaryKey: str(f.primary_key) } }
    case 'indexUpdate': return { type: 'indexUpdate', operation: { type: 'indexUpdate', primaryKey: str(f.primary_key), newIndexUid: str(f.new_index_uid) } }
    case 'indexSwap': {
      const swaps = Array.isArray(f.swaps) ? (f.swaps as Json[]).map((s) => ({ indexes: s.indexes as [string, string], rename: s.rename === true })) : []
      return { type: 'indexSwap', operation: { type: 'indexSwap', swaps } }
    }
    case 'taskCancelation': return { type: 'taskCancelation', operation: { type: 'taskCancelation', tasks: b64(f.tasks), originalFilter: str(f.query) ?? '' } }
    case 'tasksDeletion': return { type: 'taskDeletion', operation: { type: 'taskDeletion', tasks: b64(f.tasks), originalFilter: str(f.query) ?? '' } }
    case 'dumpCreation': return { type: 'dumpCreation', operation: { type: 'dumpCreation' } }
    case 'snapshotCreation': return { type: 'snapshotCreation', operation: { type: 'snapshotCreation' } }
    case 'indexCompaction': return { type: 'indexCompaction', operation: { type: 'indexCompaction' } }
    // A database upgrade only ever appears finished in a dump: it keeps its type, and an operation that is never run.
    case 'upgradeDatabase': return { type: 'upgradeDatabase', operation: { type: 'snapshotCreation' } }
    default: throw unreadableDump(`task ${uid} has an unknown type: ${JSON.stringify(kind)}`)
  }
}

/** A task read from a dump line: Tessera's own record when the line has one, else translated from Meilisearch's. */
export function taskFromDump(line: unknown): Task {
  if (!line || typeof line !== 'object') throw unreadableDump('a task line is not a JSON object')
  const t = line as TaskDump
  if (!Number.isInteger(t.uid) || t.uid < 0) throw unreadableDump(`a task has no valid uid: ${JSON.stringify(t.uid)}`)
  if (!(TASK_STATUSES as readonly string[]).includes(t.status)) throw unreadableDump(`task ${t.uid} has an unknown status: ${JSON.stringify(t.status)}`)
  if (t.tessera && typeof t.tessera === 'object' && t.tessera.uid === t.uid) return t.tessera
  const { type, operation } = operationFromKind(t.type, t.uid)
  return {
    uid: t.uid,
    batchUid: typeof t.batchUid === 'number' ? t.batchUid : null,
    indexUid: typeof t.indexUid === 'string' ? t.indexUid : null,
    status: t.status,
    type,
    canceledBy: typeof t.canceledBy === 'number' ? t.canceledBy : null,
    details: detailsFromDump(t.details),
    error: t.error ?? null,
    enqueuedAt: dumpDate(t.enqueuedAt, `task ${t.uid}'s enqueuedAt`),
    startedAt: optionalDate(t.startedAt, `task ${t.uid}'s startedAt`),
    finishedAt: optionalDate(t.finishedAt, `task ${t.uid}'s finishedAt`),
    operation,
  }
}
