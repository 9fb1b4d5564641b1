/**
 * The document store. Per index (keyed by its internal id): documents under internal document ids (u32, in
 * insertion order), external id → internal id, and a state record (live ids bitmap, next id, field distribution,
 * raw size). Readers use the published state only.
 *
 * A batch edits a `DocumentDraft`. New documents get fresh internal ids and are written ("staged") in chunks as
 * the batch goes, so a huge payload never sits in memory whole; they are invisible until the batch's final atomic
 * commit adds them to the live set and maps their external ids. Replaced, updated and deleted documents are
 * written in that final commit. A crash or an abandoned batch leaves staged rows above the committed `nextDocId`;
 * `dropStaged` removes them.
 */
import roaring from '../util/roaring.js'
import { Store, WriteBuffer, keys, encode, decode, type WriteOp } from '../storage/index.js'
import type { Document } from '../payload/documents.js'
import { decodeDocument, encodeDocument, topLevelFields } from './prepare.js'
import { frozenShared } from '../util/frozen-bitmap.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

export interface DocState {
  nextDocId: number
  /** Frozen in shared memory (never changed: a draft clones it). */
  live: Bitmap
  /** `live`'s frozen bytes, for readers on other threads (`frozenView`, util/frozen-bitmap.ts). */
  liveBytes: Uint8Array
  /** Top-level field → number of documents that have it. */
  fields: Map<string, number>
  /** Bytes of all stored documents. */
  rawSize: number
}

interface StoredState {
  nextDocId: number
  live: Uint8Array
  fields: [string, number][]
  rawSize: number
}

const stateKey = (indexId: number) => keys.indexKey(indexId)
const docKey = (indexId: number, docid: number) => keys.indexKey(indexId, keys.u32(docid))
const extKey = (indexId: number, ext: string) => keys.indexKey(indexId, ext)

/**
 * Columns with rows keyed by internal document id that a batch writes ahead for its new documents: the documents,
 * and their forward records (see `DocumentDraft.writeAhead`).
 */
const WRITTEN_AHEAD = ['documents', 'positions'] as const

/** Staged rows are written once this many bytes wait. */
const STAGE_FLUSH_BYTES = 8 << 20
/** Writes of staged rows under way at once (the thread staging more waits beyond that). */
const MAX_WRITES_AHEAD = 2

export class DocumentStore {
  private readonly states = new Map<number, DocState>()

  constructor(private readonly store: Store) {}

  state(indexId: number): DocState {
    let state = this.states.get(indexId)
    if (!state) {
      const raw = this.store.get('documents', stateKey(indexId))
      if (raw) {
        const s = decode<StoredState>(raw)
        const live = frozenShared(RoaringBitmap32.deserialize(Buffer.from(s.live), 'portable'))
        state = { nextDocId: s.nextDocId, live: live.bitmap, liveBytes: live.bytes, fields: new Map(s.fields), rawSize: s.rawSize }
      } else {
        const live = frozenShared(new RoaringBitmap32())
        state = { nextDocId: 0, live: live.bitmap, liveBytes: live.bytes, fields: new Map(), rawSize: 0 }
      }
      this.states.set(indexId, state)
    }
    return state
  }

  count(indexId: number): number {
    return this.state(indexId).live.size
  }

  /** The published document with this external id. */
  get(indexId: number, ext: string): Document | undefined {
    const raw = this.store.get('externalIds', extKey(indexId, ext))
    if (!raw) return undefined
    const docid = keys.readU32(raw)
    if (!this.state(indexId).live.has(docid)) return undefined
    const doc = this.store.get('documents', docKey(indexId, docid))
    return doc ? decodeDocument(doc) : undefined
  }

  /** Published documents by internal id, in that order. */
  getMany(indexId: number, docids: number[]): Document[] {
    return this.store.getMany('documents', docids.map((d) => docKey(indexId, d))).flatMap((raw) => (raw ? [decodeDocument(raw)] : []))
  }

  /** Published documents by internal id as stored (JSON text), in that order, leaving out ids without one. */
  getManyStored(indexId: number, docids: number[]): Buffer[] {
    return this.store.getMany('documents', docids.map((d) => docKey(indexId, d))).filter((raw): raw is Buffer => raw !== undefined)
  }

  /** Internal ids of live documents, `offset`/`limit` in insertion order. */
  page(indexId: number, offset: number, limit: number): number[] {
    return selectRange(this.state(indexId).live, offset, limit)
  }

