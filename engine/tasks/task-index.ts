/**
 * The in-memory index of the task queue: a roaring bitmap of task uids per status, type, index, batch and
 * canceler, plus the three timestamps per uid. Filters are bitmap intersections; only the tasks of the page
 * asked for are read from storage. A million tasks cost a few tens of megabytes here.
 */
import roaring from '../util/roaring.js'
import type { Micros, Task, TaskStatus, TaskType } from './types.js'
import { TASK_TYPES, indexesOf } from './types.js'
import type { Page, TaskFilter } from './query.js'

const { RoaringBitmap32 } = roaring
export type Bitmap = InstanceType<typeof RoaringBitmap32>
export const newBitmap = (values?: Iterable<number>): Bitmap => (values ? new RoaringBitmap32([...values]) : new RoaringBitmap32())

class Keyed<K> {
  readonly map = new Map<K, Bitmap>()
  add(key: K, uid: number): void {
    let b = this.map.get(key)
    if (!b) this.map.set(key, (b = newBitmap()))
    b.add(uid)
  }
  remove(key: K, uid: number): void {
    const b = this.map.get(key)
    if (!b) return
    b.remove(uid)
    if (b.size === 0) this.map.delete(key)
  }
  get(key: K): Bitmap | undefined {
    return this.map.get(key)
  }
  union(keys: K[]): Bitmap {
    const out = newBitmap()
    for (const k of keys) {
      const b = this.map.get(k)
      if (b) out.orInPlace(b)
    }
    return out
  }
}

/** Growable per-uid timestamps; NaN means unset. */
class Times {
  private data = new Float64Array(1024).fill(NaN)
  set(uid: number, value: Micros | null): void {
    if (uid >= this.data.length) {
      const next = new Float64Array(Math.max(uid + 1, this.data.length * 2)).fill(NaN)
      next.set(this.data)
      this.data = next
    }
    this.data[uid] = value ?? NaN
  }
  get(uid: number): number {
    return uid < this.data.length ? this.data[uid]! : NaN
  }
}

/** The task types about exactly one index (Meilisearch's `Kind::related_to_one_index`). */
const SINGLE_INDEX_TYPES: ReadonlySet<TaskType> = new Set<TaskType>([
  'documentAdditionOrUpdate', 'documentEdition', 'documentDeletion', 'settingsUpdate', 'indexCreation', 'indexDeletion',
  'indexUpdate', 'indexCompaction',
])

export interface IndexedEntity {
  uid: number
  status?: TaskStatus
  type?: TaskType
}

export class TaskIndex {
  readonly all = newBitmap()
  readonly byStatus = new Keyed<TaskStatus>()
  readonly byType = new Keyed<TaskType>()
  readonly byIndex = new Keyed<string>()
  readonly byBatch = new Keyed<number>()
  readonly byCanceledBy = new Keyed<number>()
  private readonly enqueuedAt = new Times()
  private readonly startedAt = new Times()
  private readonly finishedAt = new Times()

  insert(task: Task): void {
    this.all.add(task.uid)
    this.byStatus.add(task.status, task.uid)
    this.byType.add(task.type, task.uid)
    for (const uid of indexesOf(task)) this.byIndex.add(uid, task.uid)
    if (task.batchUid !== null) this.byBatch.add(task.batchUid, task.uid)
    if (task.canceledBy !== null) this.byCanceledBy.add(task.canceledBy, task.uid)
    this.enqueuedAt.set(task.uid, task.enqueuedAt)
    this.startedAt.set(task.uid, task.startedAt)
    this.finishedAt.set(task.uid, task.finishedAt)
  }

  remove(task: Task): void {
    this.all.remove(task.uid)
    this.byStatus.remove(task.status, task.uid)
    this.byType.remove(task.type, task.uid)
    for (const uid of indexesOf(task)) this.byIndex.remove(uid, task.uid)
    if (task.batchUid !== null) this.byBatch.remove(task.batchUid, task.uid)
    if (task.canceledBy !== null) this.byCanceledBy.remove(task.canceledBy, task.uid)
  }

  /** Replace the entry of a task whose status, batch or times changed. */
  update(before: Task, after: Task): void {
    this.remove(before)
    this.insert(after)
  }

  status(status: TaskStatus): Bitmap {
    return this.byStatus.get(status) ?? newBitmap()
  }

  /** Uids of the tasks matching every part of the filter. */
  match(filter: TaskFilter): Bitmap {
    const result = this.all.clone()
    if (filter.uids) result.andInPlace(newBitmap(filter.uids))
    if (filter.batchUids) result.andInPlace(this.byBatch.union(filter.batchUids))
    if (filter.indexUids) result.andInPlace(this.byIndex.union(filter.indexUids))
    if (filter.statuses) result.andInPlace(this.byStatus.union(filter.statuses))
    if (filter.types) result.andInPlace(this.byType.union(filter.types))
    if (filter.canceledBy) result.andInPlace(this.byCanceledBy.union(filter.canceledBy))
    if (filter.indexScope) {
      for (const type of TASK_TYPES) if (!SINGLE_INDEX_TYPES.has(type)) { const b = this.byType.get(type); if (b) result.andNotInPlace(b) }
      for (const [uid, tasks] of this.byIndex.map) if (!filter.indexScope(uid)) result.andNotInPlace(tasks)
    }
    const bounds: [Times, Micros | undefined, Micros | undefined][] = [
      [this.enqueuedAt, filter.afterEnqueuedAt, filter.beforeEnqueuedAt],
      [this.startedAt, filter.afterStartedAt, filter.beforeStartedAt],
      [this.finishedAt, filter.afterFinishedAt, filter.beforeFinishedAt],
    ]
    for (const [times, after, before] of bounds) {
      if (after === undefined && before === undefined) continue
      const drop: number[] = []
      for (const uid of result) {
        const t = times.get(uid)
        // Both bounds are exclusive; a task without that timestamp never matches a bound on it.
        if (Number.isNaN(t) || (after !== undefined && !(t > after)) || (before !== undefined && !(t < before))) drop.push(uid)
      }
      result.removeMany(drop)
    }
    return result
  }
}

/**
 * One page of `uids` in uid-descending order (ascending with `reverse`), starting at `from`, with the uid of the
 * item after the page as `next` (the server reads `limit + 1`).
 */
export function paginate(uids: Bitmap, page: Page): { items: number[]; next: number | null } {
  const items: number[] = []
  const want = page.limit + 1
  // rank(x) counts members <= x and select(i) is the i-th smallest member: a page costs O(limit log n).
  if (page.reverse) {
    const from = page.from ?? 0
    const first = from === 0 ? 0 : uids.rank(from - 1)
    for (let i = first; i < uids.size && items.length < want; i++) items.push(uids.select(i)!)
  } else {
    const last = page.from === undefined ? uids.size - 1 : uids.rank(Math.min(page.from, 0xffffffff)) - 1
    for (let i = last; i >= 0 && items.length < want; i--) items.push(uids.select(i)!)
  }
  const next = items.length === want ? items.pop()! : null
  return { items, next }
}
