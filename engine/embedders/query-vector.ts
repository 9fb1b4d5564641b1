/**
 * The vector of a search query's text, for a hybrid or semantic search that gives `q` but no `vector`. A
 * `userProvided` embedder cannot embed anything: Meilisearch's `ManualEmbed` error. The other sources go through
 * `embedQueryForSearch` (generate.ts: the query cache, the search's deadline).
 */
import { TesseraError } from '../errors/index.js'
import { embedderKind } from './config.js'
import type { EmbedderConfig } from './factory.js'
import { embedQueryForSearch } from './generate.js'

export interface QueryEmbedOptions {
  deadline?: number
  signal?: AbortSignal
}

export function embeddingError(detail: string): TesseraError {
  return new TesseraError('vector_embedding_error', `Error while generating embeddings: ${detail}`)
}

export async function queryVector(indexUid: string, embedderName: string, settings: EmbedderConfig, q: string, opts: QueryEmbedOptions = {}): Promise<Float32Array> {
  if (embedderKind(settings.source) === 'userProvided') {
    throw embeddingError(`user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${q}\``)
  }
  return embedQueryForSearch(indexUid, embedderName, settings, q, opts)
}
