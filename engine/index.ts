/**
 * The engine facade: what the service (src/) calls. It owns storage, the task queue, the scheduler and the index
 * catalog, and knows nothing of HTTP. Writes are registered as tasks (durable before the promise resolves) and
 * applied asynchronously by the scheduler; reads answer from published state.
 */
import roaring from 'roaring'
import { performance } from 'node:perf_hooks'
import { Store } from './storage/index.js'
import { TesseraError } from './errors/index.js'
import { IndexCatalog, indexView, pendingGarbage, type IndexMeta, type IndexView } from './indexes/catalog.js'
import { TaskQueue } from './tasks/queue.js'
import { Scheduler, dropGarbage } from './tasks/scheduler.js'
import { enqueuedView, taskView, batchView } from './tasks/view.js'
import { formatMicros } from './tasks/time.js'
import type { Page, TaskFilter } from './tasks/query.js'
import type { BatchView, EnqueuedTask, IndexSwap, Task, TaskView } from './tasks/types.js'
import type { WorkerPool } from './pool/index.js'
import { Features } from './features/index.js'
import { DocumentStore } from './documents/store.js'
import { InvertedStore, type Bitmap } from './inverted/index.js'
import { PayloadFiles } from './payload/files.js'
import { readPage, shape, canonicalId, documentNotFound, type DocumentPage, type DocumentQuery } from './documents/read.js'
import { runJob } from './pool/jobs.js'
import type { Document } from './payload/documents.js'
import type { PayloadFormat } from './tasks/types.js'
import { readSettings, settingsDetails, type Settings, type SettingsUpdate } from './settings/index.js'
import { search as runSearch, rankQuery, type SearchQuery, type SearchSource } from './search/index.js'
import { checkFacetSearchable, searchFacetValues } from './facets/search.js'
import type { FacetSearchRequest } from './search/query.js'
import { searchKind } from './search/query.js'
import { matches as matchesFilter, type FilterExpression } from './filter/index.js'
import { FacetStore, facetConfig, type FacetIndex } from './facets/index.js'
import { evaluateFilter } from './facets/filter.js'

export type { WorkerPool } from './pool/index.js'
export { TesseraError } from './errors/index.js'

const { RoaringBitmap32 } = roaring

export interface EngineOptions {
  /** Data directory (RocksDB lives in `<path>/db`). */
  path: string
  pool?: WorkerPool
  log?: (msg: string, level?: 'INFO' | 'ERROR') => void
  /** Test hook: hold each batch this long in `processing` before applying it. */
  batchDelayMs?: number
}

export interface ListPage<T> {
  results: T[]
  total: number
  limit: number
  from: number | null
  next: number | null
}

export interface IndexStats {
  numberOfDocuments: number
  rawDocumentDbSize: number
  avgDocumentSize: number
  isIndexing: boolean
  numberOfEmbeddings: number
  numberOfEmbeddedDocuments: number
  fieldDistribution: Record<string, number>
}

export class Engine {
  private constructor(
    readonly store: Store,
    readonly queue: TaskQueue,
    readonly catalog: IndexCatalog,
    readonly scheduler: Scheduler,
    readonly pool: WorkerPool | undefined,
    /** Experimental feature switches (synchronous, persisted). */
    readonly features: Features,
    readonly documents: DocumentStore,
    readonly payloads: PayloadFiles,
    readonly inverted: InvertedStore,
    readonly facets: FacetStore,
  ) {}

