/**
 * The vector of a search query's text, for a hybrid or semantic search that gives `q` but no `vector`, bounded in
 * time as Meilisearch bounds it: a hybrid search gives its embedder 3 s (then falls back to keyword hits), a
 * semantic one 10 s (then answers the error). Remote embedders stop retrying and shorten their request timeout at
 * that deadline (http-client.ts).
 *
 * Beyond Meilisearch: the deadline also bounds the wait for the embedder itself. An embedder this thread has not
 * built yet (after a restart, a settings change) is built on first use; building a remote one without
 * `dimensions` probes the server with the full retry schedule (minutes against a failing server) and a local
 * model loads for seconds. The search stops waiting at its deadline with `vector_embedding_error`; the build
 * goes on, shared by the searches after it, and is forgotten if it fails. No probe at all is needed when the
 * index already stores vectors of the embedder: their length is passed as the known dimensions.
 */
import { TesseraError } from '../errors/index.js'
import { embedderKind } from './config.js'
import type { EmbedderConfig } from './factory.js'
import { embedderRuntime, queryEmbedder } from './generate.js'
import type { Embedder } from './types.js'

/** Meilisearch's query embedding deadlines (milli's hybrid search; the semantic-only search of `search/mod.rs`). */
export const HYBRID_QUERY_DEADLINE_MS = 3_000
export const SEMANTIC_QUERY_DEADLINE_MS = 10_000

export interface QueryEmbedOptions {
  /** Epoch ms: past it, no retry is made and a build still running is not waited for. */
  deadline?: number
  signal?: AbortSignal
  /** Length of the vectors the index stores for the embedder, if any (spares a dimension probe). */
  knownDimensions?: number
}

/**
 * The deadline of a query embedding that starts now, for a semantic-only (`true`) or a hybrid search: Meilisearch's
 * unless the runtime sets others (`EmbedderRuntime.queryDeadlinesMs`).
 */
export function queryDeadline(semanticOnly: boolean, now = Date.now(), deadlines = embedderRuntime().queryDeadlinesMs): number {
  return now + (semanticOnly ? deadlines?.semantic ?? SEMANTIC_QUERY_DEADLINE_MS : deadlines?.hybrid ?? HYBRID_QUERY_DEADLINE_MS)
}

export function embeddingError(detail: string): TesseraError {
  return new TesseraError('vector_embedding_error', `Error while generating embeddings: ${detail}`)
}

/** `building`, or `vector_embedding_error` at `deadline` if it is still under way (it goes on for later searches). */
async function readyBy(building: Promise<Embedder>, name: string, deadline: number | undefined, signal?: AbortSignal): Promise<Embedder> {
  if (deadline === undefined && signal === undefined) return building
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const stop = new Promise<never>((_, reject) => {
    if (deadline !== undefined) {
      timer = setTimeout(() => reject(embeddingError(`runtime error: embedder \`${name}\` was not ready before the search's deadline (still probing its dimensions or loading its model)`)), Math.max(0, deadline - Date.now()))
    }
    if (signal) {
      onAbort = () => reject(signal.reason)
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    }
  })
  try {
    return await Promise.race([building, stop])
  } finally {
    clearTimeout(timer)
    if (onAbort) signal!.removeEventListener('abort', onAbort)
  }
}

export async function queryVector(indexUid: string, embedderName: string, settings: EmbedderConfig, q: string, opts: QueryEmbedOptions = {}): Promise<Float32Array> {
  if (embedderKind(settings.source) === 'userProvided') {
    throw embeddingError(`user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${q}\``)
  }
  const building = queryEmbedder(indexUid, embedderName, settings, opts.knownDimensions)
  // A build that fails after the search stopped waiting must not be an unhandled rejection.
  building.catch(() => undefined)
  const embedder = await readyBy(building, embedderName, opts.deadline, opts.signal)
  return embedder.embedQuery(q, { deadline: opts.deadline, signal: opts.signal })
}
