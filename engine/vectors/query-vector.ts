/**
 * The vector of a search query's text, for a hybrid or semantic search that gives `q` but no `vector`. A
 * `userProvided` embedder cannot embed anything: Meilisearch's `ManualEmbed` error. The other sources go through
 * the embedders' `embedQueryForSearch` (engine/embedders/generate.ts, issue 20) once it exists; until then they
 * fail the same way a failing embedder does (a hybrid search then falls back to keyword results).
 */
import { TesseraError } from '../errors/index.js'
import { embedderKind, type EmbedderSettings } from '../settings/index.js'

export interface QueryEmbedOptions {
  deadline?: number
  signal?: AbortSignal
}

type EmbedQuery = (indexUid: string, embedderName: string, settings: EmbedderSettings, q: string, opts: QueryEmbedOptions) => Promise<Float32Array>

/** Where the embedders' query entry lives; looked up at run time so this file builds before it exists. */
const GENERATE_MODULE = '../embedders/generate.js'
let embedQuery: Promise<EmbedQuery | null> | null = null

function embedderEntry(): Promise<EmbedQuery | null> {
  embedQuery ??= import(GENERATE_MODULE)
    .then((m: { embedQueryForSearch?: EmbedQuery }) => m.embedQueryForSearch ?? null)
    .catch(() => null)
  return embedQuery
}

export function embeddingError(detail: string): TesseraError {
  return new TesseraError('vector_embedding_error', `Error while generating embeddings: ${detail}`)
}

export async function queryVector(indexUid: string, embedderName: string, settings: EmbedderSettings, q: string, opts: QueryEmbedOptions = {}): Promise<Float32Array> {
  if (embedderKind(settings.source) === 'userProvided') {
    throw embeddingError(`user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${q}\``)
  }
  const embed = await embedderEntry()
  if (!embed) throw embeddingError(`runtime error: embedder \`${embedderName}\` cannot embed queries in this build`)
  return embed(indexUid, embedderName, settings, q, opts)
}