  static async open(options: EngineOptions): Promise<Engine> {
    const store = await Store.open(options.path)
    const queue = await TaskQueue.load(store)
    const catalog = await IndexCatalog.load(store)
    // Finish dropping the data of indexes deleted just before a crash.
    await dropGarbage(store, await pendingGarbage(store))
    // A batch interrupted by a crash applied nothing (its commit is atomic): run its tasks again.
    const interrupted = queue.getMany(queue.index.status('processing'))
    if (interrupted.length > 0) {
      const requeued = interrupted.map((t): Task => ({ ...t, status: 'enqueued', batchUid: null, startedAt: null }))
      // The interrupted batch was never recorded: the next batch takes its uid, so batch uids stay contiguous.
      const abandoned = Math.min(...interrupted.map((t) => t.batchUid ?? Infinity))
      if (abandoned === queue.nextBatchUid - 1) queue.nextBatchUid = abandoned
      await store.commit([...requeued.map((t) => queue.putOp(t)), queue.nextBatchUidOp()])
      interrupted.forEach((t, i) => queue.replaced(t, requeued[i]!))
      options.log?.(`re-running ${interrupted.length} task(s) interrupted while processing`)
    }
    const features = await Features.load(store)
    const documents = new DocumentStore(store)
    const inverted = new InvertedStore(store)
    const facets = new FacetStore({
      scan: (id) => documents.scan(id),
      version: (id) => documents.state(id),
    })
    // Documents staged by a batch that never committed are dropped.
    for (const meta of catalog.list()) await documents.dropStaged(meta.id)
    await documents.dropUnusedIds(catalog.nextUnusedId)
    const payloads = new PayloadFiles(options.path, store)
    // Small payloads of waiting tasks are restored from their copies; what no waiting task needs goes.
    const waiting = queue.getMany(RoaringBitmap32.or(queue.index.status('enqueued'), queue.index.status('processing')))
    await payloads.recover(new Set(waiting.flatMap((t) => (t.operation.type === 'documentAdditionOrUpdate' ? [t.operation.payload] : []))))
    const scheduler = new Scheduler(store, queue, catalog, { documents, payloads, inverted, facets, features, pool: options.pool }, { batchDelayMs: options.batchDelayMs, log: options.log })
    queue.onRegistered = () => scheduler.wake()
    const engine = new Engine(store, queue, catalog, scheduler, options.pool, features, documents, payloads, inverted, facets)
    scheduler.wake()
    return engine
  }

  async close(): Promise<void> {
    await this.scheduler.stop()
    await this.store.close()
  }

  // ---- tasks -------------------------------------------------------------------------------------------

  getTask(uid: number): TaskView | undefined {
    const task = this.queue.get(uid)
    return task && taskView(task)
  }

  listTasks(filter: TaskFilter, page: Page): ListPage<TaskView> {
    const { results, total, next } = this.queue.list(filter, page)
    return { results: results.map(taskView), total, limit: page.limit, from: results[0]?.uid ?? null, next }
  }

  getBatch(uid: number): BatchView | undefined {
    const batch = this.queue.getBatch(uid)
    return batch && batchView(batch)
  }

  listBatches(filter: TaskFilter, page: Page): ListPage<BatchView> {
    const { results, total, next } = this.queue.listBatches(filter, page)
    return { results: results.map(batchView), total, limit: page.limit, from: results[0]?.uid ?? null, next }
  }

  /** Register a cancelation of the tasks matching `filter` now; a running batch containing any of them stops. */
  async cancelTasks(filter: TaskFilter, originalFilter: string): Promise<EnqueuedTask> {
    const { task, matched } = await this.registerTaskMutation('taskCancelation', 'canceledTasks', filter, originalFilter)
    this.scheduler.abortIfProcessing(matched)
    return enqueuedView(task)
  }

  /** Register a deletion of the finished tasks among those matching `filter` now. */
  async deleteTasks(filter: TaskFilter, originalFilter: string): Promise<EnqueuedTask> {
    const { task } = await this.registerTaskMutation('taskDeletion', 'deletedTasks', filter, originalFilter)
    return enqueuedView(task)
  }

  /** Cancelations and deletions act on the tasks matched when they are registered, as Meilisearch's do. */
  private async registerTaskMutation(type: 'taskCancelation' | 'taskDeletion', countKey: string, filter: TaskFilter, originalFilter: string) {
    const matched = this.queue.index.match(filter)
    const task = await this.queue.register({
      type, indexUid: null,
      details: { matchedTasks: matched.size, [countKey]: null, originalFilter },
      operation: { type, tasks: Buffer.from(matched.serialize('portable')).toString('base64'), originalFilter },
    })
    return { task, matched }
  }

  // ---- indexes -----------------------------------------------------------------------------------------

