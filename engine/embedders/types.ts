/**
 * The embedders' glossary: the one interface every source implements, the runtime options an embedder is built
 * with, and the Tessera-only tuning fields of remote embedders. Everything an embedder is built from is plain
 * data (settings + `EmbedderRuntime`), so a worker thread builds its own from what it receives; nothing with a
 * function crosses threads.
 */
import type { Distribution, EmbedderKind } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import type { AllowedIpNetworks } from './ip-policy.js'
import type { RequestStats } from './request-stats.js'

export interface EmbedOptions {
  /** Cancels the call (a canceled task): requests in flight are destroyed; rejects with the signal's reason. */
  signal?: AbortSignal
  /** Epoch ms past which remote embedders stop retrying (a search's cutoff). */
  deadline?: number
}

export interface Embedder {
  /** The embedder's name in the index settings (named in errors). */
  readonly name: string
  readonly kind: EmbedderKind
  /** Length of every vector it produces (from the settings, the model, or a probe request made at creation). */
  readonly dimensions: number
  /** The score correction of semantic hits: the settings' `distribution`, else the model's known one, else null. */
  readonly distribution: Distribution | null
  /** The document template (of the indexing embedder for a composite); null for `userProvided`. */
  readonly documentTemplate: DocumentTemplate | null
  /** How many texts to hand `embedDocuments` at once for it to keep its requests full and parallel. */
  readonly chunkHint: number
  /** Request counts since the last `requests.take()` (remote sources; zeros for the others). */
  readonly requests: RequestStats
  /**
   * Vectors of document texts, in order. Fails with `vector_embedding_error`
   * (``While embedding documents for embedder `name`: …``).
   */
  embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>
  /** Vector of a search query (through the query cache). Fails with `Error while generating embeddings: …`. */
  embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array>
  /** Free sockets and model sessions. */
  close(): Promise<void>
}

/**
 * Tessera-only settings of remote embedders (`rest`, `hostedAi`, `localServer`), proposed as embedder settings
 * fields. All optional; the defaults are Meilisearch's behaviour.
 */
export interface RemoteTuning {
  /**
   * Texts per request when the request template repeats (`{{..}}`; always the case for `hostedAi` and for
   * `localServer` on `/api/embed`). Default 10 (Meilisearch's). A single-text template always sends 1.
   */
  batchSize?: number
  /** Requests in flight at once per embedder (in one thread). Default 40 (Meilisearch's `REQUEST_PARALLELISM`). */
  maxConcurrentRequests?: number
  /** Requests started per minute; unlimited when absent. Example: 3000 for a provider's tier limit. */
  requestsPerMinute?: number
  /** Estimated input tokens (≈ UTF-8 bytes / 4) sent per minute; unlimited when absent. */
  tokensPerMinute?: number
}

/** The process-level options every embedder of a thread is built with (from the CLI and environment). */
export interface EmbedderRuntime {
  /** Folder of `localHub` models (`<model>/config.json`, `tokenizer.json`, `onnx/model.onnx`). Default `./models`. */
  modelsPath?: string
  /** Let `localHub` download missing models from the hub into `modelsPath`. Default false. */
  allowRemoteModels?: boolean
  /** `--experimental-allowed-ip-networks`: non-global addresses remote embedders may reach. Default none. */
  allowedIpNetworks?: AllowedIpNetworks
  /** `--experimental-rest-embedder-timeout-seconds`, in ms: timeout of one request. Default 30 000. */
  requestTimeoutMs?: number
  /** Cap of one wait between retries, in ms (Meilisearch's `…_MAX_RETRY_DURATION_SECONDS`). Default 60 000. */
  maxRetryDurationMs?: number
  /** Attempts after the first failed one. Default 10. */
  retries?: number
  /** `--experimental-embedding-cache-entries`: query vectors cached per embedder. Default 0 (off). */
  queryCacheEntries?: number
  /** Largest response body accepted from an embedding server, in bytes. Default 32 MiB. */
  maxResponseBytes?: number
  /**
   * Environment read for `HOSTED_AI_API_KEY` and `LOCAL_SERVER_URL`. Default `process.env` (a worker thread gets a
   * copy of the parent's).
   */
  env?: Readonly<Record<string, string | undefined>>
  /**
   * Dimensions already found by a probe in another thread (same settings): skips this thread's probe request.
   * Ignored when the settings give `dimensions`.
   */
  knownDimensions?: number
  /**
   * How long a search waits for its query's vector, in ms: Meilisearch's 3 s for a hybrid search (then keyword
   * hits), 10 s for a semantic one (then `vector_embedding_error`); see query-vector.ts. Env only
   * (`TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS`, `TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS`): the tests
   * of a failing embedder set them low rather than wait them out.
   */
  queryDeadlinesMs?: { hybrid?: number; semantic?: number }
}

/** `runtime` with every default applied. */
export type ResolvedRuntime = Required<Omit<EmbedderRuntime, 'knownDimensions' | 'queryDeadlinesMs'>> & Pick<EmbedderRuntime, 'knownDimensions' | 'queryDeadlinesMs'>

export function resolveRuntime(runtime: EmbedderRuntime = {}): ResolvedRuntime {
  return {
    modelsPath: runtime.modelsPath ?? 'models',
    allowRemoteModels: runtime.allowRemoteModels ?? false,
    allowedIpNetworks: runtime.allowedIpNetworks ?? [],
    requestTimeoutMs: runtime.requestTimeoutMs ?? 30_000,
    maxRetryDurationMs: runtime.maxRetryDurationMs ?? 60_000,
    retries: runtime.retries ?? 10,
    queryCacheEntries: runtime.queryCacheEntries ?? 0,
    maxResponseBytes: runtime.maxResponseBytes ?? 32 * 1024 * 1024,
    env: runtime.env ?? process.env,
    knownDimensions: runtime.knownDimensions,
  }
}
