/**
 * Document additions (`POST` replaces, `PUT` updates) in an index batch. The payload is read in chunks prepared in
 * the worker pool (parsed, ids read and checked, documents encoded for storage, words extracted), several at once,
 * while this thread assigns internal ids and stages the writes: new documents and their forward records are written
 * ahead; a replaced document's old facet values are taken out; an update merges top-level fields and is extracted
 * again. The primary key is inferred from the first chunk when the index has none. With `skipCreation`, documents
 * whose id is not in the index are left out: the chunk's words then no longer line up with what is stored, so the
 * kept documents are extracted again. So are they when sharding (cluster mode) leaves out the documents of shards this
 * node does not own.
 */
import { setImmediate } from 'node:timers/promises'
import { turnTaker } from '../util/turns.js'
import { TesseraError, indexNotFound } from '../errors/index.js'
import { runJob } from '../pool/jobs.js'
import { INLINE_LIMIT } from '../payload/files.js'
import { isWs } from '../payload/json.js'
import type { Document } from '../payload/documents.js'
import type { DocumentAddition, Details } from '../tasks/types.js'
import { decodeDocument, type PreparedChunk } from '../documents/prepare.js'
import type { IndexBatch } from './index-batch.js'
import { DOCUMENT_OPERATION } from '../tasks/progress.js'
import { providedVectors, withoutEmbedderVectors } from '../vectors/document.js'
import { storeDocumentVectors } from '../vectors/write.js'
import type { DocumentVectors } from '../vectors/types.js'
import { generateVectors, previousVectors, withGivenVectors, type PendingDocument } from './generate-vectors.js'

