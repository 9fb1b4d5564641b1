/** Options of the embeddings scenario (`--embed-docs N`; `--quick` takes fewer). */
export interface EmbeddingsOptions {
  /** Documents embedded through the REST embedder. */
  documents: number
  /** Latency of every answer of the local embedding server, ms. */
  latencyMs: number
  /** Hybrid queries timed, uncached then cached. */
  queries: number
}

export const DEFAULT_EMBEDDINGS_OPTIONS: EmbeddingsOptions = { documents: 50_000, latencyMs: 20, queries: 100 }

export function quickEmbeddingsOptions(): EmbeddingsOptions {
  return { documents: 5_000, latencyMs: 20, queries: 30 }
}
