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
import { checkFilterable, matches, parseFilter } from '../filter/index.js'
import type { DocumentAddition, Details, Micros, Task } from '../tasks/types.js'
import type { DocumentDraft, DocumentStore } from './store.js'
import { documentId, inferPrimaryKey } from './ids.js'
import { canonicalId } from './read.js'
import { validateVectors } from './vectors.js'

export interface BatchDeps {
  store: Store
  documents: DocumentStore
  payloads: PayloadFiles
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
  /** Internal ids left by clears in this batch. */
  private readonly cleared: number[] = []
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
          let deleted = 0
          for (const id of op.ids) {
            const ext = canonicalId(id)
            if (ext !== null && docs.delete(ext)) deleted++
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
    const source = { path: this.deps.payloads.path(op.payload), format: op.format, csvDelimiter: op.csvDelimiter }
    let primaryKey = meta.primaryKey
    let received = 0
    const docs = this.docs(meta)
    // The next chunk is parsed in the pool while this thread stores the current one.
    const parse = (i: number): Promise<Document[]> | null => {
      const range = op.chunks[i]
      if (!range) return null
      // Small chunks are parsed here: the hop to a worker would cost more than the parse.
      const pool = range[1] - range[0] <= INLINE_LIMIT ? undefined : this.deps.pool
      const parsed = runJob(pool, 'parsePayloadChunk', { ...source, start: range[0], end: range[1], csvHeader: op.csvHeader }).then((text) => JSON.parse(text) as Document[])
      // A prefetched chunk may fail while the batch is already failing for another reason: never unhandled.
      parsed.catch(() => {})
      return parsed
    }
    let next = parse(0)
    for (let i = 0; next !== null; i++) {
      const pending = next
      next = parse(i + 1)
      if (this.deps.signal.aborted) {
        await Promise.allSettled([pending, next])
        throw new BatchAborted()
      }
      const chunk = await pending
      for (const doc of chunk) {
        if (primaryKey === null) {
          primaryKey = op.primaryKey ?? inferPrimaryKey(doc)
          meta = { ...meta, primaryKey, updatedAt: this.deps.now }
          this.deps.draft.put(meta)
        }
        const ext = documentId(doc, primaryKey)
        validateVectors(doc, ext)
        if (op.method === 'update') {
          const existing = docs.lookup(ext)
          const old = existing === undefined ? undefined : docs.read(existing)
          // Add-or-update replaces top-level fields whole (nested objects are not deep-merged).
          await docs.put(ext, old ? { ...old, ...doc } : doc)
        } else {
          await docs.put(ext, doc)
        }
        received++
      }
    }
    if (primaryKey === null && op.primaryKey !== null) {
      // An empty payload still sets the primary key it names.
      this.deps.draft.put({ ...meta, primaryKey: op.primaryKey, updatedAt: this.deps.now })
    }
    this.consumedPayloads.push(op.payload)
    return { ...details, receivedDocuments: received, indexedDocuments: received }
  }

  private async deleteByFilter(meta: IndexMeta, filter: unknown): Promise<number> {
    const expr = parseFilter(filter, 'invalid_document_filter')
    if (expr === null) return 0
    checkFilterable(expr, this.settingsOf(meta).filterableAttributes, 'invalid_document_filter', { containsFilter: this.deps.features.isEnabled('containsFilter') })
    const docs = this.docs(meta)
    // Only the ids of matching documents are kept, not the documents.
    const doomed: string[] = []
    for await (const [, , doc] of docs.scan()) if (matches(expr, doc)) doomed.push(documentId(doc, meta.primaryKey!))
    for (const ext of doomed) docs.delete(ext)
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
    this.drafts.delete(meta.id)
    return { ...details, deletedDocuments: deleted }
  }

  /** Flush staged documents; then the writes of the final commit. */
  async finalOps(): Promise<WriteOp[]> {
    const ops: WriteOp[] = []
    for (const [id, { draft }] of this.drafts) {
      if (!this.stillLive(id)) continue
      await draft.flush()
      for (const op of draft.finalOps()) ops.push(op)
    }
    for (const [id, settings] of this.settings) if (this.stillLive(id)) for (const op of settingsWriteOps(id, settings)) ops.push(op)
    return ops
  }

  publish(): void {
    for (const [id, { draft }] of this.drafts) {
      if (this.stillLive(id)) this.deps.documents.publish(draft)
      else this.deps.documents.forget(id)
    }
  }

  /** The batch will not be committed: drop what it staged. */
  async abandon(): Promise<void> {
    for (const id of [...this.drafts.keys(), ...this.cleared]) await this.deps.documents.dropStaged(id)
  }
}
