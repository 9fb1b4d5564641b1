/**
 * What readers of one index read: its published state (documents, settings, inverted and facet indexes), never a
 * batch in progress. Shared by the document, search and facet-search operations, so filters mean the same
 * everywhere.
 */
import roaring from '../util/roaring.js'
import type { Engine } from '../engine.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Settings } from '../settings/index.js'
import type { DocState } from '../documents/store.js'
import { facetConfig, type FacetIndex } from '../facets/index.js'
import { evaluateFilter } from '../facets/filter.js'
import { matches, type FilterExpression } from '../filter/index.js'
import type { Bitmap, InvertedIndex } from '../inverted/index.js'
import type { ErrorCode } from '../errors/index.js'
import { vectorFilter } from '../vectors/filter.js'
import { namesShard, withShardFacet } from './shard-facet.js'
import type { IndexVectors } from '../vectors/space.js'

const { RoaringBitmap32 } = roaring

/** Documents read per storage call when a filter has to look at documents one by one. */
const SCAN_CHUNK = 1000

export interface PublishedIndex {
  meta: IndexMeta
  settings: Settings
  state: DocState
  /** The facet index for the current settings (built from the documents the first time it is needed). */
  facets(): Promise<FacetIndex>
  /** The live documents matching a filter. */
  filter(expr: FilterExpression): Promise<Bitmap>
}

export function publishedIndex(engine: Engine, uid: string): PublishedIndex {
  const meta = engine.index(uid)
  const settings = engine.settings.of(meta.id)
  const state = engine.documents.state(meta.id)
  const facets = () => engine.facets.get(meta.id, facetConfig(settings))
  return {
    meta, settings, state, facets,
    filter: async (expr) => filterWith(engine, meta, settings, await facets(), state.live, expr, await engine.vectors.get(meta.id), 'invalid_document_filter'),
  }
}

/** An index's published views, loaded, all of one publish. */
export interface LoadedIndex {
  index: PublishedIndex
  inverted: InvertedIndex
  facets: FacetIndex
}

/**
 * The published views of an index, loaded (the first search after a start loads the inverted index; a facet index
 * may be built under writes). A batch may publish while they load: they are then read again, so a search never
 * pairs one publish's documents with another's postings or facets (every publish replaces the documents' state or
 * the settings).
 */
export async function loadedIndex(engine: Engine, uid: string): Promise<LoadedIndex> {
  for (;;) {
    const index = publishedIndex(engine, uid)
    const inverted = await engine.inverted.get(index.meta.id)
    const facets = await index.facets()
    const current = publishedIndex(engine, uid)
    if (current.meta.id === index.meta.id && current.state === index.state && current.settings === index.settings) return { index, inverted, facets }
  }
}

/** A filter's live documents: the facet index's evaluation, with `_vectors` conditions evaluated on the vector store. */
export function filterWith(engine: Engine, meta: IndexMeta, settings: Settings, facets: FacetIndex, live: Bitmap, expr: FilterExpression, vectors: IndexVectors, code: ErrorCode): Bitmap {
  // `_shard` is no stored attribute: its facet is computed from the primary keys (shard-facet.ts).
  if (namesShard(expr)) facets = withShardFacet(engine, meta, facets, live)
  return evaluateFilter(expr, facets, live, (e) => e.type === 'vectorExists'
    ? vectorFilter(e, vectors, Object.keys(settings.embedders), code, meta.uid)
    : scanFilter(engine, meta.id, live, e))
}

function scanFilter(engine: Engine, indexId: number, live: Bitmap, expr: FilterExpression): Bitmap {
  const ids = live.toArray()
  const out: number[] = []
  for (let i = 0; i < ids.length; i += SCAN_CHUNK) {
    const chunk = ids.slice(i, i + SCAN_CHUNK)
    engine.documents.getMany(indexId, chunk).forEach((doc, k) => { if (matches(expr, doc)) out.push(chunk[k]!) })
  }
  return RoaringBitmap32.from(out)
}
