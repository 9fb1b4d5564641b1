import type { Engine } from '../engine.js'
import type { SearchSource } from '../search/source.js'
import { filterWith, publishedIndex } from './published-index.js'

/** What a search of the index reads: its published views, loaded when first needed after a start. */
export async function searchSource(engine: Engine, uid: string): Promise<SearchSource> {
  const index = publishedIndex(engine, uid)
  const { meta, state } = index
  const inverted = await engine.inverted.get(meta.id)
  const facets = await index.facets()
  const vectors = await engine.vectors.get(meta.id)
  return {
    uid,
    settings: index.settings,
    inverted,
    live: state.live,
    fetch: (docids) => engine.documents.getMany(meta.id, docids),
    fieldNames: () => state.fields.keys(),
    facets,
    filter: (expr) => filterWith(engine, meta, index.settings, facets, state.live, expr, vectors, 'invalid_search_filter'),
    vectors,
    containsFilter: engine.features.isEnabled('containsFilter'),
  }
}