  /** Every live document in insertion order, read in chunks. */
  async *scan(indexId: number): AsyncGenerator<[number, Document]> {
    const live = this.state(indexId).live
    const range = keys.indexRange(indexId)
    for await (const [key, value] of this.store.scan('documents', { gte: docKey(indexId, 0), lt: range.lt })) {
      const docid = keys.readU32(key, 4)
      if (live.has(docid)) yield [docid, decodeDocument(value)]
    }
  }

  draft(indexId: number): DocumentDraft {
    return new DocumentDraft(this.store, indexId, this.state(indexId))
  }

  /** Make a committed draft visible (synchronously: readers see all of it or none). */
  publish(draft: DocumentDraft): void {
    this.states.set(draft.indexId, draft.result())
  }

  /** Forget the cached state of an index whose data is gone. */
  forget(indexId: number): void {
    this.states.delete(indexId)
  }

  /**
   * Drop staged rows left above the committed state (after a crash or an abandoned batch): the id mappings written
   * ahead (to internal ids from the committed `nextDocId` on, which later batches reuse), then the rows keyed by
   * those internal ids, documents last. Nothing is done unless staged documents remain (a staged row's document
   * is written no later than the row, and is dropped after it), so an index that staged nothing costs one seek,
   * and an interrupted drop is resumed at the next start.
   */
  async dropStaged(indexId: number): Promise<void> {
    const committed = this.store.get('documents', stateKey(indexId))
    const next = committed ? decode<StoredState>(committed).nextDocId : 0
    this.states.delete(indexId)
    const staged = { gte: docKey(indexId, next), lt: keys.indexRange(indexId).lt }
    let any = false
    for await (const _ of this.store.scan('documents', { ...staged, limit: 1 })) any = true
    if (!any) return
    let doomed: WriteOp[] = []
    for await (const [key, value] of this.store.scan('externalIds', keys.indexRange(indexId))) {
      if (keys.readU32(value) < next) continue
      doomed.push({ column: 'externalIds', key })
      if (doomed.length >= 10_000) { await this.store.commit(doomed); doomed = [] }
    }
    await this.store.commit(doomed)
    // The documents go last: while any is left, the next start drops the rest.
    for (const column of [...WRITTEN_AHEAD].reverse()) await this.store.clearRange(column, staged.gte, staged.lt)
  }

  /** Drop every row of internal ids from `firstUnused` on (rows a crashed batch wrote ahead for an index it created). */
  async dropUnusedIds(firstUnused: number): Promise<void> {
    const from = keys.u32(firstUnused)
    const to = Buffer.alloc(5, 0xff)
    for (const column of [...WRITTEN_AHEAD, 'externalIds'] as const) await this.store.clearRange(column, from, to)
  }

  /** Internal id → external id lookups (published view). */
  docidOf(indexId: number, ext: string): number | undefined {
    const raw = this.store.get('externalIds', extKey(indexId, ext))
    if (!raw) return undefined
    const docid = keys.readU32(raw)
    return this.state(indexId).live.has(docid) ? docid : undefined
  }
}

/** The ids at ranks `offset .. offset+limit` of a bitmap, ascending (internal ids: insertion order). */
export function selectRange(ids: Bitmap, offset: number, limit: number): number[] {
  const out: number[] = []
  for (let i = offset; i < ids.size && out.length < limit; i++) out.push(ids.select(i)!)
  return out
}

export class DocumentDraft {
  private readonly live: Bitmap
  private nextDocId: number
  private readonly fields: Map<string, number>
  private rawSize: number
  /** External ids whose documents this batch deletes (their mappings go in the final commit). */
  private readonly ext = new Map<string, null>()
  /** Mappings of ids this batch deleted then added again, for the final commit (see `putEncoded`). */
  private readonly deferredExt = new Map<string, number>()
  /** External id → internal id of the documents this batch added (flushed or not). */
  private readonly stagedExt = new Map<string, number>()
  /** New versions of documents that were live before the batch (written in the final commit). */
  private readonly rewritten = new Map<number, Buffer | null>()
  /** Staged new documents not yet flushed. */
  private readonly staged = new WriteBuffer()
  /** The documents in `staged` (their rows are read from memory until written). */
  private stagedDocids: number[] = []
  private stagedDocs: Buffer[] = []
  /** Writes of staged rows under way, oldest first. */
  private writing: Promise<void>[] = []
  private readonly stagedInMemory = new Map<number, Buffer>()
  private readonly liveBefore: Bitmap

