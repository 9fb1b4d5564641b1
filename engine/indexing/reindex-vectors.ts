/**
 * The vector side of a settings change of `embedders`, done before the batch's commit: a removed embedder's vectors
 * go; an embedder whose dimensions changed starts over; a new embedder (or one starting over) takes the vectors the
 * documents already carry in `_vectors` for it; turning `binaryQuantized` on converts the stored vectors in the
 * draft's final step. Everything lands in the batch's one atomic commit, so searches see the old vectors or the
 * new ones, never a mix.
 */
import type { IndexMeta } from '../indexes/catalog.js'
import { providedVectors } from '../vectors/document.js'
import { documentId } from '../documents/ids.js'
import type { IndexBatch } from './index-batch.js'

export async function reindexVectors(batch: IndexBatch, meta: IndexMeta): Promise<void> {
  const vectors = await batch.vectorsDraft(meta)
  const embedders = batch.settingsOf(meta).embedders
  const fresh: string[] = []
  for (const [name, space] of vectors.base) {
    const settings = embedders[name]
    if (!settings) vectors.drop(name)
    else if (settings.dimensions !== undefined && settings.dimensions !== space.dims) {
      vectors.clear(name)
      fresh.push(name)
    }
  }
  for (const name of Object.keys(embedders)) if (!vectors.base.has(name)) fresh.push(name)
  if (fresh.length === 0 || meta.primaryKey === null) return
  const only = Object.fromEntries(fresh.map((n) => [n, embedders[n]!]))
  for await (const [, docid, doc] of batch.docs(meta).scan()) {
    batch.checkAborted()
    if (doc._vectors === undefined) continue
    const provided = providedVectors(doc, documentId(doc, meta.primaryKey), only, () => undefined)
    if (Object.keys(provided).length > 0) vectors.set(docid, provided)
  }
}
