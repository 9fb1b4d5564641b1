/**
 * The document and settings side of an index batch: applies `documentAdditionOrUpdate`, `documentDeletion` and
 * `settingsUpdate` tasks, in order, to drafts (documents, settings, the inverted and facet indexes) of the batch's
 * catalog draft, and yields the writes of the batch's atomic commit. Any failure fails the whole batch: nothing of
 * it is committed. What each kind of task does is in its own file (additions.ts, deletions.ts, edition.ts,
 * settings.ts, reindex.ts); this file holds the drafts they share and the commit protocol's three steps (`finalOps`,
 * `publish`, `abandon`).
 */
import { TesseraError, indexNotFound } from '../errors/index.js'
import type { Store, Write } from '../storage/index.js'
import type { CatalogDraft, IndexMeta } from '../indexes/catalog.js'
import type { WorkerPool } from '../pool/index.js'
import { runJob } from '../pool/jobs.js'
import type { Features } from '../features/index.js'
import { INLINE_LIMIT, type PayloadFiles } from '../payload/files.js'
import type { Document } from '../payload/documents.js'
import { readSettings, settingsWriteOps, type ReindexKind, type Settings } from '../settings/index.js'
import type { Details, Micros, Task } from '../tasks/types.js'
import { DOCUMENT_DELETION, DOCUMENT_EDITION, SETTINGS, VECTORS, type Progress } from '../tasks/progress.js'
import type { DocumentDraft, DocumentStore } from '../documents/store.js'
import { FacetDraft, FacetIndex, facetConfig, hasFacets } from '../facets/index.js'
import type { FacetStore } from '../facets/index.js'
import { InvertedDraft, extractionConfig, type ExtractedChunk, type ExtractionConfig, type InvertedStore } from '../inverted/index.js'
import { addDocuments } from './additions.js'
import { allIds, clearDocuments, deleteByFilter, deleteByIds } from './deletions.js'
import { applySettings } from './settings.js'
import { editDocuments } from './edition.js'
import { reindex } from './reindex.js'
import type { VectorStore } from '../vectors/store.js'
import type { VectorDraft } from '../vectors/draft.js'
import type { GraphBuildInput } from '../vectors/graph-build.js'
import type { EmbedderRequests } from '../embedders/index.js'

export interface BatchDeps {
  store: Store
  documents: DocumentStore
  payloads: PayloadFiles
  inverted: InvertedStore
  facets: FacetStore
  vectors: VectorStore
  pool?: WorkerPool
  features: Features
  /** Sharding (cluster mode): an addition keeps only the documents whose id this answers true for; null keeps all. */
  keepsDocument?: ((id: string) => boolean) | null
  /**
   * Cluster mode: documents (by id) this batch's document tasks leave as they are (a shard move fetched them with
   * these tasks' effects already applied, scheduler/settled-documents.ts); null or absent: none.
   */
  untouched?: ((id: string) => boolean) | null
  draft: CatalogDraft
  now: Micros
  /** Aborted by a cancelation of one of the batch's tasks (or a shutdown). */
  signal: AbortSignal
  /** What the batch is doing, updated as tasks are applied. */
  progress?: Progress
  /** Documents received by the batch's additions (all of them: their progress is counted together). */
  receivedDocuments?: number
}

/** Thrown when a cancelation (or shutdown) stops the batch midway. */
export class BatchAborted extends Error {}

/** Errors raised while working inside an index carry its name, as Meilisearch's do. */
export function inIndex(uid: string, err: unknown): unknown {
  if (err instanceof TesseraError && err.code !== 'index_not_found' && !err.message.startsWith('Index `')) {
    return new TesseraError(err.code, `Index \`${uid}\`: ${err.message}`)
  }
  return err
}

