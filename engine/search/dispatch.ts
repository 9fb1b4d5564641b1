/**
 * Which search a query runs: keyword (and placeholder), semantic or hybrid, decided as Meilisearch decides it
 * (`searchKind`), and the ranking it gets. Semantic and hybrid searches need the embedder they name and a query
 * vector: the one given (`vector`), else the one embedded from `q` before the search (`resolveQueryVector`, async;
 * the search itself is synchronous on the published view).
 */
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import { queryDeadline, queryVector } from '../embedders/query-vector.js'
import { f32 } from '../vectors/output.js'
import { rankQuery, rankedKeywordSearch, type Ranked, type ResponseOutput, type SearchOutcome } from './keyword.js'
import { GOOD_ENOUGH_MAX_RATIO, keywordGoodEnough, rankHybrid, type KeywordSide } from './hybrid.js'
import { searchWindow } from './pagination.js'
import { searchKind, type SearchQuery } from './request.js'
import { embedderName, rankSemantic, requireEmbedder } from './semantic.js'
import type { SearchSource } from './source.js'

/**
 * The query vector of a semantic or hybrid search: given, embedded from `q`, the embedder's failure, or not needed
 * (`skipped`: a hybrid search's keyword hits are good enough). `keyword`: the keyword side of a hybrid search,
 * ranked before embedding (the search uses it rather than ranking it again).
 */
export type QueryVector = (({ vector: Float32Array } | { error: TesseraError } | { skipped: true }) & { keyword?: KeywordSide; started?: number }) | null

/**
 * Resolve the query vector before the search: null for keyword searches. A userProvided embedder without `vector`,
 * or a failing embedder, gives `{error}`: a semantic search answers it, a hybrid one falls back to keyword hits.
 * As milli, a hybrid search embeds `q` only when its keyword hits are not good enough to skip the semantic side:
 * the keyword side is ranked first (for the window the search will use: call it with the same source and query as
 * `rankedSearch`), so a good keyword page costs no embedding request, and a failing embedder is not even asked.
 */
export async function resolveQueryVector(source: SearchSource, query: SearchQuery, opts: { signal?: AbortSignal } = {}): Promise<QueryVector> {
  const kind = searchKind(query)
  if (kind === 'keyword') return null
  // One clock for the whole search, as Meilisearch's: the keyword side ranked first, the query's embedding and the
  // ranking after it share `searchCutoffMs`, and `processingTimeMs` counts them all.
  const started = performance.now()
  const name = embedderName(query)
  const settings = requireEmbedder(source, name)
  if (query.vector !== null) return { vector: Float32Array.from(query.vector), started }
  const ratio = query.hybrid?.semanticRatio ?? 0.5
  let keyword: KeywordSide | undefined
  if (kind === 'hybrid' && ratio <= GOOD_ENOUGH_MAX_RATIO) {
    const window = searchWindow(query, source.settings.pagination.maxTotalHits)
    const want = window.offset + window.limit
    keyword = { want, outcome: rankQuery(source, query, { offset: 0, limit: want }, started) }
    if (keywordGoodEnough(keyword, ratio)) return { skipped: true, keyword, started }
  }
  try {
    const embedding = { deadline: queryDeadline(kind === 'semantic'), knownDimensions: source.vectors?.get(name)?.dims, signal: opts.signal }
    return { vector: await queryVector(source.uid, name, settings, query.q ?? '', embedding), keyword, started }
  } catch (err) {
    if (err instanceof TesseraError) return { error: err, keyword, started }
    throw err
  }
}

/** `POST /indexes/{uid}/search`: the response object (with `output.storedHits`, for `serializeResponse` only). */
export function searchIndex(source: SearchSource, query: SearchQuery, vector: QueryVector = null, output: ResponseOutput = {}): JsonObject {
  return rankedSearch(source, query, vector, output).response
}

/** The response and the ranking behind it, for every kind of search (federation reads the ranking too). */
export function rankedSearch(source: SearchSource, query: SearchQuery, vector: QueryVector, output: ResponseOutput = {}): { response: JsonObject; outcome: SearchOutcome } {
  const kind = searchKind(query)
  if (kind === 'keyword') return rankedKeywordSearch(source, query, undefined, undefined, output)
  requireEmbedder(source, embedderName(query))
  // Printed only when asked for: the shortest-decimal printing costs about a microsecond per dimension.
  const shown = query.retrieveVectors && vector !== null && 'vector' in vector ? Array.from(vector.vector, f32) : undefined
  if (kind === 'semantic') {
    if (vector === null) throw new Error('semantic search without a resolved query vector')
    if ('error' in vector) throw vector.error
    // Only hybrid searches skip their embedding.
    if (!('vector' in vector)) throw new Error('semantic search without a query vector')
    const v = vector.vector
    return rankedKeywordSearch(source, query, (window, start): Ranked => {
      const outcome = rankSemantic(source, query, v, window, start)
      return { outcome, semanticHitCount: outcome.hits.length, queryVector: shown }
    }, vector.started, output)
  }
  const ratio = query.hybrid?.semanticRatio ?? 0.5
  const v = vector !== null && 'vector' in vector ? vector.vector : null
  return rankedKeywordSearch(source, query, (window, start): Ranked => ({ ...rankHybrid(source, query, v, ratio, window, start, vector?.keyword), queryVector: shown }), vector?.started, output)
}

/**
 * The check of search paths that do not rank by vectors (facet search): a semantic or hybrid query names an
 * embedder the index must have.
 */
export function requireKeyword(source: SearchSource, query: Pick<SearchQuery, 'q' | 'hybrid' | 'vector'>): void {
  if (searchKind(query) === 'keyword') return
  requireEmbedder(source, embedderName(query))
}
