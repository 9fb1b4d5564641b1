/**
 * Which search a query runs: keyword (and placeholder), semantic or hybrid, decided as Meilisearch decides it
 * (`searchKind`). Semantic and hybrid searches need the embedder they name; the vector store that runs them comes
 * with the vector work, until then they answer that it is not built yet.
 */
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import { keywordSearch } from './keyword.js'
import { searchKind, type HybridQuery, type SearchQuery } from './request.js'
import type { SearchSource } from './source.js'

/** `POST /indexes/{uid}/search`: the response object. */
export function searchIndex(source: SearchSource, query: SearchQuery): JsonObject {
  requireKeyword(source, query)
  return keywordSearch(source, query)
}

/**
 * The check every search path makes before ranking by keywords (search, facet search, federated queries): a
 * semantic or hybrid query names an embedder the index must have, and vector search is not built yet.
 */
export function requireKeyword(source: SearchSource, query: Pick<SearchQuery, 'q' | 'hybrid' | 'vector'>): void {
  if (searchKind(query) === 'keyword') return
  const name = embedderOf(query.hybrid)
  if (source.settings.embedders[name] === undefined) {
    throw new TesseraError('invalid_search_embedder', `Cannot find embedder with name \`${name}\`.`)
  }
  throw new TesseraError('invalid_search_embedder', `Index \`${source.uid}\`: vector search with the embedder \`${name}\` is not built yet.`)
}

function embedderOf(hybrid: HybridQuery | null): string {
  return hybrid?.embedder ?? 'default'
}