  /** Internal ids from this one on were never committed: their rows can be written ahead. */
  private readonly firstNew: number

  constructor(private readonly store: Store, readonly indexId: number, base: DocState) {
    this.firstNew = base.nextDocId
    this.live = base.live.clone()
    this.liveBefore = base.live
    this.nextDocId = base.nextDocId
    this.fields = new Map(base.fields)
    this.rawSize = base.rawSize
  }

  get count(): number {
    return this.live.size
  }

  /** The index's top-level fields in the order they first appeared (document templates list `fields` in it). */
  fieldNames(): string[] {
    return [...this.fields.keys()]
  }

  lookup(ext: string): number | undefined {
    if (this.ext.has(ext)) return this.ext.get(ext) ?? undefined
    const staged = this.stagedExt.get(ext)
    if (staged !== undefined) return staged
    // Nothing was live before the batch, and what the batch added is in `stagedExt`: no read needed (the first
    // load of an index is one read per document faster).
    if (this.liveBefore.isEmpty) return undefined
    const raw = this.store.get('externalIds', extKey(this.indexId, ext))
    if (!raw) return undefined
    const docid = keys.readU32(raw)
    return this.live.has(docid) ? docid : undefined
  }

  private readEncoded(docid: number): Buffer | undefined {
    if (this.rewritten.has(docid)) return this.rewritten.get(docid) ?? undefined
    return this.stagedInMemory.get(docid) ?? this.store.get('documents', docKey(this.indexId, docid))
  }

  read(docid: number): Document | undefined {
    const raw = this.readEncoded(docid)
    return raw ? decodeDocument(raw) : undefined
  }

  private account(fields: readonly string[], size: number, sign: 1 | -1): void {
    this.rawSize += sign * size
    for (const f of fields) {
      const n = (this.fields.get(f) ?? 0) + sign
      if (n > 0) this.fields.set(f, n)
      else this.fields.delete(f)
    }
  }

  /** Take the stored version of a document out of the field distribution and raw size. */
  private unaccount(docid: number): void {
    const old = this.readEncoded(docid)
    if (old) this.account(topLevelFields(decodeDocument(old)), old.byteLength, -1)
  }

  /** Store `doc` under `ext`, replacing any previous version; returns its internal id. */
  put(ext: string, doc: Document): Promise<number> {
    return this.putEncoded(ext, encodeDocument(doc), topLevelFields(doc))
  }

  /** `put` of a document already encoded (see documents/prepare.ts), with its top-level fields. */
  async putEncoded(ext: string, encoded: Buffer, fields: readonly string[]): Promise<number> {
    const existing = this.lookup(ext)
    if (existing !== undefined) {
      // The new version counted first: a field both versions have keeps its place in the index's field order.
      this.account(fields, encoded.byteLength, 1)
      this.unaccount(existing)
      // Held until the final commit: a copy, not a view that would keep the whole prepared chunk alive.
      if (this.liveBefore.has(existing)) this.rewritten.set(existing, Buffer.from(encoded))
      else await this.stage(existing, encoded)
      return existing
    }
    // A new document's id mapping is written ahead with it: readers only follow a mapping to a live document, and
    // the document becomes live with the batch's commit. So the final commit stays small however many new
    // documents the batch adds.
    const docid = this.nextDocId++
    this.live.add(docid)
    this.account(fields, encoded.byteLength, 1)
    // Deleted earlier in this batch and added again: its published mapping may still serve readers (and must
    // survive a failed batch), so the new one waits for the final commit instead of being written ahead.
    if (this.ext.delete(ext)) this.deferredExt.set(ext, docid)
    else this.staged.put('externalIds', this.indexId, ext, docid)
    this.stagedExt.set(ext, docid)
    await this.stage(docid, encoded)
    return docid
  }

  private async stage(docid: number, encoded: Buffer): Promise<void> {
    this.staged.put('documents', this.indexId, docid, encoded)
    this.stagedInMemory.set(docid, encoded)
    this.stagedDocids.push(docid)
    this.stagedDocs.push(encoded)
    if (this.staged.length >= STAGE_FLUSH_BYTES) await this.startWrites()
  }

