import type { Engine } from '../engine.js'
import type { IndexMeta } from '../indexes/catalog.js'
import { compareBytes } from '../json/byte-order.js'

export interface IndexStats {
  numberOfDocuments: number
  rawDocumentDbSize: number
  avgDocumentSize: number
  isIndexing: boolean
  numberOfEmbeddings: number
  numberOfEmbeddedDocuments: number
  fieldDistribution: Record<string, number>
}

/** `GET /indexes/{uid}/stats`. */
export function indexStats(engine: Engine, uid: string): Promise<IndexStats> {
  return statsOf(engine, engine.index(uid))
}

export async function statsOf(engine: Engine, meta: IndexMeta): Promise<IndexStats> {
  const state = engine.documents.state(meta.id)
  const vectors = await engine.vectors.get(meta.id)
  let numberOfEmbeddings = 0
  const embedded = new Set<number>()
  for (const space of vectors.values()) {
    numberOfEmbeddings += space.embeddings
    for (const docid of space.embeddedDocuments()) embedded.add(docid)
  }
  const count = state.live.size
  return {
    numberOfDocuments: count,
    rawDocumentDbSize: state.rawSize,
    avgDocumentSize: count === 0 ? 0 : Math.floor(state.rawSize / count),
    isIndexing: isIndexing(engine, meta.uid),
    numberOfEmbeddings,
    numberOfEmbeddedDocuments: embedded.size,
    fieldDistribution: Object.fromEntries([...state.fields].sort(([a], [b]) => compareBytes(a, b))),
  }
}

/** As in Meilisearch: true while a batch touching the index runs, not while its tasks wait. */
function isIndexing(engine: Engine, uid: string): boolean {
  const ofIndex = engine.queue.index.byIndex.get(uid)
  return ofIndex !== undefined && ofIndex.intersects(engine.queue.index.status('processing'))
}
