/**
 * The index catalog: every index's uid, internal id, primary key and dates. Held in memory, persisted in the
 * `indexes` column family. A batch edits a draft; the scheduler commits the draft's writes and then publishes
 * it, so readers never see a half-applied batch.
 */
import { Store, keys, encode, decode, type WriteOp } from '../storage/index.js'
import type { Micros } from '../tasks/types.js'
import { formatMicros } from '../tasks/time.js'

export interface IndexMeta {
  uid: string
  /** Internal id: the prefix of all of this index's keys. Never reused. */
  id: number
  primaryKey: string | null
  createdAt: Micros
  updatedAt: Micros
}

export interface IndexView {
  uid: string
  createdAt: string
  updatedAt: string
  primaryKey: string | null
}

export function indexView(meta: IndexMeta): IndexView {
  return { uid: meta.uid, createdAt: formatMicros(meta.createdAt), updatedAt: formatMicros(meta.updatedAt), primaryKey: meta.primaryKey }
}

const NEXT_INDEX_ID = keys.utf8('nextIndexId')
const GARBAGE_PREFIX = 'garbage/'

export class IndexCatalog {
  private byUid: Map<string, IndexMeta>
  private nextId: number
  private readonly droppedListeners: ((ids: readonly number[]) => void)[] = []

  private constructor(byUid: Map<string, IndexMeta>, nextId: number) {
    this.byUid = byUid
    this.nextId = nextId
  }

  static async load(store: Store): Promise<IndexCatalog> {
    const byUid = new Map<string, IndexMeta>()
    for await (const [, value] of store.scan('indexes')) {
      const meta = decode<IndexMeta>(value)
      byUid.set(meta.uid, meta)
    }
    const raw = store.get('meta', NEXT_INDEX_ID)
    return new IndexCatalog(byUid, raw ? keys.readU32(raw) : 1)
  }

  get(uid: string): IndexMeta | undefined {
    return this.byUid.get(uid)
  }

  has(uid: string): boolean {
    return this.byUid.has(uid)
  }

  /** All indexes, sorted by uid. */
  list(): IndexMeta[] {
    return [...this.byUid.values()].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0))
  }

  /** The first internal id no committed index has used. */
  get nextUnusedId(): number {
    return this.nextId
  }

  get size(): number {
    return this.byUid.size
  }

  /** A draft costs nothing up front: it records its changes over the published catalog (copy on write). */
  draft(): CatalogDraft {
    return new CatalogDraft(this.byUid, this.nextId)
  }

  /** Apply a committed draft; synchronous, so readers see all of it or none of it. */
  publish(draft: CatalogDraft): void {
    for (const [uid, meta] of draft.changes) {
      if (meta === null) this.byUid.delete(uid)
      else this.byUid.set(uid, meta)
    }
    this.nextId = draft.nextId
    if (draft.garbage.length > 0) for (const listener of this.droppedListeners) listener(draft.garbage)
  }

  /**
   * Be told the internal ids a published draft made unreachable (deleted indexes, and those a clear moved to a
   * fresh id), once per publish: holders of per-index state outside the engine's stores (the search threads' views)
   * let it go then. Renames and swaps keep the internal id.
   */
  onDropped(listener: (ids: readonly number[]) => void): void {
    this.droppedListeners.push(listener)
  }
}

/**
 * The catalog as a batch changes it: its changes over the published catalog, and the writes that make them
 * durable. Later issues create indexes implicitly (document additions, settings) through `ensure`.
 */
export class CatalogDraft {
  readonly ops: WriteOp[] = []
  /** Internal ids whose data became unreachable: their key ranges are dropped after the commit. */
  readonly garbage: number[] = []
  /** uid → new metadata, or null when the uid is gone. */
  readonly changes = new Map<string, IndexMeta | null>()

  constructor(private readonly base: ReadonlyMap<string, IndexMeta>, public nextId: number) {}

  get(uid: string): IndexMeta | undefined {
    if (this.changes.has(uid)) return this.changes.get(uid) ?? undefined
    return this.base.get(uid)
  }

  /** The index named `uid`, created (with `primaryKey`) when it does not exist yet. */
  ensure(uid: string, primaryKey: string | null, at: Micros): { meta: IndexMeta; created: boolean } {
    const existing = this.get(uid)
    if (existing) return { meta: existing, created: false }
    return { meta: this.create(uid, primaryKey, at), created: true }
  }

  create(uid: string, primaryKey: string | null, at: Micros): IndexMeta {
    const meta: IndexMeta = { uid, id: this.nextId++, primaryKey, createdAt: at, updatedAt: at }
    this.ops.push({ column: 'meta', key: NEXT_INDEX_ID, value: keys.u32(this.nextId) })
    this.put(meta)
    return meta
  }

  put(meta: IndexMeta): void {
    this.changes.set(meta.uid, meta)
    this.ops.push({ column: 'indexes', key: keys.utf8(meta.uid), value: encode(meta) })
  }

  delete(uid: string): void {
    const meta = this.get(uid)
    if (!meta) return
    this.changes.set(uid, null)
    this.ops.push({ column: 'indexes', key: keys.utf8(uid) })
    this.ops.push({ column: 'meta', key: keys.utf8(GARBAGE_PREFIX + meta.id), value: keys.u32(meta.id) })
    this.garbage.push(meta.id)
  }

  /** Move the index to a fresh internal id (an empty index with the same metadata); the old data is dropped. */
  reassign(uid: string, at: Micros): IndexMeta {
    const meta = this.get(uid)!
    const fresh: IndexMeta = { ...meta, id: this.nextId++, updatedAt: at }
    this.ops.push({ column: 'meta', key: NEXT_INDEX_ID, value: keys.u32(this.nextId) })
    this.ops.push({ column: 'meta', key: keys.utf8(GARBAGE_PREFIX + meta.id), value: keys.u32(meta.id) })
    this.garbage.push(meta.id)
    this.put(fresh)
    return fresh
  }

  /** Give `meta` a new uid; its data stays where it is, under its internal id. */
  rename(meta: IndexMeta, newUid: string, at: Micros): IndexMeta {
    this.changes.set(meta.uid, null)
    this.ops.push({ column: 'indexes', key: keys.utf8(meta.uid) })
    const renamed = { ...meta, uid: newUid, updatedAt: at }
    this.put(renamed)
    return renamed
  }
}

/** Internal ids whose ranges still have to be dropped (a crash after the commit leaves them behind). */
export async function pendingGarbage(store: Store): Promise<number[]> {
  const ids: number[] = []
  const prefix = keys.utf8(GARBAGE_PREFIX)
  for await (const [, value] of store.scan('meta', { gte: prefix, lt: keys.utf8('garbage0') })) ids.push(keys.readU32(value))
  return ids
}

export function garbageDone(id: number): WriteOp {
  return { column: 'meta', key: keys.utf8(GARBAGE_PREFIX + id) }
}
