/**
 * Embedding generation for indexing and search: the vectors of a chunk of documents for every embedder of an
 * index (`generateEmbeddings`, the pool's `generateEmbeddings` job), and the vector of a search query
 * (`embedQueryForSearch`). Both build their embedders through the thread's registry, so a worker keeps its
 * embedders (sockets, loaded models, probed dimensions) from one chunk to the next.
 *
 * Which documents are embedded is embedding-plan.ts's decision; this file renders, embeds and assembles the
 * `DocumentVectors` the vector store writes. A failure is returned as data (`error`: code and message, nothing
 * applied) because errors lose their code on the way back from a worker thread.
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import type { Document } from '../payload/documents.js'
import type { DocumentVectors } from '../vectors/types.js'
import { embedderKind } from './config.js'
import { DocumentTemplate, type RenderContext } from './document-template.js'
import type { EmbedderConfig } from './factory.js'
import { closeIdleEmbedders, embedderFor } from './registry.js'
import type { EmbedderRequests } from './request-stats.js'
import type { Embedder, EmbedderRuntime } from './types.js'
import { missingUserVectors } from './user-vectors.js'
import { generates, planEmbeddings, providedVectors, type PreviousVectors } from './embedding-plan.js'

/** Embedders a thread has not used for this long are closed at its next generation job. */
export const IDLE_EMBEDDER_MS = 10 * 60_000

/** One embedder of the index, as the generation of a chunk needs it. */
export interface GenerateEmbedder {
  settings: EmbedderConfig
  /** Re-embed every generated document even when its text did not change (model, source, URL, ... changed). */
  force?: boolean
  /** The template before a settings change (to compare the texts of `previousDocs` with). */
  previousTemplate?: { documentTemplate?: string; documentTemplateMaxBytes?: number }
}

export interface GenerateInput {
  indexUid: string
  /** The documents as they will be stored (updates merged), `_vectors` as sent: a JSON array (see jobs.ts). */
  docs: string
  /** Their external ids, in order (named in errors). */
  ids: string[]
  /** The index's embedders by name (`userProvided` ones only check that documents bring vectors). */
  embedders: Record<string, GenerateEmbedder>
  /** Per document and embedder, what the store holds; a null entry (or none): a new document. */
  previous?: (Record<string, PreviousVectors> | null)[]
  /** The stored versions of changed documents (JSON array, null for new ones), when no text hash is stored. */
  previousDocs?: string
  /** `fields` of the templates: the index's top-level fields in order, and which are searchable (null: all). */
  fieldNames?: string[]
  searchable?: string[] | null
  runtime?: EmbedderRuntime
}

export interface GeneratedEmbeddings {
  /** Per document, the vectors generated for it (embedders whose stored vectors stay are absent). */
  vectors: DocumentVectors[]
  /** Per document and generated embedder, the hash of the text embedded (for `PreviousVectors.textHash`). */
  textHashes: Record<string, string>[]
  /** Requests sent, by embedder. */
  requests: Record<string, EmbedderRequests>
  /** The failure that stops the batch (`vector_embedding_error`, `invalid_document_fields`, ...). */
  error?: { code: ErrorCode; message: string }
}

/** `fields[].is_searchable` of a template: `*`, the field, a parent of it or a child of it is searchable. */
export function searchableTest(searchable: readonly string[] | null | undefined): (field: string) => boolean {
  if (!searchable || searchable.includes('*')) return () => true
  return (field) => searchable.some((s) => s === field || s.startsWith(`${field}.`) || field.startsWith(`${s}.`))
}

function renderContext(input: Pick<GenerateInput, 'fieldNames' | 'searchable'>): Omit<RenderContext, 'documentId'> {
  return { fieldNames: input.fieldNames, isSearchable: searchableTest(input.searchable) }
}

/**
 * The vectors of one chunk of documents. Rejects only with the signal's reason (a cancelation); every other
 * failure comes back in `error`, with the requests counted so far.
 */
