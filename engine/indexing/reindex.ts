/**
 * Settings-driven reindexing, done before the batch's commit: a change of what is searchable (the searchable
 * attributes, stop words, separators, dictionary, localized attributes) rebuilds the inverted index from the
 * documents; a change of the faceted set (filterable, sortable, distinct, custom rules) rebuilds the facet index.
 * Both read every document; a cancelation stops them between documents.
 */
import type { IndexMeta } from '../indexes/catalog.js'
import type { Document } from '../payload/documents.js'
import type { ReindexKind } from '../settings/index.js'
import { FacetDraft, FacetIndex, facetConfig, hasFacets, type FacetConfig } from '../facets/index.js'
import { InvertedDraft } from '../inverted/index.js'
import type { IndexBatch } from './index-batch.js'
import { reindexVectors } from './reindex-vectors.js'

/** Settings changes that change the indexed words: the inverted index is rebuilt from the documents. */
const WORD_REINDEX: ReadonlySet<ReindexKind> = new Set<ReindexKind>(['searchable', 'stopWords', 'separators', 'dictionary', 'localizedAttributes'])
/** Settings changes that change the faceted paths: the facet index is rebuilt from the documents. */
const FACET_REINDEX: ReadonlySet<ReindexKind> = new Set<ReindexKind>(['filterable', 'sortable', 'distinct'])
/** Documents per extraction job when rebuilding. */
const REBUILD_CHUNK = 2000

/** Do the reindexing the batch's settings changes require. */
export async function reindex(batch: IndexBatch): Promise<void> {
  for (const [id, plan] of batch.reindex) {
    if (!batch.stillLive(id)) continue
    const uid = batch.settingUids.get(id)?.[0]
    const meta = uid === undefined ? undefined : batch.deps.draft.get(uid)
    if (meta?.id !== id) continue
    if ([...plan].some((k) => WORD_REINDEX.has(k))) await rebuildWords(batch, meta)
    if (plan.has('embedders')) await reindexVectors(batch, meta)
    const config = facetConfig(batch.settingsOf(meta))
    const draft = batch.facetDrafts.get(id)
    if ([...plan].some((k) => FACET_REINDEX.has(k)) && draft?.config.signature !== config.signature) await rebuildFacets(batch, meta, config)
  }
}

/** Rebuild the inverted index of an index from all its documents (after a settings change of its words). */
async function rebuildWords(batch: IndexBatch, meta: IndexMeta): Promise<void> {
  const words = new InvertedDraft(await batch.deps.inverted.get(meta.id), true, batch.words.get(meta.id))
  batch.words.set(meta.id, words)
  const config = batch.extraction(meta)
  const pending: Promise<void>[] = []
  let ids: number[] = []
  let docs: Document[] = []
  const send = () => {
    const chunkIds = ids
    const extracted = batch.extract(docs, config)
    extracted.catch(() => {})
    // Results are added in order: each waits for the previous one.
    const previous = pending[pending.length - 1]
    pending.push((async () => { const chunk = await extracted; await previous; words.add(chunkIds, chunk) })())
    ids = []
    docs = []
  }
  for await (const [, docid, doc] of batch.docs(meta).scan()) {
    batch.checkAborted()
    ids.push(docid)
    docs.push(doc)
    if (docs.length >= REBUILD_CHUNK) {
      send()
      // Keep at most a few chunks in flight.
      if (pending.length >= 4) await pending[pending.length - 4]
    }
  }
  if (docs.length > 0) send()
  await Promise.all(pending)
}

/** Rebuild the facet index of an index from all its documents (after a settings change of its faceted set). */
async function rebuildFacets(batch: IndexBatch, meta: IndexMeta, config: FacetConfig): Promise<void> {
  const draft = new FacetDraft(new FacetIndex(config), config)
  if (hasFacets(config)) {
    for await (const [, docid, doc] of batch.docs(meta).scan()) {
      batch.checkAborted()
      draft.add(docid, doc)
    }
  }
  batch.facetDrafts.set(meta.id, draft)
}
