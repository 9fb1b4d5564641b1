/**
 * The document and settings side of an index batch: applies `documentAdditionOrUpdate`, `documentDeletion` and
 * `settingsUpdate` tasks, in order, to drafts (catalog, documents, settings), and yields the writes of the batch's
 * atomic commit. Any failure fails the whole batch: nothing of it is committed.
 */
import { TesseraError } from '../errors/index.js'
import type { Store, WriteOp } from '../storage/index.js'
import type { CatalogDraft, IndexMeta } from '../indexes/catalog.js'
import type { WorkerPool } from '../pool/index.js'
import { runJob } from '../pool/jobs.js'
import type { Features } from '../features/index.js'
import { INLINE_LIMIT, type PayloadFiles } from '../payload/files.js'
import type { Document } from '../payload/documents.js'
import { applySettingsUpdate, readSettings, settingsUpdateCreatesIndex, settingsWriteOps, type ReindexKind, type Settings } from '../settings/index.js'
import { checkFilterable, matches, parseFilter, type FilterExpression } from '../filter/index.js'
import type { DocumentAddition, Details, Micros, Task } from '../tasks/types.js'
import type { DocumentDraft, DocumentStore } from './store.js'
import { documentId } from './ids.js'
import { canonicalId } from './read.js'
import { decodeDocument, type PreparedChunk } from './prepare.js'
import { FacetDraft, FacetIndex, facetConfig, hasFacets, type FacetConfig } from '../facets/index.js'
import type { FacetStore } from '../facets/index.js'
import { evaluateFilter } from '../facets/filter.js'
import { InvertedDraft, RoaringBitmap32, extractionConfig, type ExtractedChunk, type ExtractionConfig, type InvertedStore } from '../inverted/index.js'

/** Settings changes that change the indexed words: the inverted index is rebuilt from the documents. */
const WORD_REINDEX: ReadonlySet<ReindexKind> = new Set<ReindexKind>(['searchable', 'stopWords', 'separators', 'dictionary', 'localizedAttributes'])
/** Settings changes that change the faceted paths: the facet index is rebuilt from the documents. */
const FACET_REINDEX: ReadonlySet<ReindexKind> = new Set<ReindexKind>(['filterable', 'sortable', 'distinct'])
/** Documents per extraction job when rebuilding. */
const REBUILD_CHUNK = 2000

export interface BatchDeps {
  store: Store
  documents: DocumentStore
  payloads: PayloadFiles
  inverted: InvertedStore
  facets: FacetStore
  pool?: WorkerPool
  features: Features
  draft: CatalogDraft
  now: Micros
}

/** Errors raised while working inside an index carry its name, as Meilisearch's do. */
function inIndex(uid: string, err: unknown): unknown {
  if (err instanceof TesseraError && err.code !== 'index_not_found' && !err.message.startsWith('Index `')) {
    return new TesseraError(err.code, `Index \`${uid}\`: ${err.message}`)
  }
  return err
}

/** Thrown when a cancelation (or shutdown) stops the batch midway. */
export class BatchAborted extends Error {}

export class DocumentBatch {
  /** Document drafts by internal id, with the uid the index had when the draft was made. */
  private readonly drafts = new Map<number, { uid: string; draft: DocumentDraft }>()
  private readonly settings = new Map<number, Settings>()
  private readonly settingUids = new Map<number, string[]>()
  /**
   * The reindexing each index's settings changes require (searchable, filterable, ...). Nothing is derived from
   * settings yet; the search issues apply exactly this work when they add the inverted and facet indexes.
   */
  readonly reindex = new Map<number, Set<ReindexKind>>()
  /** Inverted index drafts by internal id. */
  private readonly words = new Map<number, InvertedDraft>()
  /** Publishes the committed inverted index drafts. */
  private readonly wordApplies: (() => void)[] = []
  /** Facet index drafts by internal id (null: nothing is faceted). */
  private readonly facetDrafts = new Map<number, FacetDraft | null>()
  /** Facet views to publish with the commit. */
  private readonly facetViews = new Map<number, FacetIndex>()
  /** Internal ids left by clears in this batch. */
  private readonly cleared: number[] = []
  /** Their document drafts (writes ahead may still be under way: settled before the commit). */
  private readonly retired: DocumentDraft[] = []
  /** Payload files to remove once the batch is committed. */
  readonly consumedPayloads: string[] = []