export async function generateEmbeddings(input: GenerateInput, options: { signal?: AbortSignal } = {}): Promise<GeneratedEmbeddings> {
  // What this thread built for indexes deleted since, or embedders long unused, is let go (sockets, model sessions).
  await closeIdleEmbedders(IDLE_EMBEDDER_MS)
  const docs = JSON.parse(input.docs) as Document[]
  const previousDocs = input.previousDocs === undefined ? [] : (JSON.parse(input.previousDocs) as (Document | null)[])
  const out: GeneratedEmbeddings = { vectors: docs.map(() => ({})), textHashes: docs.map(() => ({})), requests: {} }
  const context = renderContext(input)
  for (const [name, entry] of Object.entries(input.embedders)) {
    const previousOf = (at: number) => input.previous?.[at]?.[name]
    try {
      if (embedderKind(entry.settings.source) === 'userProvided') {
        checkUserVectors(name, Object.keys(input.embedders), docs, input.ids, input.previous)
        continue
      }
      const embedder = await embedderFor(input.indexUid, name, entry.settings, input.runtime)
      // Requests counted before this chunk (queries, a dimension probe) are not the batch's.
      embedder.requests.take()
      const template = embedder.documentTemplate ?? DocumentTemplate.compile()
      const previousTemplate = entry.previousTemplate ? DocumentTemplate.compile(entry.previousTemplate.documentTemplate, entry.previousTemplate.documentTemplateMaxBytes) : undefined
      const planned = planEmbeddings(docs.map((doc, at) => ({ doc, id: input.ids[at]!, previous: previousOf(at), previousDoc: previousDocs[at] ?? undefined })), {
        name, template, previousTemplate, context, force: entry.force === true,
      })
      try {
        // All of the chunk's texts at once: the embedder keeps its requests full up to its concurrency limit, with no
        // pause for the slowest request of a slice.
        const vectors = await embedder.embedDocuments(planned.map((p) => p.text), { signal: options.signal })
        planned.forEach((p, i) => {
          out.vectors[p.at]![name] = { embeddings: [vectors[i]!], userProvided: false, regenerate: true }
          out.textHashes[p.at]![name] = p.hash
        })
      } finally {
        out.requests[name] = embedder.requests.take()
      }
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason
      if (err instanceof TesseraError) return { ...out, error: { code: err.code, message: err.message } }
      throw err
    }
  }
  return out
}

/**
 * A `userProvided` embedder's check of a chunk: new documents must bring vectors (or opt out); a changed one keeps
 * what it has unless it asks to regenerate. Throws Meilisearch's error naming the chunk's documents that do not.
 */
export function checkUserVectors(name: string, embedders: readonly string[], docs: readonly Document[], ids: readonly string[], previous: GenerateInput['previous']): void {
  const needsVectors = (doc: Document, at: number) => {
    const provided = providedVectors(doc, name)
    return previous?.[at] == null ? generates(provided, undefined) : provided.kind === 'flag' && provided.regenerate
  }
  const missing = docs.map((doc, at) => ({ doc, at })).filter(({ doc, at }) => needsVectors(doc, at))
  if (missing.length > 0) throw missingUserVectors(name, embedders, missing.map((m) => ({ doc: m.doc, id: ids[m.at]! })), docs)
}

/** Every request count of `all` summed (a batch reports one `embedderRequests` for all its embedders). */
export function totalRequests(all: Iterable<EmbedderRequests>): EmbedderRequests {
  const total: EmbedderRequests = { total: 0, failed: 0, lastError: null }
  for (const r of all) {
    total.total += r.total
    total.failed += r.failed
    if (r.lastError !== null) total.lastError = r.lastError
  }
  return total
}

// ---- queries --------------------------------------------------------------------------------------------------

let queryRuntime: EmbedderRuntime = {}

/** The runtime options query embedders of this thread are built with (set once from the configuration). */
export function setEmbedderRuntime(runtime: EmbedderRuntime): void {
  queryRuntime = runtime
}

export function embedderRuntime(): EmbedderRuntime {
  return queryRuntime
}

/**
 * The embedder `name` of `indexUid` as this thread's queries use it (built with the thread's runtime). With
 * `knownDimensions` (the index's stored vectors), a remote embedder without `dimensions` needs no probe.
 */
export function queryEmbedder(indexUid: string, name: string, settings: EmbedderConfig, knownDimensions?: number): Promise<Embedder> {
  return embedderFor(indexUid, name, settings, knownDimensions === undefined ? queryRuntime : { ...queryRuntime, knownDimensions })
}
