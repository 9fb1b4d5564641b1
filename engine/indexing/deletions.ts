/**
 * Document deletions in an index batch: by id, by filter (evaluated on the batch's own state, so it sees what the
 * batch's earlier tasks added or deleted), and clears (the index moves to a fresh internal id; the old one's data
 * is dropped as a whole after the commit).
 */
import { checkFilterable, matches, parseFilter, type FilterExpression } from '../filter/index.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Document } from '../payload/documents.js'
import type { Details } from '../tasks/types.js'
import { documentId } from '../documents/ids.js'
import { canonicalId } from '../documents/read.js'
import { evaluateFilter } from '../facets/filter.js'
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import type { IndexBatch } from './index-batch.js'
import { vectorFilter } from '../vectors/filter.js'

/**
 * `docids` without the documents the batch leaves as they are (a shard move settled them, see IndexBatch's
 * `untouched`).
 */
export function touchable(batch: IndexBatch, meta: IndexMeta, docids: Bitmap): Bitmap {
  const untouched = batch.deps.untouched
  if (!untouched || meta.primaryKey === null) return docids
  const docs = batch.docs(meta)
  return RoaringBitmap32.from(docids.toArray().filter((d) => {
    const doc = docs.read(d)
    return doc === undefined || !untouched(documentId(doc, meta.primaryKey!))
  }))
}

export async function deleteByIds(batch: IndexBatch, meta: IndexMeta, ids: readonly string[]): Promise<number> {
  const docs = batch.docs(meta)
  const untouched = batch.deps.untouched ?? null
  const words = await batch.wordsDraft(meta)
  const facets = await batch.facetsDraft(meta)
  const vectors = await batch.vectorsDraft(meta)
  let deleted = 0
  for (const id of ids) {
    const ext = canonicalId(id)
    if (ext !== null && untouched?.(ext)) continue
    if (facets && ext !== null) {
      const existing = docs.lookup(ext)
      const old = existing === undefined ? undefined : docs.read(existing)
      if (old) facets.remove(existing!, old)
    }
    const docid = ext === null ? undefined : docs.delete(ext)
    if (docid !== undefined) {
      words.remove(docid)
      vectors.remove(docid)
      deleted++
    }
  }
  return deleted
}

export async function deleteByFilter(batch: IndexBatch, meta: IndexMeta, filter: unknown): Promise<number> {
  const expr = parseFilter(filter, 'invalid_document_filter')
  if (expr === null) return 0
  checkFilterable(expr, batch.settingsOf(meta).filterableAttributes, 'invalid_document_filter', { containsFilter: batch.deps.features.isEnabled('containsFilter'), shardField: false })
  const docs = batch.docs(meta)
  const facets = await batch.facetsDraft(meta)
  const doomed: [string, number, Document][] = []
  for (const docid of touchable(batch, meta, await matchingDocuments(batch, meta, expr))) {
    const doc = docs.read(docid)
    if (doc) doomed.push([documentId(doc, meta.primaryKey!), docid, doc])
  }
  const words = await batch.wordsDraft(meta)
  const vectors = await batch.vectorsDraft(meta)
  for (const [ext, docid, doc] of doomed) {
    if (docs.delete(ext) === undefined) continue
    words.remove(docid)
    vectors.remove(docid)
    facets?.remove(docid, doc)
  }
  return doomed.length
}

/**
 * The live documents a filter selects, evaluated on the batch's own state (what its earlier tasks added, replaced
 * or deleted): on the facet draft, or document by document for what facets do not hold (`_vectors` conditions, and
 * any filter when nothing is faceted, which only those can pass the filterable check).
 */
export async function matchingDocuments(batch: IndexBatch, meta: IndexMeta, expr: FilterExpression): Promise<Bitmap> {
  const docs = batch.docs(meta)
  const facets = await batch.facetsDraft(meta)
  await docs.flush()
  const live = docs.liveSet()
  const vectors = await batch.vectorsDraft(meta)
  // `_vectors` conditions read the published vectors (changes of this batch's earlier tasks are not seen).
  const perDocument = (e: FilterExpression) => e.type === 'vectorExists'
    ? RoaringBitmap32.and(live, vectorFilter(e, vectors.base, Object.keys(batch.settingsOf(meta).embedders), 'invalid_document_filter', meta.uid))
    : RoaringBitmap32.from(live.toArray().filter((d) => { const doc = docs.read(d); return doc !== undefined && matches(e, doc) }))
  return facets ? evaluateFilter(expr, facets.snapshot(), live, perDocument) : perDocument(expr)
}

/** The ids of the index's live documents, in the batch's state. */
export async function allIds(batch: IndexBatch, meta: IndexMeta): Promise<string[]> {
  const docs = batch.docs(meta)
  await docs.flush()
  if (meta.primaryKey === null) return []
  return docs.liveSet().toArray().flatMap((d) => { const doc = docs.read(d); return doc ? [documentId(doc, meta.primaryKey!)] : [] })
}

export function clearDocuments(batch: IndexBatch, uid: string, meta: IndexMeta, details: Details | null): Details {
  const deleted = batch.docs(meta).count
  batch.reassign(uid, meta)
  return { ...details, deletedDocuments: deleted }
}
