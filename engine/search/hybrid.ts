/**
 * Hybrid search as milli's `search/hybrid.rs` runs it: the keyword search first, for `offset + limit` hits; when
 * every one of them (and there are enough) scores at least 0.45 once weighted by `1 - semanticRatio`, the semantic
 * search is skipped. Otherwise the semantic search runs for as many hits, and both lists are merged by their scores
 * weighted by `1 - semanticRatio` (keyword) and `semanticRatio` (semantic), rule by rule as milli's `compare_scores`
 * does (sort values compared as values, scores weighted), semantic first on ties, each document once and the
 * distinct attribute applied across both; `semanticHitCount` counts the merged page's hits that came
 * from the semantic side. Without a query vector (the embedder failed) the keyword hits are returned.
 */
import { RoaringBitmap32 } from '../inverted/index.js'
import { distinctValues } from '../facets/distribution.js'
import type { RankedHit } from './bucket-sort.js'
import { compareScoreValues, type ScoreValue } from './rules/index.js'
import { rankQuery, type Ranked, type SearchOutcome } from './keyword.js'
import type { SearchQuery } from './request.js'
import { rankSemantic } from './semantic.js'
import type { SearchSource } from './source.js'

/** A keyword hit weighted this high (score × (1 − ratio)) is good enough to skip the semantic search. */
const GOOD_ENOUGH_SCORE = 0.45

const scoreOf = (hit: RankedHit) => hit.evaluation?.score ?? 1

/** The keyword side of a hybrid search, ranked for `want` hits (before its query is embedded, see dispatch.ts). */
export interface KeywordSide {
  want: number
  outcome: SearchOutcome
}

/** milli's `results_good_enough`: enough keyword hits, each scoring at least 0.45 once weighted by `1 - ratio`. */
export function keywordGoodEnough(keyword: KeywordSide, ratio: number): boolean {
  return keyword.outcome.hits.length >= keyword.want && keyword.outcome.hits.every((h) => scoreOf(h) * (1 - ratio) >= GOOD_ENOUGH_SCORE)
}

/** `keywordGoodEnough` can hold only up to this ratio (above it, a perfect score of 1 weighs less than 0.45). */
export const GOOD_ENOUGH_MAX_RATIO = 1 - GOOD_ENOUGH_SCORE

export function rankHybrid(
  source: SearchSource, query: SearchQuery, vector: Float32Array | null, ratio: number, window: { offset: number; limit: number }, start: number, ranked?: KeywordSide,
): Ranked {
  const want = window.offset + window.limit
  // The keyword side ranked before the query was embedded serves when it was ranked for this window.
  const keyword = ranked?.want === want ? ranked.outcome : rankQuery(source, query, { offset: 0, limit: want }, start)
  const keywordOnly = (): Ranked => ({ outcome: { ...keyword, hits: keyword.hits.slice(window.offset, want) }, semanticHitCount: 0 })
  if (keywordGoodEnough({ want, outcome: keyword }, ratio) || vector === null) return keywordOnly()
  const semantic = rankSemantic(source, query, vector, { offset: 0, limit: want }, start)
  const field = query.distinct ?? source.settings.distinctAttribute
  const facet = field === null ? undefined : source.facets.field(field)
  const values = facet ? distinctValues(facet) : null
  // Placeholder keyword hits have nothing to compare; keyword hits left unranked at the cutoff count as 0.
  const placeholder = keyword.plan === null || keyword.plan.terms.length === 0
  const valuesOf = (hit: RankedHit): ScoreValue[] => hit.evaluation?.values ?? (placeholder ? [] : [{ score: 0 }])
  const seen = new Set<number>()
  const seenValues = new Set<number>()
  const merged: { hit: RankedHit; semantic: boolean }[] = []
  let k = 0
  let s = 0
  while (k < keyword.hits.length || s < semantic.hits.length) {
    const kh = keyword.hits[k]
    const sh = semantic.hits[s]
    const takeSemantic = sh !== undefined && (kh === undefined || compareScoreValues(valuesOf(sh), ratio, valuesOf(kh), 1 - ratio) >= 0)
    const hit = takeSemantic ? sh! : kh!
    if (takeSemantic) s++
    else k++
    if (seen.has(hit.docid)) continue
    seen.add(hit.docid)
    const ids = values?.valueIds(hit.docid)
    if (ids) {
      if (ids.some((v) => seenValues.has(v))) continue
      for (const v of ids) seenValues.add(v)
    }
    merged.push({ hit, semantic: takeSemantic })
  }
  const page = merged.slice(window.offset, want)
  const all = RoaringBitmap32.or(keyword.all, semantic.all)
  const outcome: SearchOutcome = { hits: page.map((m) => m.hit), candidates: all.size, plan: keyword.plan, degraded: keyword.degraded || semantic.degraded, sorts: keyword.sorts, all }
  return { outcome, semanticHitCount: page.filter((m) => m.semantic).length }
}
