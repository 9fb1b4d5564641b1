/**
 * Which tasks run next, as Meilisearch's `create_next_batch` picks them: the last cancelation first, then every task
 * deletion, then every snapshot, then one dump, then the index of the oldest enqueued task, autobatched (autobatcher.ts); a task without an index runs
 * alone. The strategy is the batch's `batchStrategy` text.
 */
import roaring from '../util/roaring.js'
import type { IndexCatalog } from '../indexes/catalog.js'
import { settingsUpdateCreatesIndex } from '../settings/index.js'
import type { TaskQueue } from '../tasks/queue.js'
import { newBitmap } from '../tasks/task-index.js'
import type { Task } from '../tasks/types.js'
import { autobatch, type BatchClass } from './autobatcher.js'
import type { SettledDocuments } from './settled-documents.js'

const { RoaringBitmap32 } = roaring

/**
 * The most tasks one batch takes by default (Meilisearch's `--experimental-max-number-of-batched-tasks` is
 * unlimited by default; Tessera reads at most this many per selection, so a long queue costs the same per batch).
 */
export const MAX_BATCHED_TASKS = 10_000

/** How large a batch may grow: in tasks, and in payload bytes (Meilisearch's batched tasks total size). */
export interface BatchLimits {
  maxTasks: number
  maxBytes: number
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxTasks: MAX_BATCHED_TASKS, maxBytes: Number.MAX_SAFE_INTEGER }

/** A task's payload size: what it brings into the batch's memory (documents to parse and index). */
function payloadBytes(task: Task): number {
  const op = task.operation
  if (op.type !== 'documentAdditionOrUpdate') return 0
  return op.bytes ?? op.chunks[op.chunks.length - 1]?.[1] ?? 0
}

export interface Selection {
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

/**
 * `openedThrough` (cluster mode, cluster/openings.ts): only tasks up to it are batched, and cancelations (decided
 * at their place in the log); null: every task.
 */
export function selectBatch(queue: TaskQueue, catalog: IndexCatalog, limits: BatchLimits = DEFAULT_BATCH_LIMITS, settled?: SettledDocuments, openedThrough: number | null = null): Selection | null {
  let enqueued = queue.index.status('enqueued')
  if (openedThrough !== null) {
    const opened = enqueued.clone()
    opened.removeRange(openedThrough + 1, 0x100000000)
    opened.orInPlace(RoaringBitmap32.and(enqueued, queue.index.byType.get('taskCancelation') ?? newBitmap()))
    enqueued = opened
  }
  if (enqueued.size === 0) return null
  const ofType = (type: Task['type']) => RoaringBitmap32.and(enqueued, queue.index.byType.get(type) ?? newBitmap())
  const cancelations = ofType('taskCancelation')
  if (cancelations.size > 0) {
    const task = queue.get(cancelations.minimum())!
    return { tasks: [task], strategy: `created batch containing only task with id ${task.uid} of type \`taskCancelation\` that cannot be batched with any other task.` }
  }
  const deletions = ofType('taskDeletion')
  if (deletions.size > 0) {
    return { tasks: queue.getMany(deletions), strategy: 'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.' }
  }
  // Then snapshots, all waiting ones in one batch (one copy serves them all), then the oldest dump, as Meilisearch.
  const snapshots = ofType('snapshotCreation')
  if (snapshots.size > 0) {
    return { tasks: queue.getMany(snapshots), strategy: 'stopped after the last task of type `snapshotCreation` because they cannot be batched with tasks of any other type.' }
  }
  const dumps = ofType('dumpCreation')
  if (dumps.size > 0) {
    const task = queue.get(dumps.minimum())!
    return { tasks: [task], strategy: `created batch containing only task with id ${task.uid} of type \`dumpCreation\` that cannot be batched with any other task.` }
  }
  const oldest = queue.get(enqueued.minimum())!
  if (oldest.indexUid === null) {
    return { tasks: [oldest], strategy: `created batch containing only task with id ${oldest.uid} of type \`${oldest.type}\` that cannot be batched with any other task.` }
  }
  const ofIndex = RoaringBitmap32.and(enqueued, queue.index.byIndex.get(oldest.indexUid) ?? newBitmap())
  // A shard move is a barrier: tasks registered after it are never batched before it (it must see exactly the
  // documents of the tasks before it, on every node).
  const moves = ofType('networkTopologyChange')
  if (moves.size > 0) ofIndex.removeRange(moves.minimum(), 0x100000000)
  // Documents a move took from a donor past it are settled up to the donor's position: a batch stops there, so it is
  // wholly before or wholly past it (scheduler/settled-documents.ts).
  const stop = settled?.boundary(oldest.indexUid, oldest.uid) ?? null
  if (stop !== null) ofIndex.removeRange(stop + 1, 0x100000000)
  const maxTasks = Math.min(limits.maxTasks, MAX_BATCHED_TASKS)
  const candidates = queue.getMany(ofIndex.rangeUint32Array(0, maxTasks))
  // The payload size limit cuts the candidates first (the first task always goes, whatever its size), as
  // Meilisearch's `create_next_batch` does before autobatching.
  let size = 0
  let cut = candidates.length
  for (let i = 0; i < candidates.length; i++) {
    const next = size + payloadBytes(candidates[i]!)
    if (i > 0 && next > limits.maxBytes) { cut = i; break }
    size = next
  }
  const tasks = candidates.slice(0, cut)
  const picked = autobatch(tasks.map((t) => ({ uid: t.uid, type: t.type, class: batchClassOf(t) })), oldest.indexUid, catalog.has(oldest.indexUid))
  const chosen = new Set(picked.uids)
  // When autobatching took every candidate, the limit that cut the candidates is why the batch stopped.
  let strategy = picked.strategy
  if (picked.uids.length === tasks.length) {
    if (cut < candidates.length) strategy = `batched up to configured batch size limit of ${limits.maxBytes}B with a total of ${size}B`
    else if (tasks.length === maxTasks && ofIndex.size > maxTasks) strategy = `batched up to configured batch limit of ${maxTasks} tasks`
  }
  return { tasks: tasks.filter((t) => chosen.has(t.uid)), strategy }
}
