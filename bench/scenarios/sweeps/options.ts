/** The sweeps scenario's options (`--quick` scales them down) and the constants its steps share. */

export interface SweepsOptions {
  documents: number
  seed: number
  /** The `pagination.maxTotalHits` values, in sweep order. */
  maxTotalHits: number[]
  /** The `searchCutoffMs` values, ms, in sweep order. */
  cutoffs: number[]
  /** Measured requests per case, after one warm-up. */
  rounds: number
}

export const DEFAULT_SWEEPS_OPTIONS: SweepsOptions = {
  documents: 200_000,
  seed: 0x5eed5,
  maxTotalHits: [1000, 5000, 10_000, 50_000, 100_000],
  cutoffs: [10, 25, 50, 100, 250, 500, 1500],
  rounds: 5,
}

/** `--quick`: 10,000 documents, maxTotalHits up to 10,000, 3 measured requests per case. */
export function quickSweepsOptions(o: SweepsOptions): SweepsOptions {
  return { ...o, documents: 10_000, maxTotalHits: [1000, 5000, 10_000], rounds: 3 }
}

export const PAGE = 20
export const PAYLOAD_DOCUMENTS = 50_000
export const INDEXING_TIMEOUT_MS = 900_000
export const SETTINGS_TIMEOUT_MS = 120_000
export const SEARCH_TIMEOUT_MS = 30_000
