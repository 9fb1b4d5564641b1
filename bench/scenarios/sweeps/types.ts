/** What the sweeps scenario measures: the indexing, one row per maxTotalHits request and per searchCutoffMs query. */
import type { LatencySummary } from '../../harness/latency.js'
import type { SweepsOptions } from './options.js'

export interface SweepsIndexing {
  ok: boolean
  error?: string
  payloads: number
  bytes: number
  /** Generating and serializing the corpus (client side, before the first request). */
  generateSeconds: number
  /** First payload sent → every task succeeded. */
  seconds: number
  docsPerSecond: number | null
  /** The index's `numberOfDocuments` afterwards. */
  numberOfDocuments: number | null
}

export interface MaxTotalHitsRow {
  maxTotalHits: number
  /** The request kind (`placeholder-first`, `placeholder-deep`, `word-first`, `word-deep`, `word-last-page`). */
  request: string
  /** The request body (without `attributesToRetrieve`). */
  body: Record<string, unknown>
  /** Documents skipped: `offset`, or (page − 1) × hitsPerPage. */
  offset: number
  roundTripMs: LatencySummary
  processingTimeMs: LatencySummary
  /** Fewest hits returned over the measured requests. */
  hitsReturned: number
  /** Hits that should be returned: min(20, min(maxTotalHits, matchingDocuments) − offset), at least 0. */
  hitsReachable: number
  /** hitsReturned ÷ hitsReachable; null when nothing is reachable (the offset is past the last match). */
  completeness: number | null
  /** The request's matching documents, uncapped (the reference pass). */
  matchingDocuments: number | null
  /** `estimatedTotalHits` (offset/limit) or `totalHits` (page/hitsPerPage) of the last reply. */
  reportedTotalHits: number | null
  /** `totalPages` of the last reply (page/hitsPerPage only). */
  reportedTotalPages: number | null
  /** Share of the returned ids equal to those of the same request with maxTotalHits uncapped; null without one. */
  sameAsUncappedRatio: number | null
  errors: number
  error?: string
}

export interface CutoffQuery {
  id: string
  description: string
  body: Record<string, unknown>
  /** Answers with the setting unset (the default, 1500 ms). */
  reference: {
    ids: unknown[]
    estimatedTotalHits: number | null
    /** Median `processingTimeMs` of the reference requests: the query's uncut cost. */
    processingTimeMs: number | null
    roundTripMs: number | null
    /** Whether every reference request returned the same top 20. */
    stable: boolean
  } | null
  error?: string
}

export interface CutoffRow {
  cutoffMs: number
  query: string
  roundTripMs: LatencySummary
  processingTimeMs: LatencySummary
  /** |top-20 ∩ reference top-20| ÷ |reference top-20|, mean and minimum over the measured requests. */
  completenessMean: number | null
  completenessMin: number | null
  /** `estimatedTotalHits` ÷ the reference's, mean over the measured requests. */
  totalHitsRatioMean: number | null
  /** The cutoff bound: the median `processingTimeMs` reached it (the search ran until the deadline). */
  bound: boolean
  errors: number
  error?: string
}

export interface SweepsResult {
  options: SweepsOptions
  remote: boolean
  indexUid: string
  searchableAttributes: string[]
  indexing: SweepsIndexing
  /** The most frequent word of the corpus: the `q` of the `word-*` requests. */
  frequentWord: string
  maxTotalHitsRows: MaxTotalHitsRow[]
  cutoffQueries: CutoffQuery[]
  cutoffRows: CutoffRow[]
  /** No row's median `processingTimeMs` reached its cutoff. */
  cutoffNeverBound: boolean
  /** The server's VmHWM at the end (local target only), MiB. */
  peakRssMiB: number | null
  notes: string[]
  totalSeconds: number
}
