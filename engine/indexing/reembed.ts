/**
 * Re-embedding after a change of `embedders` settings (after the vector store's own reindex: dropped, cleared and
 * user-provided vectors): every embedder whose change needs new vectors (`reembedding`) embeds the documents again,
 * in windows, through the pool — all of them for a new embedder or a new model, source or URL, only those whose
 * rendered text changed for a template change. User-provided vectors (`regenerate: false`) stay.
 */
import type { IndexMeta } from '../indexes/catalog.js'
import type { Document } from '../payload/documents.js'
import { readSettings } from '../settings/index.js'
import { documentId } from '../documents/ids.js'
import { embedderFor, embedderRuntime, type GenerateEmbedder } from '../embedders/index.js'
import { storeDocumentVectors } from '../vectors/write.js'
import type { IndexBatch } from './index-batch.js'
import { generateVectors, previousVectors, reembedding, type PendingDocument } from './generate-vectors.js'

/** Documents read before one generation call: enough to keep every pool thread busy, bounded in memory. */
const WINDOW = 4096

/** `_vectors` without the entries that ask to be regenerated: those are the embedder's to replace. */
function keptVectors(doc: Document): Document {
  const raw = doc._vectors
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return doc
  const kept = Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([, v]) => !(v !== null && typeof v === 'object' && !Array.isArray(v) && (v as { regenerate?: unknown }).regenerate === true)))
  return { ...doc, _vectors: kept }
}

export async function reembed(batch: IndexBatch, meta: IndexMeta): Promise<void> {
  const before = readSettings(batch.deps.store, meta.id).embedders
  const after = batch.settingsOf(meta).embedders
  const chosen: Record<string, GenerateEmbedder> = {}
  for (const [name, settings] of Object.entries(after)) {
    const kind = reembedding(before[name], settings)
    if (kind === 'none') continue
    const old = before[name]
    if (kind === 'all') {
      // As Meilisearch, a new or changed embedder is built when the settings are applied: an unreachable server, a
      // failed dimension probe, a missing model or disagreeing composite halves fail the settings task, documents
      // or not. It is built in this thread, where it then serves the index's queries.
      await embedderFor(meta.uid, name, settings, embedderRuntime())
    }
    chosen[name] = kind === 'all' ? { settings, force: true } : { settings, previousTemplate: { documentTemplate: old!.documentTemplate, documentTemplateMaxBytes: old!.documentTemplateMaxBytes } }
  }
  const names = Object.keys(chosen)
  if (names.length === 0 || meta.primaryKey === null) return
  const vectors = await batch.vectorsDraft(meta)
  let window: { docid: number; pending: PendingDocument }[] = []
  const flush = async () => {
    const generated = await generateVectors(batch, meta, window.map((w) => w.pending), chosen, batch.docs(meta).count)
    window.forEach((w, i) => storeDocumentVectors(vectors, w.docid, {}, generated[i]))
    window = []
  }
  for await (const [, docid, doc] of batch.docs(meta).scan()) {
    batch.checkAborted()
    const current = keptVectors(doc)
    window.push({ docid, pending: { id: documentId(doc, meta.primaryKey), doc: current, previous: previousVectors(vectors, docid, names), previousDoc: current } })
    if (window.length >= WINDOW) await flush()
  }
  if (window.length > 0) await flush()
}
