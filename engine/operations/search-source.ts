import type { Engine } from '../engine.js'
import type { SearchSource } from '../search/source.js'
import { filterWith, loadedIndex } from './published-index.js'

/**
 * What a search of the index reads: its published views, loaded when first needed after a start, all of one publish
 * (the vector store is published with the documents' state: a publish while it loads reads everything again).
 */
export async function searchSource(engine: Engine, uid: string): Promise<SearchSource> {
  for (;;) {
    const { index, inverted, facets } = await loadedIndex(engine, uid)
    const { meta, state } = index
    const vectors = await engine.vectors.get(meta.id)
    if (engine.documents.state(meta.id) !== state) continue
    return {
      uid,
      settings: index.settings,
      inverted,
      live: state.live,
      fetch: (docids) => engine.documents.getMany(meta.id, docids),
      fetchStored: (docids) => engine.documents.getManyStored(meta.id, docids),
      fieldNames: () => state.fields.keys(),
      facets,
      filter: (expr) => filterWith(engine, meta, index.settings, facets, state.live, expr, vectors, 'invalid_search_filter'),
      vectors,
      containsFilter: engine.features.isEnabled('containsFilter'),
    }
  }
}