  getIndex(uid: string): IndexView {
    const meta = this.catalog.get(uid)
    if (!meta) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
    return indexView(meta)
  }

  listIndexes(offset: number, limit: number): { results: IndexView[]; offset: number; limit: number; total: number } {
    const all = this.catalog.list()
    return { results: all.slice(offset, offset + limit).map(indexView), offset, limit, total: all.length }
  }

  async createIndex(uid: string, primaryKey: string | null): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'indexCreation', indexUid: uid, details: { primaryKey }, operation: { type: 'indexCreation', primaryKey } })
    return enqueuedView(task)
  }

  async updateIndex(uid: string, primaryKey: string | null, newIndexUid: string | null): Promise<EnqueuedTask> {
    const details: Record<string, unknown> = { primaryKey }
    if (newIndexUid !== null) { details.oldIndexUid = uid; details.newIndexUid = newIndexUid }
    const task = await this.queue.register({ type: 'indexUpdate', indexUid: uid, details, operation: { type: 'indexUpdate', primaryKey, newIndexUid } })
    return enqueuedView(task)
  }

  async deleteIndex(uid: string): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'indexDeletion', indexUid: uid, details: { deletedDocuments: null }, operation: { type: 'indexDeletion' } })
    return enqueuedView(task)
  }

  async swapIndexes(swaps: IndexSwap[]): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'indexSwap', indexUid: null, details: { swaps }, operation: { type: 'indexSwap', swaps } })
    return enqueuedView(task)
  }

  // ---- documents --------------------------------------------------------------------------------------

  private indexMeta(uid: string): IndexMeta {
    const meta = this.catalog.get(uid)
    if (!meta) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
    return meta
  }

  /**
   * Store a document payload durably, validate it in the worker pool (count, chunk boundaries, first fault), and
   * register its task. A faulty payload is removed again and its error thrown: nothing is registered.
   */
  async addDocuments(uid: string, body: AsyncIterable<Uint8Array>, options: { method: 'replace' | 'update'; format: PayloadFormat; csvDelimiter: string; primaryKey: string | null; allowIndexCreation: boolean }): Promise<EnqueuedTask> {
    const { name, copy, inline } = await this.payloads.write(body)
    const path = this.payloads.path(name)
    try {
      // A small payload is checked here, in memory: the hop to a worker would cost more than the check.
      const checked = await runJob(inline ? undefined : this.pool, 'validatePayload', { path, ...(inline ? { bytes: inline } : {}), format: options.format, csvDelimiter: options.csvDelimiter })
      if (!checked.ok) throw new TesseraError(checked.code, checked.message)
      const task = await this.queue.register({
        type: 'documentAdditionOrUpdate', indexUid: uid,
        details: { receivedDocuments: checked.documents, indexedDocuments: null },
        operation: {
          type: 'documentAdditionOrUpdate', method: options.method, payload: name, format: options.format, csvDelimiter: options.csvDelimiter,
          primaryKey: options.primaryKey, allowIndexCreation: options.allowIndexCreation, chunks: checked.chunks, csvHeader: checked.csvHeader,
        },
      }, copy ? [copy] : [])
      return enqueuedView(task)
    } catch (err) {
      await this.payloads.remove(name)
      throw err
    }
  }

  async deleteDocuments(uid: string, ids: string[]): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'documentDeletion', indexUid: uid, details: { providedIds: ids.length, deletedDocuments: null, originalFilter: null }, operation: { type: 'documentDeletion', ids } })
    return enqueuedView(task)
  }

  async deleteDocumentsByFilter(uid: string, filter: unknown): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'documentDeletion', indexUid: uid, details: { providedIds: 0, deletedDocuments: null, originalFilter: JSON.stringify(filter) }, operation: { type: 'documentDeletion', filter } })
    return enqueuedView(task)
  }

  async clearDocuments(uid: string): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'documentDeletion', indexUid: uid, details: { deletedDocuments: null }, operation: { type: 'documentDeletion', clear: true } })
    return enqueuedView(task)
  }

  getDocument(uid: string, id: string, fields: string[] | null, retrieveVectors: boolean): Document {
    const meta = this.indexMeta(uid)
    const ext = canonicalId(id)
    const doc = ext === null ? undefined : this.documents.get(meta.id, ext)
    if (!doc) throw documentNotFound(id)
    return shape(doc, fields, retrieveVectors)
  }

  listDocuments(uid: string, query: DocumentQuery): Promise<DocumentPage> {
    const meta = this.indexMeta(uid)
    const settings = () => this.cachedSettings(meta.id)
    const filterIds = async (expr: FilterExpression) => {
      const facets = await this.facets.get(meta.id, facetConfig(settings()))
      return this.filterWith(meta.id, facets, this.documents.state(meta.id).live, expr)
    }
    return readPage(this.documents, meta, settings, this.features, filterIds, query)
  }

  // ---- settings ---------------------------------------------------------------------------------------

  /** The settings of an index (defaults for fields never set). */
  getSettings(uid: string): Settings {
    const meta = this.catalog.get(uid)
    if (!meta) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
    return readSettings(this.store, meta.id)
  }

  /** Register a validated settings update; the index is created if it does not exist. */
  async updateSettings(uid: string, update: SettingsUpdate): Promise<EnqueuedTask> {
    const task = await this.queue.register({ type: 'settingsUpdate', indexUid: uid, details: settingsDetails(update), operation: { type: 'settingsUpdate', update } })
    return enqueuedView(task)
  }

  // ---- search ------------------------------------------------------------------------------------------

  /** Settings read per search are cached until the next batch is published. */
  private readonly settingsCache = new Map<number, { published: number; settings: Settings }>()

  private cachedSettings(indexId: number): Settings {
    const published = this.scheduler.publishedBatches
    const hit = this.settingsCache.get(indexId)
    if (hit && hit.published === published) return hit.settings
    const settings = readSettings(this.store, indexId)
    if (this.settingsCache.size > 1000) this.settingsCache.clear()
    this.settingsCache.set(indexId, { published, settings })
    return settings
  }

  /** The live documents matching a filter, evaluated document by document. */
  private scanFilter(indexId: number, live: Bitmap, expr: FilterExpression): Bitmap {
    const ids = live.toArray()
    const out: number[] = []
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000)
      const docs = this.documents.getMany(indexId, chunk)
      docs.forEach((doc, k) => { if (matchesFilter(expr, doc)) out.push(chunk[k]!) })
    }
    return RoaringBitmap32.from(out)
  }

  /** A filter's live documents: the facet index's evaluation, `_vectors` conditions checked per document. */
  private filterWith(indexId: number, facets: FacetIndex, live: Bitmap, expr: FilterExpression): Bitmap {
    return evaluateFilter(expr, facets, live, (e) => this.scanFilter(indexId, live, e))
  }

  /** What a search of the index reads (its published views). */
  async searchSource(uid: string): Promise<SearchSource> {
    const meta = this.indexMeta(uid)
    const inverted = await this.inverted.get(meta.id)
    const state = this.documents.state(meta.id)
    const settings = this.cachedSettings(meta.id)
    const facets = await this.facets.get(meta.id, facetConfig(settings))
    return {
      uid,
      settings,
      inverted,
      live: state.live,
      fetch: (docids) => this.documents.getMany(meta.id, docids),
      fieldNames: () => state.fields.keys(),
      facets,
      filter: (expr) => this.filterWith(meta.id, facets, state.live, expr),
      containsFilter: this.features.isEnabled('containsFilter'),
    }
  }

  /** `POST /indexes/{uid}/facet-search`: the values of a facet among a search's matching documents. */
  async facetSearch(uid: string, request: FacetSearchRequest): Promise<Record<string, unknown>> {
    const start = performance.now()
    const source = await this.searchSource(uid)
    if (searchKind(request.search) !== 'keyword') {
      throw new TesseraError('invalid_search_embedder', `Cannot find embedder with name \`${request.search.hybrid?.embedder ?? 'default'}\`.`)
    }
    if (!source.settings.facetSearch) throw new TesseraError('facet_search_disabled', 'The facet search is disabled for this index')
    checkFacetSearchable(request.facetName, source.settings)
    const outcome = rankQuery(source, { ...request.search, distinct: null }, { offset: 0, limit: 0 }, start)
    const facetHits = searchFacetValues(source.facets, request.facetName, request.facetQuery, outcome.all, source.settings)
    return { facetHits, facetQuery: request.facetQuery, processingTimeMs: Math.floor(performance.now() - start) }
  }

  /** A keyword (or placeholder) search: Meilisearch's response object. */
  async search(uid: string, query: SearchQuery): Promise<Record<string, unknown>> {
    const source = await this.searchSource(uid)
    if (searchKind(query) !== 'keyword') {
      // No embedder is configured yet (vectors come with the embedders work).
      throw new TesseraError('invalid_search_embedder', `Cannot find embedder with name \`${query.hybrid?.embedder ?? 'default'}\`.`)
    }
    return runSearch(source, query)
  }

  /**
   * One query of a federated multi-search: its first `limit` hits (bounded by the index's `maxTotalHits`), with
   * `_rankingScore` and their internal ids, the number of matching documents (not bounded by `maxTotalHits`, as
   * Meilisearch counts candidates in federation) and the number of documents in the index.
   */
  async federatedQuery(uid: string, query: SearchQuery, limit: number): Promise<{ hits: Record<string, unknown>[]; docids: number[]; candidates: number; documents: number }> {
    const source = await this.searchSource(uid)
    if (searchKind(query) !== 'keyword') {
      throw new TesseraError('invalid_search_embedder', `Cannot find embedder with name \`${query.hybrid?.embedder ?? 'default'}\`.`)
    }
    let docids: number[] = []
    // The window is bounded here; the search itself counts candidates without the bound.
    const unbounded: SearchSource = {
      ...source,
      settings: { ...source.settings, pagination: { ...source.settings.pagination, maxTotalHits: Number.MAX_SAFE_INTEGER } },
      fetch: (ids) => { docids = ids; return source.fetch(ids) },
    }
    const window = { offset: 0, limit: Math.min(limit, source.settings.pagination.maxTotalHits), page: null, hitsPerPage: null }
    const result = runSearch(unbounded, { ...query, ...window, showRankingScore: true })
    return { hits: result.hits as Record<string, unknown>[], docids, candidates: result.estimatedTotalHits as number, documents: source.live.size }
  }

  // ---- stats -------------------------------------------------------------------------------------------

  /** Whether a batch touching the index is being processed, or tasks of it wait. */
  private isIndexing(uid: string): boolean {
    const ofIndex = this.queue.index.byIndex.get(uid)
    if (!ofIndex) return false
    // As in Meilisearch: true while a batch touching the index runs, not while its tasks wait.
    return ofIndex.intersects(this.queue.index.status('processing'))
  }

  indexStats(uid: string): IndexStats {
    const meta = this.catalog.get(uid)
    if (!meta) throw new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
    return this.statsOf(meta)
  }

  private statsOf(meta: IndexMeta): IndexStats {
    const state = this.documents.state(meta.id)
    const count = state.live.size
    return {
      numberOfDocuments: count,
      rawDocumentDbSize: state.rawSize,
      avgDocumentSize: count === 0 ? 0 : Math.floor(state.rawSize / count),
      isIndexing: this.isIndexing(meta.uid),
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: Object.fromEntries([...state.fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    }
  }

  globalStats(): { databaseSize: number; usedDatabaseSize: number; lastUpdate: string | null; indexes: Record<string, IndexStats> } {
    const metas = this.catalog.list()
    const lastUpdate = metas.reduce<number | null>((m, i) => (m === null || i.updatedAt > m ? i.updatedAt : m), null)
    const indexes: Record<string, IndexStats> = {}
    for (const meta of metas) indexes[meta.uid] = this.statsOf(meta)
    const databaseSize = this.store.sizeOnDisk()
    return { databaseSize, usedDatabaseSize: Math.min(databaseSize, this.store.liveDataSize() || databaseSize), lastUpdate: lastUpdate === null ? null : formatMicros(lastUpdate), indexes }
  }
}
