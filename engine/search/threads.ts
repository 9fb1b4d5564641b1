/**
 * Search threads as the engine sees them (ARCHITECTURE.md, process model): keyword and placeholder searches and
 * facet searches run on a small pool of threads reading the published index in shared memory, so a slow query no
 * longer holds the HTTP thread. The engine never starts threads: the service hands it a pool
 * (workers/search-pool.ts) or none, and then every search runs on the HTTP thread as before.
 *
 * A search names the view it runs on (`serial`: the published inverted index, documents, facets and settings it
 * was asked against); a thread is posted a view only when it does not hold that one yet, and keeps the latest per
 * index. The thread reads the hits' documents itself, through the database's handle, while no commit changed the
 * index's documents since the view (storage/read-fence.ts); otherwise it asks the HTTP thread, which answers only
 * while the documents are still those of the search's view: else the search is `stale` and runs again on the view
 * published since.
 */
import type { JsonObject } from '../json/value.js'
import type { Settings } from '../settings/index.js'
import type { InvertedView } from '../inverted/index.js'
import type { FacetIndexView } from '../facets/index.js'
import type { ErrorCode } from '../errors/index.js'
import type { FacetSearchRequest, SearchQuery } from './request.js'
import type { SharedReads } from '../storage/shared-reads.js'

/** One index's published views as a search thread is handed them (shared buffers; settings and names copied). */
export interface SourceView {
  uid: string
  indexId: number
  settings: Settings
  inverted: InvertedView
  /** The live documents, frozen (util/frozen-bitmap.ts). */
  liveBytes: Uint8Array
  fieldNames: string[]
  facets: FacetIndexView
  containsFilter: boolean
}

export type ThreadWork =
  /** `serialized`: answer the response as bytes (search/stored-hits.ts `serializeResponse`). */
  | { kind: 'search'; query: SearchQuery; serialized?: boolean }
  | { kind: 'facetSearch'; request: FacetSearchRequest }

/** A search handed to the pool. */
export interface ThreadJob {
  indexId: number
  /** Identifies `view` (equal serials: the same published views). */
  serial: string
  view: SourceView
  work: ThreadWork
  /**
   * For the thread to read the hits' documents itself (storage/shared-reads.ts): the store's shared reads and the
   * index's documents epoch taken with the view. Absent, or a read it cannot trust: it asks the HTTP thread.
   */
  documents?: SharedReads & { epoch: number }
}

/**
 * A thread's answer. `error`: the search's TesseraError; `failure`: any other error's message (a bug: logged, not
 * shown); `stale`: the documents changed under the search; `httpThread`: it needs what only the HTTP thread has.
 */
export type ThreadAnswer =
  | { response: JsonObject }
  | { serialized: Uint8Array }
  | { error: { code: ErrorCode; message: string; status: number } }
  | { failure: string }
  | { stale: true }
  | { httpThread: true }

/**
 * The hits' stored documents, read on the HTTP thread for a search running on a thread: JSON texts back to back in
 * one buffer (`ends[k]`: where document k ends), or null when the documents are no longer those of the search's view.
 */
export type DocumentReader = (docids: number[]) => { bytes: Uint8Array; ends: Uint32Array } | null

export interface SearchThreads {
  readonly threads: number
  /**
   * Run a job on a thread. Rejects with `too_many_search_requests` when the queue of jobs waiting for a thread is full,
   * and with an `internal` error when the thread running it dies (the pool starts another in its place).
   */
  run(job: ThreadJob, read: DocumentReader): Promise<ThreadAnswer>
  /** Threads drop what they hold of an index (deleted: its views would otherwise stay alive in them). */
  forget(indexId: number): void
  close(): Promise<void>
}
