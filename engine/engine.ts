/**
 * The engine: the components one data directory holds (storage, the task queue and its scheduler, the index
 * catalog, documents, the inverted and facet indexes, payload files, feature switches) and their life cycle.
 * What a caller can do with them is in `operations/`, one file per verb; the engine itself only opens and closes.
 */
import { Store, type StorageLogLevel } from './storage/index.js'
import { IndexCatalog, type IndexMeta } from './indexes/catalog.js'
import { TaskQueue } from './tasks/queue.js'
import { Openings } from './cluster/openings.js'
import { SettledDocuments } from './scheduler/settled-documents.js'
import { Scheduler } from './scheduler/scheduler.js'
import type { BatchLimits } from './scheduler/selection.js'
import type { WorkerPool } from './pool/index.js'
import type { SearchThreads } from './search/threads.js'
import { Features } from './features/index.js'
import { closeEmbedders, setEmbedderRuntime, type EmbedderRuntime } from './embedders/index.js'
import { NetworkConfig, documentOwnership } from './network/index.js'
import { DocumentStore } from './documents/store.js'
import { InvertedStore } from './inverted/index.js'
import { PayloadFiles } from './payload/files.js'
import { FacetStore } from './facets/index.js'
import { indexNotFound } from './errors/index.js'
import { PublishedSettings } from './settings/published.js'
import { recover } from './recovery.js'
import { VectorStore } from './vectors/store.js'
import { vectorSearchTuning } from './vectors/search.js'
import { join } from 'node:path'
import { LocalTaskLog, type TaskLog } from './tasks/task-log.js'
import { StateChanges } from './tasks/state-changes.js'
import type { ClusterOptions } from './cluster/index.js'

export type Log = (msg: string, level?: 'INFO' | 'ERROR') => void

export interface EngineOptions {
  /** Data directory (RocksDB lives in `<path>/db`). */
  path: string
  pool?: WorkerPool
  log?: Log
  /** Test hook: each batch waits in `processing` while this answers true (polled every 10 ms). */
  batchHeldWhile?: () => boolean
  /** Test hook: a `PATCH /network` answer waits for this after the change is applied (a test kills the node then). */
  networkAnswerHeld?: () => Promise<void>
  /** The most tasks the queue keeps before it deletes finished ones itself (Meilisearch: 1,000,000). */
  maxTasks?: number
  /** How large one batch may grow (tasks, payload bytes). */
  batchLimits?: BatchLimits
  /** What embedders are built with (models folder, allowed networks, timeouts, query cache), in every thread. */
  embedders?: EmbedderRuntime
  /** Vector search tuning (HNSW breadth, binary quantized rescoring depth); see vectors/search.ts. */
  vectorSearch?: { ef?: number; rescoring?: number }
  /** Where dumps and snapshots are written, and the version dumps name (see SchedulerOptions). */
  dumpDir?: string
  snapshotDir?: string
  dbVersion?: string
  /** Search threads (search/threads.ts); absent: every search runs on the calling thread. */
  searchThreads?: SearchThreads
  /**
   * Diagnostic (default true): search threads read the hits' documents themselves (storage/shared-reads.ts); false:
   * they ask this thread, a turn of it per search (to measure one against the other).
   */
  searchThreadReads?: boolean
  /** Cluster mode: tasks are registered through a replicated JetStream log (engine/cluster/). Absent: a single node. */
  cluster?: ClusterOptions
  /** What RocksDB writes to `<path>/db/LOG` (diagnostic; default errors only). */
  storageLog?: StorageLogLevel
}

