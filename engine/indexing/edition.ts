/**
 * Edit by function in an index batch: the documents matching the filter (evaluated on the batch's own state, as
 * deletions by filter are) go through the Rhai script in chunks in the worker pool; an edited document replaces its
 * stored version (its words and facet values too), `doc = ()` deletes it. The first failing document fails the
 * task, and with it the batch: nothing of it is applied.
 */
import roaring from '../util/roaring.js'
import { TesseraError } from '../errors/index.js'
import { checkFilterable, parseFilter } from '../filter/index.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Document } from '../payload/documents.js'
import { runJob } from '../pool/jobs.js'
import { documentId } from '../documents/ids.js'
import type { Details, DocumentEdition } from '../tasks/types.js'
import { matchingDocuments, touchable } from './deletions.js'
import type { IndexBatch } from './index-batch.js'
import { providedVectors, withoutEmbedderVectors } from '../vectors/document.js'
import { storeDocumentVectors } from '../vectors/write.js'
import type { DocumentVectors } from '../vectors/types.js'
import { generateVectors, hasEmbedders, previousVectors, withGivenVectors, type PendingDocument } from './generate-vectors.js'

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

const { RoaringBitmap32 } = roaring

/** Documents per script job: large enough to amortize the hop to a worker, small enough to stop soon on a cancel. */
const EDIT_CHUNK = 1000

export async function editDocuments(batch: IndexBatch, uid: string, op: DocumentEdition, details: Details | null): Promise<Details> {
  const meta = batch.existing(uid)
  const docs = batch.docs(meta)
  const targets = touchable(batch, meta, op.filter === null ? docs.liveSet() : await filtered(batch, meta, op.filter))
  let edited = 0
  let deleted = 0
  if (targets.size > 0 && meta.primaryKey !== null) {
    const primaryKey = meta.primaryKey
    const words = await batch.wordsDraft(meta)
    const facets = await batch.facetsDraft(meta)
    const context = op.context === null ? null : JSON.stringify(op.context)
    const ids = targets.toUint32Array()
    for (let from = 0; from < ids.length; from += EDIT_CHUNK) {
      batch.checkAborted()
      const chunk = Array.from(ids.subarray(from, from + EDIT_CHUNK))
      // Scripts see documents as stored (`_vectors` without configured embedders), old rows that still carry them too.
      const embedderSettings = batch.settingsOf(meta).embedders
      const originals = chunk.map((docid) => withoutEmbedderVectors(docs.read(docid)!, embedderSettings))
      const result = await runJob(batch.deps.pool, 'editChunk', { script: op.function, context, primaryKey, documents: originals.map((d) => JSON.stringify(d)) })
      if (result.error) throw new TesseraError(result.error.code, result.error.message)
      const changed: { docid: number; doc: Document }[] = []
      const toEmbed: { docid: number; provided: DocumentVectors | null; pending: PendingDocument }[] = []
      for (let k = 0; k < result.outcomes.length; k++) {
        const outcome = result.outcomes[k]!
        if (outcome.kind === 'unchanged') continue
        const docid = chunk[k]!
        const old = originals[k]!
        const ext = documentId(old, primaryKey)
        facets?.remove(docid, old)
        if (outcome.kind === 'deleted') {
          docs.delete(ext)
          words.remove(docid)
          ;(await batch.vectorsDraft(meta)).remove(docid)
          deleted++
          continue
        }
        const doc = JSON.parse(outcome.json) as Document
        await docs.put(ext, withoutEmbedderVectors(doc, embedderSettings))
        // A script may change `_vectors`: what it left there is the document's user-provided part now.
        const scripted = doc._vectors !== undefined && !sameJson(doc._vectors, old._vectors)
        const embedders = batch.settingsOf(meta).embedders
        const vectors = await batch.vectorsDraft(meta)
        const provided = scripted ? providedVectors(doc, ext, embedders, (name) => vectors.base.get(name)?.dims) : null
        if (hasEmbedders(batch.settingsOf(meta))) {
          // Embedders see the edit as an update: its text, if changed, is embedded again.
          toEmbed.push({ docid, provided, pending: { id: ext, doc: withGivenVectors(doc, scripted ? doc : null), previous: previousVectors(vectors, docid, Object.keys(embedders)), previousDoc: old } })
        } else if (provided) storeDocumentVectors(vectors, docid, provided)
        facets?.add(docid, doc)
        changed.push({ docid, doc })
        edited++
      }
      if (toEmbed.length > 0) {
        const generated = await generateVectors(batch, meta, toEmbed.map((e) => e.pending))
        const vectors = await batch.vectorsDraft(meta)
        toEmbed.forEach((e, i) => storeDocumentVectors(vectors, e.docid, e.provided ?? {}, generated[i]))
      }
      if (changed.length > 0) words.add(changed.map((c) => c.docid), await batch.extract(changed.map((c) => c.doc), batch.extraction(meta)))
    }
  }
  return { ...details, editedDocuments: edited, deletedDocuments: deleted }
}

/** The live documents a filter selects, on the batch's state; an empty filter is refused at the route. */
async function filtered(batch: IndexBatch, meta: IndexMeta, filter: unknown) {
  const expr = parseFilter(filter, 'invalid_document_filter')
  if (expr === null) return new RoaringBitmap32()
  checkFilterable(expr, batch.settingsOf(meta).filterableAttributes, 'invalid_document_filter', { containsFilter: batch.deps.features.isEnabled('containsFilter'), shardField: false })
  return matchingDocuments(batch, meta, expr)
}
