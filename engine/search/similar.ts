/**
 * `/indexes/{uid}/similar`: the documents nearest to one document's vectors for one embedder (the document itself
 * left out), filtered, paged and shaped like search hits, with `_rankingScore` as a semantic search gives it.
 * A quantized space searches with the document's int8 rescoring copy.
 */
import { performance } from 'node:perf_hooks'
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import { RoaringBitmap32 } from '../inverted/index.js'
import { checkFilterable, parseFilter } from '../filter/index.js'
import { scoreOf } from '../vectors/distance.js'
import { nearest, type Neighbour } from '../vectors/search.js'
import type { RankedHit } from './bucket-sort.js'
import { rankedKeywordSearch } from './keyword.js'
import { defaultSearchQuery } from './request.js'
import { StageTimer } from './performance.js'
import { shiftScore } from './semantic.js'
import type { SearchSource } from './source.js'

export interface SimilarQuery {
  /** The external id of the reference document (checked by the front end). */
  id: string
  embedder: string
  offset: number
  limit: number
  filter: unknown
  attributesToRetrieve: string[] | null
  retrieveVectors: boolean
  showRankingScore: boolean
  showRankingScoreDetails: boolean
  /** The response carries `performanceDetails`: the duration of each stage, under `similar`. */
  showPerformanceDetails: boolean
  rankingScoreThreshold: number | null
}

/** `docid`: the reference document's internal id, undefined when no live document has `query.id`. */
export function similarDocuments(source: SearchSource, query: SimilarQuery, docid: number | undefined): JsonObject {
  const start = performance.now()
  const settings = source.settings.embedders[query.embedder]
  if (settings === undefined) throw new TesseraError('invalid_similar_embedder', `Cannot find embedder with name \`${query.embedder}\`.`)
  if (docid === undefined) throw new TesseraError('not_found_similar_id', `Document \`${query.id}\` not found.`)
  const timer = query.showPerformanceDetails ? new StageTimer('similar') : null
  const stage = <T>(name: string, fn: () => T): T => (timer ? timer.time(name, fn) : fn())
  const universe = stage('resolve universe', () => {
    const others = RoaringBitmap32.andNot(source.live, RoaringBitmap32.from([docid]))
    const expr = parseFilter(query.filter, 'invalid_similar_filter')
    if (!expr) return others
    checkFilterable(expr, source.settings.filterableAttributes, 'invalid_similar_filter', { containsFilter: source.containsFilter })
    return RoaringBitmap32.and(others, source.filter(expr))
  })
  const space = source.vectors?.get(query.embedder)
  const entry = space?.entries.get(docid)
  const references = !space || !entry ? [] : space.quantized ? entry.int8.map((v) => Float32Array.from(v)) : entry.vectors
  const search = {
    ...defaultSearchQuery(),
    offset: query.offset, limit: query.limit, attributesToRetrieve: query.attributesToRetrieve, retrieveVectors: query.retrieveVectors,
    showRankingScore: query.showRankingScore, showRankingScoreDetails: query.showRankingScoreDetails,
  }
  const { response, outcome } = rankedKeywordSearch(source, search, (window) => stage('vector search', () => {
    const want = window.offset + window.limit
    const best = new Map<number, number>()
    for (const v of references) {
      for (const n of nearest(space!, v, want, universe)) {
        if ((best.get(n.docid) ?? -Infinity) < n.similarity) best.set(n.docid, n.similarity)
      }
    }
    const ranked: Neighbour[] = [...best].map(([d, similarity]) => ({ docid: d, similarity })).sort((a, b) => b.similarity - a.similarity || a.docid - b.docid)
    const hits: RankedHit[] = []
    // Documents under the threshold leave the total too, as milli takes them out of the candidates.
    let below = 0
    for (const n of ranked) {
      const similarity = Math.fround(scoreOf(n.similarity))
      const score = shiftScore(similarity, settings.distribution)
      if (query.rankingScoreThreshold !== null && score < query.rankingScoreThreshold) { below++; continue }
      hits.push({ docid: n.docid, evaluation: { score, details: { vectorSort: { order: 0, similarity } } } })
    }
    const candidates = references.length === 0 ? 0 : universe.size - below
    return { outcome: { hits: hits.slice(window.offset, want), candidates, plan: null, degraded: false, sorts: [], all: universe } }
  }))
  const elapsed = performance.now() - start
  return {
    hits: response.hits,
    id: query.id,
    processingTimeMs: Math.floor(elapsed),
    limit: response.limit,
    offset: response.offset,
    estimatedTotalHits: Math.min(outcome.candidates, response.estimatedTotalHits as number),
    ...(timer ? { performanceDetails: timer.details(elapsed) } : {}),
  }
}