export class IndexBatch {
  /** Document drafts by internal id, with the uid the index had when the draft was made. */
  private readonly drafts = new Map<number, { uid: string; draft: DocumentDraft }>()
  /** Settings changed by the batch, by internal id, and the uids they were set under. */
  readonly settings = new Map<number, Settings>()
  readonly settingUids = new Map<number, string[]>()
  /** The reindexing each index's settings changes require (searchable, filterable, ...), done before the commit. */
  readonly reindex = new Map<number, Set<ReindexKind>>()
  /** Inverted index drafts by internal id. */
  readonly words = new Map<number, InvertedDraft>()
  /** Publishes the committed inverted index drafts. */
  private readonly wordApplies: (() => void)[] = []
  /** Facet index drafts by internal id (null: nothing is faceted). */
  readonly facetDrafts = new Map<number, FacetDraft | null>()
  /** Facet views to publish with the commit. */
  private readonly facetViews = new Map<number, FacetIndex>()
  /** Vector drafts by internal id. */
  readonly vectorDrafts = new Map<number, VectorDraft>()
  /** Internal ids left by clears in this batch. */
  private readonly cleared: number[] = []
  /** Their document drafts (writes ahead may still be under way: settled before the commit). */
  private readonly retired: DocumentDraft[] = []
  /** Payload files to remove once the batch is committed. */
  readonly consumedPayloads: string[] = []
  /** Requests sent to embedders by the batch, all embedders together (the batch's `stats.embedderRequests`). */
  readonly embedderRequests: EmbedderRequests = { total: 0, failed: 0, lastError: null }

  constructor(readonly deps: BatchDeps) {}

  static handles(task: Task): boolean {
    const type = task.operation.type
    return type === 'documentAdditionOrUpdate' || type === 'documentDeletion' || type === 'documentEdition' || type === 'settingsUpdate'
  }

  countEmbedderRequests(requests: EmbedderRequests): void {
    this.embedderRequests.total += requests.total
    this.embedderRequests.failed += requests.failed
    if (requests.lastError !== null) this.embedderRequests.lastError = requests.lastError
  }

  /** Throw `BatchAborted` once the batch was canceled: long loops call it as they go. */
  checkAborted(): void {
    if (this.deps.signal.aborted) throw new BatchAborted()
  }

  docs(meta: IndexMeta): DocumentDraft {
    let d = this.drafts.get(meta.id)
    if (!d) this.drafts.set(meta.id, (d = { uid: meta.uid, draft: this.deps.documents.draft(meta.id) }))
    return d.draft
  }

  async wordsDraft(meta: IndexMeta): Promise<InvertedDraft> {
    let d = this.words.get(meta.id)
    if (!d) this.words.set(meta.id, (d = new InvertedDraft(await this.deps.inverted.get(meta.id))))
    return d
  }

  /** The vector draft of an index. */
  async vectorsDraft(meta: IndexMeta): Promise<VectorDraft> {
    let d = this.vectorDrafts.get(meta.id)
    if (!d) this.vectorDrafts.set(meta.id, (d = await this.deps.vectors.draft(meta.id)))
    return d
  }

  /** The facet draft of an index, null when its settings facet nothing. */
  async facetsDraft(meta: IndexMeta): Promise<FacetDraft | null> {
    let d = this.facetDrafts.get(meta.id)
    if (d === undefined) {
      const config = facetConfig(this.settingsOf(meta))
      d = hasFacets(config) ? new FacetDraft(await this.deps.facets.get(meta.id, config), config) : null
      this.facetDrafts.set(meta.id, d)
    }
    return d
  }

  extraction(meta: IndexMeta): ExtractionConfig {
    return extractionConfig(this.settingsOf(meta))
  }

  /** Extract documents' words (in the pool for big sets). */
  extract(docs: readonly Document[], config: ExtractionConfig): Promise<ExtractedChunk> {
    const text = JSON.stringify(docs)
    return runJob(text.length <= INLINE_LIMIT ? undefined : this.deps.pool, 'extractWords', { docs: text, extraction: config })
  }

  settingsOf(meta: IndexMeta): Settings {
    return this.settings.get(meta.id) ?? readSettings(this.deps.store, meta.id)
  }

  existing(uid: string): IndexMeta {
    const meta = this.deps.draft.get(uid)
    if (!meta) throw indexNotFound(uid)
    return meta
  }

  /** Whether an internal id is still an index of the draft catalog (not deleted or cleared by this batch). */
  stillLive(id: number): boolean {
    for (const meta of [...this.drafts.values()].map((d) => this.deps.draft.get(d.uid))) if (meta?.id === id) return true
    for (const uid of this.settingUids.get(id) ?? []) if (this.deps.draft.get(uid)?.id === id) return true
    return false
  }