export async function addDocuments(batch: IndexBatch, uid: string, op: DocumentAddition, details: Details | null): Promise<Details> {
  let meta = batch.deps.draft.get(uid)
  if (!meta) {
    if (!op.allowIndexCreation) throw indexNotFound(uid)
    meta = batch.deps.draft.create(uid, null, batch.deps.now)
  }
  if (meta.primaryKey !== null && op.primaryKey !== null && op.primaryKey !== meta.primaryKey && op.method === 'update') {
    throw new TesseraError('index_primary_key_already_exists', `Index already has a primary key: \`${meta.primaryKey}\`.`)
  }
  const source = { ...batch.deps.payloads.source(op.payload), format: op.format, csvDelimiter: op.csvDelimiter }
  let primaryKey = meta.primaryKey ?? op.primaryKey
  let received = 0
  let indexed = 0
  const skipCreation = op.skipCreation === true
  // Sharding leaves out the documents of shards this node does not own, as skipCreation leaves out new ids.
  const owned = batch.deps.keepsDocument ?? null
  const untouched = batch.deps.untouched ?? null
  // Documents a move settled are left as they are, the same way (counted, not written).
  const keeps = untouched === null ? owned : (id: string) => !untouched(id) && (owned === null || owned(id))
  const leavesOut = skipCreation || keeps !== null
  const docs = batch.docs(meta)
  const words = await batch.wordsDraft(meta)
  const facets = await batch.facetsDraft(meta)
  const extraction = batch.extraction(meta)
  const vectors = await batch.vectorsDraft(meta)
  const embedders = batch.settingsOf(meta).embedders
  const withEmbedders = Object.keys(embedders).length > 0
  const dimsOf = (name: string) => vectors.base.get(name)?.dims
  const embedderNames = Object.keys(embedders)
  // Chunks are prepared in the pool (parsed, ids read, encoded, words extracted), several at once, while this
  // thread stores the one before. Until the primary key is known, the first chunk (which infers it) goes alone.
  const prepare = (i: number): Promise<PreparedChunk> => {
    const range = op.chunks[i]!
    // Small chunks are prepared here: the hop to a worker would cost more than the work.
    const pool = range[1] - range[0] <= INLINE_LIMIT ? undefined : batch.deps.pool
    const prepared = runJob(pool, 'prepareChunk', { ...source, start: range[0], end: range[1], csvHeader: op.csvHeader, primaryKey, extraction })
    // A prefetched chunk may fail while the batch is already failing for another reason: never unhandled.
    prepared.catch(() => {})
    return prepared
  }
  const ahead = (batch.deps.pool?.threads ?? 0) + 1
  const inFlight: Promise<PreparedChunk>[] = []
  let sent = 0
  const fill = () => {
    while (sent < op.chunks.length && inFlight.length < ahead && (primaryKey !== null || sent === 0)) inFlight.push(prepare(sent++))
  }
  const names: string[] = []
  // Searches on other indexes answer between turns of a few ms (this thread serves them too).
  const turn = turnTaker()
  // The batch's additions count their documents together, out of all the batch received.
  batch.deps.progress?.step(DOCUMENT_OPERATION, 'indexing')
  const counted = batch.deps.progress?.count('document', batch.deps.receivedDocuments ?? 0)
  try {
    for (fill(); inFlight.length > 0; fill()) {
      batch.checkAborted()
      const chunk = await inFlight.shift()!
      if (chunk.error) throw new TesseraError(chunk.error.code, chunk.error.message)
      if (meta.primaryKey === null && chunk.primaryKey !== null) {
        primaryKey = chunk.primaryKey
        meta = { ...meta, primaryKey, updatedAt: batch.deps.now }
        batch.deps.draft.put(meta)
      }
      fill()
      const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength)
      const docids: number[] = new Array(chunk.ids.length)
      // Merged updates are extracted again (the payload's words are not the stored document's).
      const merged: { at: number; doc: Document }[] = []
      // With skipCreation and a skipped document, the kept replacements are extracted again too.
      const replaced: { at: number; doc: Document }[] = []
      let skipped = 0
      // Left out by sharding: indexed by the shard's owners, so counted as indexed (task views agree on every node).
      let elsewhere = 0
      let from = 0
      let run = 0
      // Documents the embedders look at, stored with what they generate once the chunk is read.
      const toEmbed: { docid: number; provided: DocumentVectors | null; pending: PendingDocument }[] = []
      for (let k = 0; k < chunk.ids.length; k++) {
        await turn()
        const ext = chunk.ids[k]!
        // An NDJSON line's own text comes with the separators around it (the line feed before it, a carriage
        // return after it): the stored document is the JSON value alone, as from the other formats.
        let start = from
        let end = (from = chunk.ends[k]!)
        while (start < end && isWs(bytes[start]!)) start++
        while (end > start && isWs(bytes[end - 1]!)) end--
        const encoded = bytes.subarray(start, end)
        const count = chunk.fields[run]!
        names.length = count
        for (let f = 0; f < count; f++) names[f] = chunk.fieldNames[chunk.fields[run + 1 + f]!]!
        run += count + 1
        // A replaced document's old facet values are taken out (so its old version is read).
        if (keeps !== null && !keeps(ext)) { skipped++; elsewhere++; continue }
        const existing = op.method === 'update' || facets || skipCreation || withEmbedders ? docs.lookup(ext) : undefined
        if (skipCreation && existing === undefined) { skipped++; continue }
        const old = existing === undefined ? undefined : docs.read(existing)
        if (old && facets) facets.remove(existing!, old)
        // The payload's `_vectors` (not the stored document's): read only when the document has some.
        const given = withEmbedders && encoded.includes('"_vectors"') ? decodeDocument(encoded) : null
        const provided = given ? providedVectors(given, ext, embedders, dimsOf) : null
        let stored: Document | undefined
        if (old && op.method === 'update') {
          // Add-or-update replaces top-level fields whole (nested objects are not deep-merged).
          stored = withoutEmbedderVectors({ ...old, ...(given ?? decodeDocument(encoded)) }, embedders)
          merged.push({ at: k, doc: stored })
          docids[k] = await docs.put(ext, stored)
          facets?.add(docids[k]!, stored)
        } else {
          // Configured embedders' vectors live in the vector store only: the document is stored without them.
          const kept = given ? withoutEmbedderVectors(given, embedders) : null
          if (kept && kept !== given) docids[k] = await docs.put(ext, (stored = kept))
          else docids[k] = await docs.putEncoded(ext, encoded, names)
          // Decoded only for what reads the document: facets, a re-extraction, the embedders.
          if (facets || leavesOut || withEmbedders) {
            stored ??= given ?? decodeDocument(encoded)
            facets?.add(docids[k]!, stored)
            if (leavesOut) replaced.push({ at: k, doc: stored })
          }
        }
        if (withEmbedders) {
          const previous = existing === undefined ? null : previousVectors(vectors, existing, embedderNames)
          toEmbed.push({ docid: docids[k]!, provided, pending: { id: ext, doc: withGivenVectors(stored!, given), previous, previousDoc: old ?? null } })
        } else if (provided) storeDocumentVectors(vectors, docids[k]!, provided)
      }
      if (toEmbed.length > 0) {
        const generated = await generateVectors(batch, meta, toEmbed.map((e) => e.pending))
        toEmbed.forEach((e, i) => storeDocumentVectors(vectors, e.docid, e.provided ?? {}, generated[i]))
      }
      received += chunk.ids.length
      indexed += chunk.ids.length - skipped + elsewhere
      if (skipped === 0) await words.addInTurns(docids, chunk.words)
      else if (replaced.length > 0) await words.addInTurns(replaced.map((m) => docids[m.at]!), await batch.extract(replaced.map((m) => m.doc), extraction))
      if (merged.length > 0) await words.addInTurns(merged.map((m) => docids[m.at]!), await batch.extract(merged.map((m) => m.doc), extraction))
      // New documents' forward records go to disk with them, ahead of the final commit.
      for (const docid of docids) {
        await turn()
        if (docid === undefined) continue
        const record = words.recordBytes(docid)
        if (record && await docs.writeAhead('positions', docid, record)) words.writtenAhead(docid)
      }
      counted?.add(chunk.ids.length)
      // Chunks prepared ahead are already resolved: without a turn of the event loop here, a whole payload is staged
      // without one request served in between (progress polls included, which would see it jump from 0 to done).
      await setImmediate()
    }
  } catch (err) {
    await Promise.allSettled(inFlight)
    throw err
  }
  if (meta.primaryKey === null && primaryKey !== null) {
    // An empty payload still sets the primary key it names.
    batch.deps.draft.put({ ...meta, primaryKey, updatedAt: batch.deps.now })
  }
  batch.consumedPayloads.push(op.payload)
  return { ...details, receivedDocuments: received, indexedDocuments: indexed }
}