  constructor(private readonly deps: BatchDeps & { signal: AbortSignal }) {}

  static handles(task: Task): boolean {
    return task.operation.type === 'documentAdditionOrUpdate' || task.operation.type === 'documentDeletion' || task.operation.type === 'settingsUpdate'
  }

  private docs(meta: IndexMeta): DocumentDraft {
    let d = this.drafts.get(meta.id)
    if (!d) this.drafts.set(meta.id, (d = { uid: meta.uid, draft: this.deps.documents.draft(meta.id) }))
    return d.draft
  }

  /** Whether an internal id is still an index of the draft catalog (not deleted or cleared by this batch). */
  private async wordsDraft(meta: IndexMeta): Promise<InvertedDraft> {
    let d = this.words.get(meta.id)
    if (!d) this.words.set(meta.id, (d = new InvertedDraft(await this.deps.inverted.get(meta.id))))
    return d
  }

  /** The facet draft of an index, null when its settings facet nothing. */
  private async facetsDraft(meta: IndexMeta): Promise<FacetDraft | null> {
    let d = this.facetDrafts.get(meta.id)
    if (d === undefined) {
      const config = facetConfig(this.settingsOf(meta))
      d = hasFacets(config) ? new FacetDraft(await this.deps.facets.get(meta.id, config), config) : null
      this.facetDrafts.set(meta.id, d)
    }
    return d
  }

  private extraction(meta: IndexMeta): ExtractionConfig {
    return extractionConfig(this.settingsOf(meta))
  }

  /** Extract documents' words (in the pool for big sets). */
  private extract(docs: readonly Document[], config: ExtractionConfig): Promise<ExtractedChunk> {
    const text = JSON.stringify(docs)
    return runJob(text.length <= INLINE_LIMIT ? undefined : this.deps.pool, 'extractWords', { docs: text, extraction: config })
  }

  private stillLive(id: number): boolean {
    for (const meta of [...this.drafts.values()].map((d) => this.deps.draft.get(d.uid))) if (meta?.id === id) return true
    for (const uid of this.settingUids.get(id) ?? []) if (this.deps.draft.get(uid)?.id === id) return true
    return false
  }

  private settingsOf(meta: IndexMeta): Settings {
    return this.settings.get(meta.id) ?? readSettings(this.deps.store, meta.id)
  }

  private existing(uid: string): IndexMeta {
    const meta = this.deps.draft.get(uid)
    if (!meta) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
    return meta
  }

  /** Apply one task; returns its details on success, throws on failure. */
  async apply(task: Task): Promise<Details | null> {
    const uid = task.indexUid!
    try {
      const op = task.operation
      if (op.type === 'settingsUpdate') {
        // Updates create a missing index; resets (DELETE routes) fail on one, as Meilisearch's do.
        const meta = settingsUpdateCreatesIndex(op.update) ? this.deps.draft.ensure(uid, null, this.deps.now).meta : this.existing(uid)
        const { settings, reindex } = applySettingsUpdate(this.settingsOf(meta), op.update)
        this.settings.set(meta.id, settings)
        const plan = this.reindex.get(meta.id) ?? new Set<ReindexKind>()
        for (const kind of reindex) plan.add(kind)
        this.reindex.set(meta.id, plan)
        this.settingUids.set(meta.id, [meta.uid])
        return task.details
      }
      if (op.type === 'documentAdditionOrUpdate') return await this.add(uid, op, task.details)
      if (op.type === 'documentDeletion') {
        const meta = this.existing(uid)
        if ('clear' in op) return this.clear(uid, meta, task.details)
        if ('ids' in op) {
          const docs = this.docs(meta)
          const words = await this.wordsDraft(meta)
          const facets = await this.facetsDraft(meta)
          let deleted = 0
          for (const id of op.ids) {
            const ext = canonicalId(id)
            if (facets && ext !== null) {
              const existing = docs.lookup(ext)
              const old = existing === undefined ? undefined : docs.read(existing)
              if (old) facets.remove(existing!, old)
            }
            const docid = ext === null ? undefined : docs.delete(ext)
            if (docid !== undefined) {
              words.remove(docid)
              deleted++
            }
          }
          return { ...task.details, deletedDocuments: deleted }
        }
        return { ...task.details, deletedDocuments: await this.deleteByFilter(meta, op.filter) }
      }
      throw new Error(`not a document operation: ${op.type}`)
    } catch (err) {
      throw inIndex(uid, err)
    }
  }