  /**
   * Start writing the staged rows, without waiting for them unless `MAX_WRITES_AHEAD` writes are already under
   * way. They are not synced: they are unreachable until the final commit, whose sync makes them durable too (the
   * write-ahead log is one sequential file).
   */
  private async startWrites(): Promise<void> {
    if (this.staged.length > 0) {
      const docids = this.stagedDocids
      const docs = this.stagedDocs
      this.stagedDocids = []
      this.stagedDocs = []
      const written = this.store.commit(this.staged, { sync: false }).then(() => {
        // Staged rows are read from memory until written (unless staged again since, or deleted).
        for (let k = 0; k < docids.length; k++) if (this.stagedInMemory.get(docids[k]!) === docs[k]) this.stagedInMemory.delete(docids[k]!)
      })
      // Awaited below or by `flush`: never unhandled meanwhile.
      written.catch(() => {})
      this.writing.push(written)
    }
    while (this.writing.length > MAX_WRITES_AHEAD) await this.writing.shift()
  }

  /**
   * Stage a row of another column keyed by a new document's internal id (its forward record, say), written ahead
   * with the documents and dropped with them if the batch is not committed. False when `docid` is not new: the
   * caller writes that row in the final commit instead.
   */
  async writeAhead(column: (typeof WRITTEN_AHEAD)[number], docid: number, value: Buffer): Promise<boolean> {
    if (docid < this.firstNew) return false
    this.staged.put(column, this.indexId, docid, value)
    if (this.staged.length >= STAGE_FLUSH_BYTES) await this.startWrites()
    return true
  }

  /** Wait until no write of staged rows is under way (failed ones included: for a batch being abandoned). */
  async settle(): Promise<void> {
    const writing = this.writing
    this.writing = []
    await Promise.allSettled(writing)
  }

  /** Write every staged row, and wait until all are written (invisible until the final commit). */
  async flush(): Promise<void> {
    await this.startWrites()
    while (this.writing.length > 0) await this.writing.shift()
  }

  /** Delete the document with this external id; returns its internal id, undefined when there is none. */
  delete(ext: string): number | undefined {
    const docid = this.lookup(ext)
    if (docid === undefined) return undefined
    this.unaccount(docid)
    this.ext.set(ext, null)
    this.deferredExt.delete(ext)
    this.live.remove(docid)
    this.rewritten.set(docid, null)
    this.stagedInMemory.delete(docid)
    return docid
  }

  /** Every document of the draft in insertion order (staged ones flushed first, rewritten ones as rewritten). */
  async *scan(): AsyncGenerator<[string | null, number, Document]> {
    await this.flush()
    const range = keys.indexRange(this.indexId)
    for await (const [key, value] of this.store.scan('documents', { gte: docKey(this.indexId, 0), lt: range.lt })) {
      const docid = keys.readU32(key, 4)
      if (!this.live.has(docid)) continue
      const rewritten = this.rewritten.get(docid)
      yield [null, docid, decodeDocument(rewritten ?? value)]
    }
  }

  /** A copy of the draft's live set. */
  liveSet(): Bitmap {
    return this.live.clone()
  }

  /** The writes that make the draft durable and visible, for the batch's atomic commit (after `flush`). */
  finalOps(): WriteOp[] {
    if (this.staged.length > 0) throw new Error('finalOps before flush')
    const ops: WriteOp[] = []
    for (const ext of this.ext.keys()) ops.push({ column: 'externalIds', key: extKey(this.indexId, ext) })
    for (const [ext, docid] of this.deferredExt) ops.push({ column: 'externalIds', key: extKey(this.indexId, ext), value: keys.u32(docid) })
    for (const [docid, encoded] of this.rewritten) {
      ops.push(encoded === null ? { column: 'documents', key: docKey(this.indexId, docid) } : { column: 'documents', key: docKey(this.indexId, docid), value: encoded })
    }
    const state: StoredState = { nextDocId: this.nextDocId, live: this.live.serialize('portable'), fields: [...this.fields], rawSize: this.rawSize }
    ops.push({ column: 'documents', key: stateKey(this.indexId), value: encode(state) })
    return ops
  }

  result(): DocState {
    const live = frozenShared(this.live)
    return { nextDocId: this.nextDocId, live: live.bitmap, liveBytes: live.bytes, fields: this.fields, rawSize: this.rawSize }
  }
}
