/**
 * The vector side of a settings change of `embedders`, done before the batch's commit: a removed embedder's vectors
 * go, its user-provided ones written back into the documents' `_vectors` as `{embeddings, regenerate: false}` (as
 * milli's `WriteBackToDocuments` does: the vector store held them, the documents did not); an embedder whose
 * dimensions changed starts over from its user-provided vectors written back the same way; a new embedder (or one starting over) takes the vectors the documents carry in
 * `_vectors` for it, and those entries leave the stored documents (the vector store holds them now); turning
 * `binaryQuantized` on converts the stored vectors in the draft's final step. Everything lands in the batch's one
 * atomic commit, so searches see the old vectors or the new ones, never a mix.
 */
import type { IndexMeta } from '../indexes/catalog.js'
import { providedVectors, withoutEmbedderVectors } from '../vectors/document.js'
import { shownEmbeddings } from '../vectors/output.js'
import type { VectorSpace } from '../vectors/space.js'
import { documentId } from '../documents/ids.js'
import type { IndexBatch } from './index-batch.js'

export async function reindexVectors(batch: IndexBatch, meta: IndexMeta): Promise<void> {
  const vectors = await batch.vectorsDraft(meta)
  const embedders = batch.settingsOf(meta).embedders
  const fresh: string[] = []
  for (const [name, space] of vectors.base) {
    const settings = embedders[name]
    if (!settings) {
      await writeBack(batch, meta, space)
      vectors.drop(name)
    } else if (settings.dimensions !== undefined && settings.dimensions !== space.dims) {
      // Starting over reads the documents' `_vectors`, and only the store holds the user-provided ones: write them
      // back first, so that vectors of the old length fail the task with `invalid_vector_dimensions` (nothing
      // applied) instead of vanishing.
      await writeBack(batch, meta, space)
      vectors.clear(name)
      fresh.push(name)
    }
  }
  for (const name of Object.keys(embedders)) if (!vectors.base.has(name)) fresh.push(name)
  if (fresh.length === 0 || meta.primaryKey === null) return
  const only = Object.fromEntries(fresh.map((n) => [n, embedders[n]!]))
  const docs = batch.docs(meta)
  // The documents to rewrite are noted by internal id and read again after the scan: holding them would hold the
  // whole index in memory when every document carries vectors for the new embedder.
  const rewrites: number[] = []
  for await (const [, docid, doc] of docs.scan()) {
    batch.checkAborted()
    if (doc._vectors === undefined) continue
    const id = documentId(doc, meta.primaryKey)
    const provided = providedVectors(doc, id, only, () => undefined)
    if (Object.keys(provided).length > 0) vectors.set(docid, provided)
    if (withoutEmbedderVectors(doc, only) !== doc) rewrites.push(docid)
  }
  for (const docid of rewrites) {
    batch.checkAborted()
    const doc = docs.read(docid)
    if (doc) await docs.put(documentId(doc, meta.primaryKey), withoutEmbedderVectors(doc, only))
  }
}

/** A removed embedder's user-provided vectors back into their documents' `_vectors`; generated ones are dropped. */
async function writeBack(batch: IndexBatch, meta: IndexMeta, space: VectorSpace): Promise<void> {
  if (meta.primaryKey === null) return
  const docs = batch.docs(meta)
  for (const [docid, entry] of space.entries) {
    batch.checkAborted()
    const doc = docs.read(docid)
    if (!doc) continue
    // An old row may still carry the entry as it was sent: the store's version replaces it.
    const own = withoutEmbedderVectors(doc, { [space.name]: true })
    if (!entry.userProvided || entry.slots.length === 0) {
      if (own !== doc) await docs.put(documentId(doc, meta.primaryKey), own)
      continue
    }
    const embeddings = shownEmbeddings(space, entry)
    const others = (own._vectors ?? {}) as Record<string, unknown>
    await docs.put(documentId(doc, meta.primaryKey), { ...own, _vectors: { ...others, [space.name]: { embeddings, regenerate: false } } })
  }
}