export class Engine {
  /** Where tasks are registered: the local queue, or the cluster's replicated log. */
  taskLog: TaskLog
  /** Where keyword and facet searches run (search/threads.ts); undefined: on this thread. */
  searchThreads: SearchThreads | undefined
  /** See EngineOptions.searchThreadReads. */
  searchThreadReads = true
  /** Test hook, see EngineOptions. */
  networkAnswerHeld: (() => Promise<void>) | null = null

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
    /** Each index's settings as last published (read by every search). */
    readonly settings: PublishedSettings,
    /** Vectors per index and embedder, with their graphs. */
    readonly vectors: VectorStore,
    readonly log: Log,
    /** The other instances this one knows (`/network`), persisted. */
    readonly network: NetworkConfig,
    /** Where changes of the network, the features and the API keys go (replicated in cluster mode). */
    readonly stateChanges: StateChanges,
  ) {
    this.taskLog = new LocalTaskLog(queue)
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const log: Log = options.log ?? (() => {})
    setEmbedderRuntime(options.embedders ?? {})
    const store = await Store.open(options.path, options.storageLog)
    const queue = await TaskQueue.load(store, { maxTasks: options.maxTasks, log })
    const catalog = await IndexCatalog.load(store)
    const documents = new DocumentStore(store)
    const payloads = new PayloadFiles(options.path, store)
    await recover({ store, queue, catalog, documents, payloads, log })
    const stateChanges = new StateChanges(store)
    const features = await Features.load(store, stateChanges)
    const network = await NetworkConfig.load(store, stateChanges)
    const inverted = new InvertedStore(store)
    const facets = new FacetStore({ scan: (id) => documents.scan(id), version: (id) => documents.state(id) })
    const vectors = new VectorStore(store, join(options.path, 'vectors'))
    if (options.vectorSearch?.ef) vectorSearchTuning.ef = options.vectorSearch.ef
    if (options.vectorSearch?.rescoring) vectorSearchTuning.rescoring = options.vectorSearch.rescoring
    // Cluster mode: tasks are batched only once the log opened them (cluster/openings.ts).
    const openings = options.cluster ? new Openings(store) : undefined
    const scheduler = new Scheduler(store, queue, catalog, {
      documents, payloads, inverted, facets, vectors, features, pool: options.pool,
      // Sharding applies in cluster mode only: a single node keeps every document, whatever its network says.
      keepsDocument: () => network.sharding ? documentOwnership(network.current) : null,
      network,
      settled: new SettledDocuments(store),
      ...(openings ? { openings } : {}),
    }, { batchHeldWhile: options.batchHeldWhile, batchLimits: options.batchLimits, dumpDir: options.dumpDir, snapshotDir: options.snapshotDir, dbVersion: options.dbVersion, log })
    const settings = new PublishedSettings(store, () => scheduler.publishedBatches)
    queue.onRegistered = () => scheduler.wake()
    const engine = new Engine(store, queue, catalog, scheduler, options.pool, features, documents, payloads, inverted, facets, settings, vectors, log, network, stateChanges)
    engine.searchThreads = options.searchThreads
    engine.searchThreadReads = options.searchThreadReads ?? true
    engine.networkAnswerHeld = options.networkAnswerHeld ?? null
    if (options.cluster) {
      try {
        // Before the first entry is applied: every batch of a cluster node shards.
        network.sharding = true
        // Loaded only in cluster mode: the NATS clients take ~0.3 s to load, which a single node never needs.
        const { openCluster } = await import('./cluster/index.js')
        engine.taskLog = await openCluster({ store, queue, payloads, scheduler, stateChanges, openings: openings!, log }, options.cluster)
      } catch (err) {
        await engine.close()
        throw err
      }
    }
    scheduler.wake()
    return engine
  }

  /** The metadata of an existing index; `index_not_found` otherwise. */
  index(uid: string): IndexMeta {
    const meta = this.catalog.get(uid)
    if (!meta) throw indexNotFound(uid)
    return meta
  }

  async close(): Promise<void> {
    await this.taskLog.close()
    await this.scheduler.stop()
    this.vectors.save(true)
    // The query embedders of this thread (workers close theirs with the pool).
    await closeEmbedders()
    await this.store.close()
  }
}
