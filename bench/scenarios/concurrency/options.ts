/** The concurrency scenario's options (`--quick` scales them down). */

export interface ConcurrencyOptions {
  /** Short generated documents (bench/data/short-corpus.ts) of the small index the searches run on. */
  smallDocuments: number
  /** The corpus ingested into another index while searching: a name from bench/data/corpora (built), or null for generated documents. */
  ingestCorpus: string | null
  /** Documents of the generated corpus ingested when no real corpus is given or built. */
  ingestGenerated: number
  /** Seconds of one-after-another searches on the idle server (after a warm-up of a second). */
  idleSeconds: number
  /** Distinct queries of the mix, drawn from the small index's documents. */
  queries: number
  seed: number
}

export const DEFAULT_CONCURRENCY_OPTIONS: ConcurrencyOptions = {
  smallDocuments: 20_000,
  ingestCorpus: 'gcide',
  ingestGenerated: 200_000,
  idleSeconds: 5,
  queries: 200,
  seed: 0xc0c0,
}

/** `--quick`: a smaller small index, a generated payload of 30,000 documents, a 2 s idle window. */
export function quickConcurrencyOptions(o: ConcurrencyOptions): ConcurrencyOptions {
  return { ...o, smallDocuments: 5000, ingestCorpus: null, ingestGenerated: 30_000, idleSeconds: 2 }
}

export const TASK_TIMEOUT_MS = 900_000
export const SEARCH_TIMEOUT_MS = 30_000