  private async add(uid: string, op: DocumentAddition, details: Details | null): Promise<Details> {
    let meta = this.deps.draft.get(uid)
    if (!meta) {
      if (!op.allowIndexCreation) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
      meta = this.deps.draft.create(uid, null, this.deps.now)
    }
    if (meta.primaryKey !== null && op.primaryKey !== null && op.primaryKey !== meta.primaryKey && op.method === 'update') {
      throw new TesseraError('index_primary_key_already_exists', `Index already has a primary key: \`${meta.primaryKey}\`.`)
    }
    const source = { ...this.deps.payloads.source(op.payload), format: op.format, csvDelimiter: op.csvDelimiter }
    let primaryKey = meta.primaryKey ?? op.primaryKey
    let received = 0
    const docs = this.docs(meta)
    const words = await this.wordsDraft(meta)
    const facets = await this.facetsDraft(meta)
    const extraction = this.extraction(meta)
    // Chunks are prepared in the pool (parsed, ids read, encoded, words extracted), several at once, while this
    // thread stores the one before. Until the primary key is known, the first chunk (which infers it) goes alone.
    const prepare = (i: number): Promise<PreparedChunk> => {
      const range = op.chunks[i]!
      // Small chunks are prepared here: the hop to a worker would cost more than the work.
      const pool = range[1] - range[0] <= INLINE_LIMIT ? undefined : this.deps.pool
      const prepared = runJob(pool, 'prepareChunk', { ...source, start: range[0], end: range[1], csvHeader: op.csvHeader, primaryKey, extraction })
      // A prefetched chunk may fail while the batch is already failing for another reason: never unhandled.
      prepared.catch(() => {})
      return prepared
    }
    const ahead = (this.deps.pool?.threads ?? 0) + 1
    const inFlight: Promise<PreparedChunk>[] = []
    let sent = 0
    const fill = () => {
      while (sent < op.chunks.length && inFlight.length < ahead && (primaryKey !== null || sent === 0)) inFlight.push(prepare(sent++))
    }
    const names: string[] = []
    try {
      for (fill(); inFlight.length > 0; fill()) {
        if (this.deps.signal.aborted) throw new BatchAborted()
        const chunk = await inFlight.shift()!
        if (chunk.error) throw new TesseraError(chunk.error.code, chunk.error.message)
        if (meta.primaryKey === null && chunk.primaryKey !== null) {
          primaryKey = chunk.primaryKey
          meta = { ...meta, primaryKey, updatedAt: this.deps.now }
          this.deps.draft.put(meta)
        }
        fill()
        const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength)
        const docids: number[] = new Array(chunk.ids.length)
        // Merged updates are extracted again (the payload's words are not the stored document's).
        const merged: { at: number; doc: Document }[] = []
        let from = 0
        let run = 0
        for (let k = 0; k < chunk.ids.length; k++) {
          const ext = chunk.ids[k]!
          const encoded = bytes.subarray(from, (from = chunk.ends[k]!))
          const count = chunk.fields[run]!
          names.length = count
          for (let f = 0; f < count; f++) names[f] = chunk.fieldNames[chunk.fields[run + 1 + f]!]!
          run += count + 1
          // A replaced document's old facet values are taken out (so its old version is read).
          const existing = op.method === 'update' || facets ? docs.lookup(ext) : undefined
          const old = existing === undefined ? undefined : docs.read(existing)
          if (old && facets) facets.remove(existing!, old)
          if (old && op.method === 'update') {
            // Add-or-update replaces top-level fields whole (nested objects are not deep-merged).
            const stored = { ...old, ...decodeDocument(encoded) }
            merged.push({ at: k, doc: stored })
            docids[k] = await docs.put(ext, stored)
            facets?.add(docids[k]!, stored)
          } else {
            docids[k] = await docs.putEncoded(ext, encoded, names)
            facets?.add(docids[k]!, decodeDocument(encoded))
          }
        }
        received += chunk.ids.length
        words.add(docids, chunk.words)
        if (merged.length > 0) words.add(merged.map((m) => docids[m.at]!), await this.extract(merged.map((m) => m.doc), extraction))
        // New documents' forward records go to disk with them, ahead of the final commit.
        for (const docid of docids) {
          const record = words.recordBytes(docid)
          if (record && await docs.writeAhead('positions', docid, record)) words.writtenAhead(docid)
        }
      }
    } catch (err) {
      await Promise.allSettled(inFlight)
      throw err
    }
    if (meta.primaryKey === null && primaryKey !== null) {
      // An empty payload still sets the primary key it names.
      this.deps.draft.put({ ...meta, primaryKey, updatedAt: this.deps.now })
    }
    this.consumedPayloads.push(op.payload)
    return { ...details, receivedDocuments: received, indexedDocuments: received }
  }

  private async deleteByFilter(meta: IndexMeta, filter: unknown): Promise<number> {
    const expr = parseFilter(filter, 'invalid_document_filter')
    if (expr === null) return 0
    checkFilterable(expr, this.settingsOf(meta).filterableAttributes, 'invalid_document_filter', { containsFilter: this.deps.features.isEnabled('containsFilter') })
    const docs = this.docs(meta)
    const facets = await this.facetsDraft(meta)
    // Evaluated on the batch's own state (what its earlier tasks added, replaced or deleted): on the facet draft,
    // or document by document for what facets do not hold (`_vectors` conditions, and any filter when nothing is
    // faceted, which only those can pass the check).
    await docs.flush()
    const live = docs.liveSet()
    const perDocument = (e: FilterExpression) => RoaringBitmap32.from(live.toArray().filter((d) => { const doc = docs.read(d); return doc !== undefined && matches(e, doc) }))
    const doomed: [string, number, Document][] = []
    for (const docid of facets ? evaluateFilter(expr, facets.snapshot(), live, perDocument) : perDocument(expr)) {
      const doc = docs.read(docid)
      if (doc) doomed.push([documentId(doc, meta.primaryKey!), docid, doc])
    }
    const words = await this.wordsDraft(meta)
    for (const [ext, docid, doc] of doomed) {
      if (docs.delete(ext) === undefined) continue
      words.remove(docid)
      facets?.remove(docid, doc)
    }
    return doomed.length
  }

  /** Clearing moves the index to a fresh internal id: the old one's data is dropped as a whole after the commit. */
  private clear(uid: string, meta: IndexMeta, details: Details | null): Details {
    const deleted = this.docs(meta).count
    const settings = this.settingsOf(meta)
    const fresh = this.deps.draft.reassign(uid, this.deps.now)
    this.settings.set(fresh.id, settings)
    this.settingUids.set(fresh.id, [uid])
    // Its staged rows (if any) are dropped with the old id's data after the commit, or by `abandon` before it.
    this.cleared.push(meta.id)
    this.retired.push(this.drafts.get(meta.id)!.draft)
    this.drafts.delete(meta.id)
    this.words.delete(meta.id)
    this.facetDrafts.delete(meta.id)
    return { ...details, deletedDocuments: deleted }
  }

  /** Rebuild the inverted index of an index from all its documents (after a settings change of its words). */
  private async rebuild(meta: IndexMeta): Promise<void> {
    const words = new InvertedDraft(await this.deps.inverted.get(meta.id), true, this.words.get(meta.id))
    this.words.set(meta.id, words)
    const config = this.extraction(meta)
    const pending: Promise<void>[] = []
    let ids: number[] = []
    let batch: Document[] = []
    const send = () => {
      const chunkIds = ids
      const extracted = this.extract(batch, config)
      extracted.catch(() => {})
      // Results are added in order: each waits for the previous one.
      const previous = pending[pending.length - 1]
      pending.push((async () => { const chunk = await extracted; await previous; words.add(chunkIds, chunk) })())
      ids = []
      batch = []
    }
    for await (const [, docid, doc] of this.docs(meta).scan()) {
      if (this.deps.signal.aborted) throw new BatchAborted()
      ids.push(docid)
      batch.push(doc)
      if (batch.length >= REBUILD_CHUNK) {
        send()
        // Keep at most a few chunks in flight.
        if (pending.length >= 4) await pending[pending.length - 4]
      }
    }
    if (batch.length > 0) send()
    await Promise.all(pending)
  }

  /** Rebuild the facet index of an index from all its documents (after a settings change of its faceted set). */
  private async rebuildFacets(meta: IndexMeta, config: FacetConfig): Promise<void> {
    const draft = new FacetDraft(new FacetIndex(config), config)
    if (hasFacets(config)) {
      for await (const [, docid, doc] of this.docs(meta).scan()) {
        if (this.deps.signal.aborted) throw new BatchAborted()
        draft.add(docid, doc)
      }
    }
    this.facetDrafts.set(meta.id, draft)
  }

  /** Flush staged documents; then the writes of the final commit. */
  async finalOps(): Promise<WriteOp[]> {
    const ops: WriteOp[] = []
    for (const [id, plan] of this.reindex) {
      if (!this.stillLive(id)) continue
      const uid = this.settingUids.get(id)?.[0]
      const meta = uid === undefined ? undefined : this.deps.draft.get(uid)
      if (meta?.id !== id) continue
      if ([...plan].some((k) => WORD_REINDEX.has(k))) await this.rebuild(meta)
      const config = facetConfig(this.settingsOf(meta))
      const draft = this.facetDrafts.get(id)
      if ([...plan].some((k) => FACET_REINDEX.has(k)) && draft?.config.signature !== config.signature) await this.rebuildFacets(meta, config)
    }
    for (const [id, draft] of this.facetDrafts) if (draft && this.stillLive(id)) this.facetViews.set(id, draft.result())
    for (const draft of this.retired) await draft.settle()
    for (const [id, { draft }] of this.drafts) {
      if (!this.stillLive(id)) {
        await draft.settle()
        continue
      }
      await draft.flush()
      for (const op of draft.finalOps()) ops.push(op)
    }
    for (const [id, words] of this.words) {
      if (!this.stillLive(id) || words.touched === 0 && !words.full) continue
      const { ops: wordOps, apply } = words.finalize()
      for (const op of wordOps) ops.push(op)
      this.wordApplies.push(apply)
    }
    for (const [id, settings] of this.settings) if (this.stillLive(id)) for (const op of settingsWriteOps(id, settings)) ops.push(op)
    return ops
  }

  publish(): void {
    for (const apply of this.wordApplies) apply()
    for (const [id, view] of this.facetViews) this.deps.facets.publish(id, view)
    for (const [id, { draft }] of this.drafts) {
      if (this.stillLive(id)) this.deps.documents.publish(draft)
      else this.deps.documents.forget(id)
    }
  }

  /** The batch will not be committed: drop what it staged. */
  async abandon(): Promise<void> {
    // Writes ahead still under way would land after the drop: wait for them first.
    for (const draft of [...this.retired, ...[...this.drafts.values()].map((d) => d.draft)]) await draft.settle()
    for (const id of [...this.drafts.keys(), ...this.cleared]) await this.deps.documents.dropStaged(id)
  }
}
