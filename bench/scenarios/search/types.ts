/** What the search scenario measures and reports: its dataset, query mix, latency, QPS, memory and peers. */
import type { DatasetFileFormat } from '../../data/dataset-file.js'
import type { SearchIndexing } from '../../harness/indexing.js'
import type { LatencySummary } from '../../harness/latency.js'
import type { LoadResult } from '../../harness/load.js'
import type { PeerRun } from '../../peers/peers.js'
import type { SearchOptions } from './options.js'

export type DatasetFormat = 'generated' | DatasetFileFormat
export type QueryKind = 'plain' | 'typo' | 'prefix'

export interface BenchQuery {
  q: string
  kind: QueryKind
  words: number
  /** The words before the typo / truncation (plain queries: the same as q). */
  source: string
}

export interface QueryExample extends BenchQuery {
  /** `estimatedTotalHits` (or `totalHits`) of the warm-up reply; null when not measured. */
  hits: number | null
}

export interface DatasetInfo {
  source: 'generated' | 'file'
  /** The file as given; null for the generated corpus. */
  path: string | null
  name: string
  format: DatasetFormat
  gzip: boolean
  documents: number
  /** Fields of the first document. */
  fields: string[]
  primaryKey: string
  /** Whether `id` was added as the row number. */
  idsAdded: boolean
  searchableAttributes: string[]
  /** Reading and parsing the file (or generating the corpus), seconds. */
  loadSeconds: number
  /**
   * Mean words per document in the searchable attributes (a sample of up to 5,000 documents): what makes a corpus
   * short (a name and a summary) or long (paragraphs), which issue 6's indexing target distinguishes.
   */
  meanSearchableWords: number
}


export interface SearchLatency {
  ok: boolean
  error?: string
  rounds: number
  /** Successful searches measured (rounds × queries unless some failed). */
  samples: number
  /** `processingTimeMs` of the replies (integer ms, as the service reports it). */
  serverMs: LatencySummary
  /** Client round trip, one keep-alive connection, write → last byte of the reply. */
  clientMs: LatencySummary
  /** Failures by kind over warm-up and rounds. */
  errorKinds: Record<string, number>
  /** Queries whose warm-up reply had no hit, by kind (typo and prefix queries should still find their source). */
  zeroHits: Record<QueryKind, number>
  queriesByKind: Record<QueryKind, number>
  /** Mean `estimatedTotalHits` over the mix. */
  meanHits: number | null
  /** Mean `hits.length` (at most the default limit, 20). */
  meanReturned: number | null
  /** Mean size of a reply body, bytes. */
  meanReplyBytes: number | null
  /** `processingTimeMs` by kind of query, and by number of words. */
  serverMsByKind: Record<QueryKind, LatencySummary>
  serverMsByWords: Record<string, LatencySummary>
  /** The 10 queries with the highest median `processingTimeMs` over the rounds. */
  slowest: { q: string; kind: QueryKind; hits: number | null; medianMs: number; maxMs: number }[]
  serverCpuPercent: number | null
}

export interface SearchInProcess {
  ok: boolean
  /** Why it was skipped or failed. */
  note?: string
  rounds: number
  samples: number
  /** performance.now() around `await searchSerialized(engine, uid, query)` (the HTTP route's operation). */
  ms: LatencySummary | null
  /** `processingTimeMs` of the results, if they carry it. */
  processingMs: LatencySummary | null
  /** Engine.open on the closed data directory, seconds. */
  openSeconds: number | null
}

export interface SearchMemory {
  /** VmHWM of the server at the end of the HTTP part (start-up, indexing and search load), MiB. */
  hwmMiB: number | null
  /** Highest VmRSS sampled during the upload and indexing, MiB. */
  indexingPeakMiB: number | null
  /** Highest VmRSS sampled during the latency rounds and the QPS window, MiB. */
  searchPeakMiB: number | null
  idleMiB: number | null
  /** VmRSS right after the QPS window, MiB. */
  afterSearchMiB: number | null
}

export interface SearchResult {
  options: SearchOptions
  serverArgs: string[]
  dataset: DatasetInfo
  indexUid: string
  indexing: SearchIndexing
  /**
   * The same documents indexed again into a second index of the same server once the HTTP part is over (threads
   * started, code compiled: what a server that has been running sees), the index deleted afterwards; null when not
   * run (a remote server, or the first indexing failed).
   */
  indexedAgain: SearchIndexing | null
  queries: {
    count: number
    seed: number
    byKind: Record<QueryKind, number>
    byWords: Record<string, number>
    /** The first 20 queries, with their warm-up hit counts. */
    examples: QueryExample[]
    /** Every query of the mix, in order. */
    all: string[]
  }
  latency: SearchLatency | null
  /** The QPS window at `options.connections` clients (also in `qpsSweep`). */
  qps: LoadResult | null
  /** One QPS window per client count of `options.qpsClients`, in increasing order. */
  qpsSweep: LoadResult[]
  inProcess: SearchInProcess
  memory: SearchMemory
  peers: PeerRun[]
  /** Where the server's CPU profile was written (with --server-cpu-prof). */
  serverCpuProfile?: string
  serverLogTail?: string
  notes: string[]
  totalSeconds: number
}
