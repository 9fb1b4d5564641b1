/**
 * Embedding generation inside an index batch: what the additions and the settings reindex hand to the embedders
 * (embedders/generate-chunks.ts, in the worker pool), and what comes back (generated `DocumentVectors`, or the
 * failure that fails the batch with nothing applied). Request counts add up on the batch for its
 * `stats.embedderRequests`.
 */
import { TesseraError } from '../errors/index.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Document } from '../payload/documents.js'
import type { EmbedderSettings, Settings } from '../settings/index.js'
import type { DocumentVectors } from '../vectors/types.js'
import type { VectorDraft } from '../vectors/draft.js'
import { embeddingRunner } from '../pool/jobs.js'
import { embedderKind } from '../embedders/config.js'
import { checkAllUserVectors, embedderRuntime, generateAll, type GenerateEmbedder, type PreviousVectors } from '../embedders/index.js'
import type { IndexBatch } from './index-batch.js'

/** One document to consider for generation. */
export interface PendingDocument {
  /** External id (named in errors). */
  id: string
  /** The document as stored after the change, with the `_vectors` the change itself brings (not the stored ones). */
  doc: Document
  /** The state of its stored vectors per embedder; null for a new document. */
  previous: Record<string, PreviousVectors> | null
  /** The previous version, for a changed document (its text decides whether to embed again). */
  previousDoc: Document | null
}

/** Whether any embedder of `settings` has to look at documents (every source does: `userProvided` checks them). */
export function hasEmbedders(settings: Settings): boolean {
  return Object.keys(settings.embedders).length > 0
}

/** The document with `_vectors` as the change brings them: `given`'s when it has some, none otherwise. */
export function withGivenVectors(stored: Document, given: Document | null): Document {
  const { _vectors: _, ...rest } = stored
  return given && given._vectors !== undefined ? { ...rest, _vectors: given._vectors } : rest
}

/** The stored state of a document's vectors per embedder (absent: nothing stored for that embedder). */
export function previousVectors(draft: VectorDraft, docid: number, names: readonly string[]): Record<string, PreviousVectors> {
  const out: Record<string, PreviousVectors> = {}
  for (const name of names) {
    const entry = draft.entry(name, docid)
    if (entry !== undefined) out[name] = { regenerate: entry.regenerate }
  }
  return out
}

/**
 * The generated vectors of `pending`, in order, for `embedders` (default: all of the index's). Throws the
 * embedders' error (`vector_embedding_error`, `invalid_document_fields`) or `BatchAborted`'s cause on cancelation.
 *
 * While remote or local embedders work, the batch's progress shows milli's `extracting embeddings` step with the
 * documents done out of `progressTotal` (default: the documents the batch received, or these when it received
 * none), counting on from the batch's earlier calls.
 */
export async function generateVectors(
  batch: IndexBatch, meta: IndexMeta, pending: readonly PendingDocument[], embedders?: Record<string, GenerateEmbedder>, progressTotal?: number,
): Promise<DocumentVectors[]> {
  const settings = batch.settingsOf(meta)
  const chosen = embedders ?? Object.fromEntries(Object.entries(settings.embedders).map(([name, s]) => [name, { settings: s } as GenerateEmbedder]))
  if (pending.length === 0 || Object.keys(chosen).length === 0) return pending.map(() => ({}))
  // `userProvided` embedders only check that documents bring vectors: cheaper here than a hop to a worker.
  const generating = Object.values(chosen).some((e) => embedderKind(e.settings.source) !== 'userProvided')
  if (!generating) {
    checkAllUserVectors({ docs: pending.map((p) => p.doc), ids: pending.map((p) => p.id), previous: pending.map((p) => p.previous), embedders: chosen })
    return pending.map(() => ({}))
  }
  const counted = generating ? batch.deps.progress?.during('extracting embeddings', 'document', progressTotal ?? (batch.deps.receivedDocuments || pending.length)) : undefined
  const result = await generateAll({
    indexUid: meta.uid,
    docs: pending.map((p) => p.doc),
    ids: pending.map((p) => p.id),
    previous: pending.map((p) => p.previous),
    previousDocs: pending.some((p) => p.previousDoc !== null) ? pending.map((p) => p.previousDoc) : undefined,
    embedders: chosen,
    // Templates list a document's `fields` in the index's field order, whatever order its keys came in.
    fieldNames: batch.docs(meta).fieldNames(),
    searchable: settings.searchableAttributes,
    runtime: embedderRuntime(),
  }, embeddingRunner(generating ? batch.deps.pool : undefined), {
    signal: batch.deps.signal, parallel: generating ? batch.deps.pool?.threads ?? 1 : 1, onChunk: (n) => counted?.add(n),
  }).finally(() => counted?.end())
  for (const requests of Object.values(result.requests)) batch.countEmbedderRequests(requests)
  if (result.error) throw new TesseraError(result.error.code, result.error.message)
  return result.vectors
}

/** How much of an index's documents a change of one embedder's settings re-embeds. */
export type Reembedding = 'none' | 'changedTexts' | 'all'

/**
 * Meilisearch's reindex actions: a new embedder, or a change of what produces the vectors (source, model,
 * revision, pooling, URL, request, response, dimensions, a composite's indexing side) re-embeds every generated
 * document; a template change re-embeds those whose text changed; the rest (API key, headers, distribution,
 * the search side) none.
 */
export function reembedding(old: EmbedderSettings | undefined, next: EmbedderSettings): Reembedding {
  if (embedderKind(next.source) === 'userProvided') return 'none'
  if (old === undefined || embedderKind(old.source) !== embedderKind(next.source)) return 'all'
  const same = (key: keyof EmbedderSettings) => JSON.stringify(old[key]) === JSON.stringify(next[key])
  for (const key of ['model', 'revision', 'pooling', 'url', 'request', 'response', 'dimensions', 'indexingEmbedder'] as const) if (!same(key)) return 'all'
  if (!same('documentTemplate') || !same('documentTemplateMaxBytes')) return 'changedTexts'
  return 'none'
}
