/** Options of the embeddings scenario (`--embed-docs N`; `--quick` takes fewer). */
export interface EmbeddingsOptions {
  /** Documents embedded through the REST embedder. */
  documents: number
  /** Latency of every answer of the local embedding server, ms. */
  latencyMs: number
  /** Hybrid queries timed, uncached then cached. */
  queries: number
  /** Documents embedded by the generated local model, per run. */
  localDocuments: number
  /** Runs of the local model per pool size (the median is reported). */
  localRuns: number
}

export const DEFAULT_EMBEDDINGS_OPTIONS: EmbeddingsOptions = { documents: 50_000, latencyMs: 20, queries: 100, localDocuments: 5_000, localRuns: 3 }

export function quickEmbeddingsOptions(): EmbeddingsOptions {
  return { documents: 5_000, latencyMs: 20, queries: 30, localDocuments: 1_000, localRuns: 1 }
}