  /**
   * Move the index to a fresh internal id (a clear): the old one's data is dropped as a whole after the commit, its
   * staged rows (if any) with it, or by `abandon` before it. The settings move along.
   */
  reassign(uid: string, meta: IndexMeta): void {
    const settings = this.settingsOf(meta)
    const fresh = this.deps.draft.reassign(uid, this.deps.now)
    this.settings.set(fresh.id, settings)
    this.settingUids.set(fresh.id, [uid])
    this.cleared.push(meta.id)
    this.retired.push(this.drafts.get(meta.id)!.draft)
    this.drafts.delete(meta.id)
    this.words.delete(meta.id)
    this.facetDrafts.delete(meta.id)
    this.vectorDrafts.delete(meta.id)
  }

  /** Apply one task; returns its details on success, throws on failure. */
  async apply(task: Task): Promise<Details | null> {
    const uid = task.indexUid!
    try {
      const op = task.operation
      const progress = this.deps.progress
      switch (op.type) {
        case 'settingsUpdate': progress?.step(SETTINGS, 'apply the settings'); return applySettings(this, uid, op.update, task.details)
        case 'documentAdditionOrUpdate': return await addDocuments(this, uid, op, task.details)
        case 'documentEdition': progress?.step(DOCUMENT_EDITION, 'computing document changes'); return await editDocuments(this, uid, op, task.details)
        case 'documentDeletion': {
          progress?.step(DOCUMENT_DELETION, 'delete documents')
          const meta = this.existing(uid)
          if ('clear' in op) {
            // Documents a move settled stay: the others are deleted one by one rather than the index reassigned.
            if (this.deps.untouched) return { ...task.details, deletedDocuments: await deleteByIds(this, meta, await allIds(this, meta)) }
            return clearDocuments(this, uid, meta, task.details)
          }
          if ('ids' in op) return { ...task.details, deletedDocuments: await deleteByIds(this, meta, op.ids) }
          return { ...task.details, deletedDocuments: await deleteByFilter(this, meta, op.filter) }
        }
        default: throw new Error(`not a document operation: ${op.type}`)
      }
    } catch (err) {
      throw inIndex(uid, err)
    }
  }

  /** Reindex what settings changes require, flush staged documents; then the writes of the final commit. */
  async finalOps(): Promise<Write[]> {
    const ops: Write[] = []
    await reindex(this)
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
      // Worked out in turns (searches answer meanwhile), new words' postings encoded in the pool.
      const pool = this.deps.pool
      const { ops: wordOps, apply } = await words.finalizeInTurns(pool ? { encode: (input) => runJob(pool, 'encodePostings', input), partitions: pool.threads * 2 } : {})
      for (const op of wordOps) ops.push(op)
      this.wordApplies.push(apply)
    }
    for (const [id, settings] of this.settings) if (this.stillLive(id)) for (const op of settingsWriteOps(id, settings)) ops.push(op)
    for (const [id, vectors] of this.vectorDrafts) {
      const uid = this.settingUids.get(id)?.[0] ?? this.drafts.get(id)?.uid
      const meta = uid === undefined ? undefined : this.deps.draft.get(uid)
      if (!this.stillLive(id) || meta?.id !== id) continue
      this.deps.progress?.step(VECTORS, 'writing embeddings to database')
      const pool = this.deps.pool
      const graphs = { build: pool ? (input: GraphBuildInput) => runJob(pool, 'buildGraph', input) : undefined, scratch: this.deps.vectors.scratchDir() }
      for (const op of await vectors.finalOps(this.settingsOf(meta).embedders, () => this.checkAborted(), graphs)) ops.push(op)
    }
    return ops
  }

  publish(): void {
    for (const apply of this.wordApplies) apply()
    for (const [id, view] of this.facetViews) this.deps.facets.publish(id, view)
    for (const [id, vectors] of this.vectorDrafts) {
      if (this.stillLive(id)) this.deps.vectors.publish(vectors)
      else vectors.discardFiles()
    }
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
    for (const vectors of this.vectorDrafts.values()) this.deps.vectors.abandoned(vectors)
  }
}
