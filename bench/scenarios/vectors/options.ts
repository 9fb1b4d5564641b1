/** Options of the vectors scenario (`--vectors N`, `--vector-queries N`; `--quick` takes fewer). */
export interface VectorsOptions {
  /** Generated vectors (384 dimensions, 100 clusters of different spreads). */
  count: number
  /** Queries, plain and filtered. */
  queries: number
  /** Concurrent clients of the QPS window. */
  clients: number
  /** QPS window, seconds. */
  seconds: number
}

export const DEFAULT_VECTORS_OPTIONS: VectorsOptions = { count: 100_000, queries: 1000, clients: 16, seconds: 5 }

export function quickVectorsOptions(): VectorsOptions {
  return { count: 2_000, queries: 50, clients: 16, seconds: 2 }
}
