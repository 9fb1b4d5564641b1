/**
 * Keyword (and placeholder) search over one index: the query's terms and derivations (terms.ts), the candidates,
 * bucket sort over the ranking rules (bucket-sort.ts, rules/), then the page of hits fetched and shaped
 * (format.ts) into Meilisearch's response.
 */
import { performance } from 'node:perf_hooks'
import { TesseraError } from '../errors/index.js'
import { RoaringBitmap32, type Bitmap, type InvertedIndex } from '../inverted/index.js'
import type { Settings } from '../settings/index.js'
import { localesForField, type Tokenizer } from '../tokenizer/index.js'
import { coversField, searchOnCovers, tokenizerFor } from '../inverted/extract.js'
import { bucketSort, sortOnly, type RankedHit, type RankingContext } from './bucket-sort.js'
import { checkSort, geoDistance, parseSort, sortCriteriaFor, sortKey, type SortKey } from './sort.js'
import { formatHit, hitObject, searchResponse, type AnalyzedText, type FormatHitOptions, type HitExtras, type TextMatch, type TextToken } from './format.js'
import { StoredHit, showsStoredDocuments, storedAsIs } from './stored-hits.js'
import { decodeDocument } from '../documents/prepare.js'
import { hitsInfo, searchWindow } from './pagination.js'
import { isPlaceholder, type SearchQuery } from './request.js'
import type { JsonObject } from '../json/value.js'
import { textAnalyzer } from './highlight.js'
import { storedVectors, withStoredVectors } from '../vectors/output.js'
import { withVectors } from '../documents/fields.js'
import type { Document } from '../payload/documents.js'
import type { SearchSource } from './source.js'
import { Matcher } from './matcher.js'
import { rankingRulesFor, sortRuleFor } from './rules/index.js'
import { planQuery, type QueryPlan } from './terms.js'
import { checkFilterable, parseFilter, type FilterExpression } from '../filter/index.js'
import type { FacetIndex } from '../facets/index.js'
import { checkFacets, distinctValues, facetDistribution } from '../facets/distribution.js'
import { StageTimer } from './performance.js'
import { filterablePatterns, isFilterable, matchingRule, normalizeRules } from '../filter/index.js'


export const DEFAULT_SEARCH_CUTOFF_MS = 1500

/** The ranked hits of a query (before documents are fetched and formatted). */
export interface SearchOutcome {
  hits: RankedHit[]
  candidates: number
  plan: QueryPlan | null
  degraded: boolean
  /** The sort rules' keys (for `_geoDistance`). */
  sorts: SortKey[]
  /** Every matching document (facet distributions are computed over them). */
  all: Bitmap
}

function checkSearchOn(source: SearchSource, names: readonly string[] | null): void {
  if (!names) return
  const searchable = source.settings.searchableAttributes
  const all = searchable.includes('*')
  const displayed = source.settings.displayedAttributes
  const shown = (f: string) => displayed.includes('*') || displayed.includes(f)
  for (const name of names) {
    if (name === '*' || all || searchable.some((s) => coversField(s, name))) continue
    // A pattern is valid when it reaches a searchable attribute (`details.*` with `details.title` searchable).
    if (name.includes('*') && searchable.some((s) => searchOnCovers(name, s))) continue
    const fields = all ? [...new Set([...source.fieldNames(), ...source.inverted.fields])] : searchable
    const valid = fields.filter(shown).sort()
    const hidden = fields.some((f) => !shown(f))
    throw new TesseraError('invalid_search_attributes_to_search_on',
      `Index \`${source.uid}\`: Attribute \`${name}\` is not searchable. Available searchable attributes are: \`${valid.join(', ')}${hidden ? ', <..hidden-attributes>' : ''}\`.`)
  }
}

/** `invalid_search_distinct` when the `distinct` parameter names an attribute that is not filterable. */
export function checkDistinct(field: string, settings: Settings): void {
  const rules = normalizeRules(settings.filterableAttributes)
  if (isFilterable(field, rules)) return
  const rule = matchingRule(field, rules)
  const patterns = filterablePatterns(rules)
  const tail = rule
    ? `Note: this attribute matches rule #${rule.index} in filterableAttributes, but this rule does not enable filtering.\nHint: enable filtering in rule #${rule.index} by adding appropriate filter features.\nHint: prepend another rule matching ${field} with filter features before rule #${rule.index}`
    : patterns.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${patterns.join(', ')}\`.`
  throw new TesseraError('invalid_search_distinct', `Attribute \`${field}\` is not filterable and thus, cannot be used as distinct attribute. ${tail}`)
}

/**
 * Rank the candidates of `query` and return the requested window, with at most one document per value of the
 * distinct attribute (the parameter, else the setting): the best of each value is kept, documents without a
 * value all stay. The window is ranked wider until enough distinct documents are found.
 */
export function rankQuery(source: SearchSource, query: SearchQuery, window: { offset: number; limit: number }, start = performance.now(), timer: StageTimer | null = null): SearchOutcome {
  if (query.distinct !== null) inIndex(source.uid, () => checkDistinct(query.distinct!, source.settings))
  const field = query.distinct ?? source.settings.distinctAttribute
  if (field === null) return rankWindow(source, query, window, start, timer)
  const facet = source.facets.field(field)
  const values = facet ? distinctValues(facet) : null
  const want = window.offset + window.limit
  let size = Math.max(want * 2, 20)
  for (;;) {
    const outcome = rankWindow(source, query, { offset: 0, limit: size }, start, timer)
    const kept: RankedHit[] = []
    const seen = new Set<number>()
    for (const hit of outcome.hits) {
      const ids = values?.valueIds(hit.docid)
      if (ids) {
        if (ids.some((v) => seen.has(v))) continue
        for (const v of ids) seen.add(v)
      }
      kept.push(hit)
    }
    if (kept.length >= want || outcome.hits.length < size || outcome.degraded) {
      let candidates = outcome.candidates
      if (values && query.page === null && query.hitsPerPage === null) {
        // `estimatedTotalHits`: as milli's bucket sort leaves it, the candidates less the other documents sharing a
        // value with the hits kept up to `offset + limit` (search/distinct.rs distinct_search_with_offset_no_ranking:
        // 11, then 10, then 6 as the window grows).
        const removed = new RoaringBitmap32()
        for (const hit of kept.slice(0, want)) for (const v of values.valueIds(hit.docid) ?? []) removed.orInPlace(values.docsOf(v))
        removed.andInPlace(outcome.all)
        for (const hit of kept.slice(0, want)) removed.remove(hit.docid)
        candidates = outcome.candidates - removed.size
      } else if (values && facet) {
        // `totalHits` (exhaustive): matching documents counted once per distinct value (documents without one count
        // each): search/distinct.rs distinct_search_with_pagination_no_ranking.
        const withValue = RoaringBitmap32.and(outcome.all, values.valued)
        let groups = 0
        for (const b of facet.numbers.values()) if (b.intersects(withValue)) groups++
        for (const e of facet.strings.values()) if (e.docids.intersects(withValue)) groups++
        candidates = outcome.candidates - withValue.size + Math.min(groups, withValue.size)
      }
      return { ...outcome, hits: kept.slice(window.offset, want), candidates }
    }
    size *= 4
  }
}

function rankWindow(source: SearchSource, query: SearchQuery, window: { offset: number; limit: number }, start = performance.now(), timer: StageTimer | null = null): SearchOutcome {
  const stage = <T>(name: string, fn: () => T): T => (timer ? timer.time(name, fn) : fn())
  const { settings, inverted } = source
  checkSearchOn(source, query.attributesToSearchOn)
  const cutoff = settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS
  const deadline = start + cutoff
  const tokenizer = tokenizerFor(settings)
  const placeholder = isPlaceholder(query.q)
  const plan = placeholder ? null : stage('tokenize', () => planQuery(inverted, settings, tokenizer, query.q!, { attributesToSearchOn: query.attributesToSearchOn, locales: query.locales }))
  let universe = source.live
  const expr = parseFilter(query.filter, 'invalid_search_filter')
  // Sort syntax errors (reserved `_geo` included) are the request's, not the index's: no prefix (search/errors.rs
  // sort_invalid_syntax, sort_geo_reserved_attribute).
  const sortParam = parseSort(query.sort, 'invalid_search_sort')
  inIndex(source.uid, () => checkSort(sortParam, settings, 'invalid_search_sort'))
  if (expr) {
    inIndex(source.uid, () => checkFilterable(expr, settings.filterableAttributes, 'invalid_search_filter', { containsFilter: source.containsFilter }))
    universe = stage('resolve universe', () => RoaringBitmap32.and(universe, source.filter(expr)))
  }
  const sorts = sortCriteriaFor(settings.rankingRules, sortParam).map((c) => sortKey(c, source.facets))
  if (plan?.excluded) universe = RoaringBitmap32.andNot(universe, plan.excluded)
  if (!plan || plan.terms.length === 0) {
    // Placeholder search: by the sort rules, else internal id order; every score 1.
    if (sorts.length > 0) return { hits: stage('keyword search', () => sortOnly(universe, sorts.map(sortRuleFor), window.offset, window.limit)), candidates: universe.size, plan, degraded: false, sorts, all: universe }
    const hits: RankedHit[] = []
    if (window.limit > 0 && window.offset < universe.size) {
      const end = Math.min(universe.size, window.offset + window.limit)
      for (let i = window.offset; i < end; i++) hits.push({ docid: universe.select(i)!, evaluation: null })
    }
    return { hits, candidates: universe.size, plan, degraded: false, sorts, all: universe }
  }
  const totalWords = plan.terms.reduce((n, t) => n + t.wordCount, 0)
  const ctx: RankingContext = { plan, rules: rankingRulesFor(settings.rankingRules, query.matchingStrategy, sorts, sortParam.length, totalWords) }
  const result = stage('keyword search', () => bucketSort({
    ctx,
    matcher: new Matcher(plan, inverted, settings.proximityPrecision === 'byAttribute'),
    terms: plan.terms,
    strategy: query.matchingStrategy,
    universe,
    offset: window.offset,
    limit: window.limit,
    threshold: query.rankingScoreThreshold,
    verify: plan.fieldAllowed !== null || (plan.exactFields !== null && plan.terms.some((t) => t.words.some((d) => d.typo > 0 && !d.exact) || t.phrases.some((p) => p.typo > 0))),
    deadline,
    now: () => performance.now(),
    index: inverted,
  }))
  return { hits: result.hits, candidates: result.candidates, plan, degraded: result.degraded, sorts, all: result.all }
}

/**
 * Run a check; its TesseraError gets the index's name in front, as Meilisearch's index errors do. A feature gate
 * (`CONTAINS` without `containsFilter`) is the instance's, not the index's: no prefix
 * (search/errors.rs search_with_contains_without_enabling_the_feature).
 */
export function inIndex<T>(uid: string, check: () => T): T {
  try {
    return check()
  } catch (err) {
    if (err instanceof TesseraError && err.code !== 'feature_not_enabled') throw new TesseraError(err.code, `Index \`${uid}\`: ${err.message}`)
    throw err
  }
}

// ---- the whole search ----------------------------------------------------------------------------------------------

/** `POST /indexes/{uid}/search` for a keyword (or placeholder) query: the response object. */
export function keywordSearch(source: SearchSource, query: SearchQuery): JsonObject {
  return rankedKeywordSearch(source, query).response
}

/**
 * The response, and the ranking outcome behind it (federated search computes `facetsByIndex` over every matching
 * document of an index's queries). With `showPerformanceDetails`, the response carries each stage's duration.
 * `start`: when the search began (a semantic or hybrid search's clock starts before its query is embedded).
 */
export function rankedKeywordSearch(source: SearchSource, query: SearchQuery, rank?: Ranker, start = performance.now(), output: ResponseOutput = {}): { response: JsonObject; outcome: SearchOutcome } {
  const timer = query.showPerformanceDetails ? new StageTimer() : null
  const stage = <T>(name: string, fn: () => T): T => (timer ? timer.time(name, fn) : fn())
  const { settings } = source
  const window = searchWindow(query, settings.pagination.maxTotalHits)
  const ranked: Ranked = rank ? rank(window, start, timer) : { outcome: rankQuery(source, query, window, start, timer) }
  const outcome = ranked.outcome
  let facets: ReturnType<typeof facetDistribution> | null = null
  if (query.facets !== null) {
    // No index prefix on facet errors (search/multi/mod.rs: "Inside `.queries[0]`: Invalid facet distribution: ...").
    checkFacets(query.facets!, normalizeRules(settings.filterableAttributes))
    facets = stage('facet distribution', () => facetDistribution(query.facets!, source.facets, outcome.all, settings))
  }
  const hits = stage('format', () => formatHits(source, query, outcome, output.storedHits === true))
  const response = searchResponse({
    // StoredHits only when the caller asked for them: it writes the response with `serializeResponse`.
    hits: hits as JsonObject[],
    query: query.q ?? '',
    ...(ranked.queryVector && query.retrieveVectors ? { queryVector: ranked.queryVector } : {}),
    processingTimeMs: Math.floor(performance.now() - start),
    hitsInfo: hitsInfo(query, window, outcome.candidates),
    ...(facets ? { facetDistribution: facets.distribution, facetStats: facets.stats } : {}),
    ...(timer ? { performanceDetails: timer.details(performance.now() - start) } : {}),
    ...(ranked.semanticHitCount !== undefined ? { semanticHitCount: ranked.semanticHitCount } : {}),
  })
  return { response, outcome }
}

/** How the response will be written. */
export interface ResponseOutput {
  /**
   * It is serialized by `serializeResponse` (stored-hits.ts): hits showing whole documents unformatted may be
   * `StoredHit`s, their stored text, which only that serializer writes.
   */
  storedHits?: boolean
}

/** What a ranker other than the keyword one (semantic, hybrid) gives the response. */
export interface Ranked {
  outcome: SearchOutcome
  /** Hits that came from the semantic side (hybrid and semantic searches). */
  semanticHitCount?: number
  /** The vector searched with (shown with `retrieveVectors`). */
  queryVector?: number[]
}

export type Ranker = (window: { offset: number; limit: number }, start: number, timer: StageTimer | null) => Ranked

/** The page's documents, shaped as the query asks (retrieved, highlighted, cropped, scored). */
function formatHits(source: SearchSource, query: SearchQuery, outcome: SearchOutcome, storedHits: boolean): (JsonObject | StoredHit)[] {
  const { settings } = source
  const docids = outcome.hits.map((h) => h.docid)
  if (storedHits && showsStoredDocuments(query, settings)) {
    const stored = source.fetchStored(docids)
    if (stored.length === docids.length) {
      const options = formatOptions(query, settings)
      const analyze = textAnalyzer(outcome.plan, tokenizerFor(settings), settings)
      return stored.map((text, i) => {
        const extras = hitExtras(query, outcome, i)
        if (storedAsIs(text)) return new StoredHit(text, hitObject({ document: {} }, extras))
        return hitObject(formatHit(decodeDocument(text), options, analyze), extras)
      })
    }
  }
  let docs = source.fetch(docids)
  if (query.retrieveVectors && source.vectors) {
    const vectors = source.vectors
    docs = docs.map((doc, i) => withStoredVectors(withVectors(doc as Document, true), storedVectors(vectors, settings.embedders, outcome.hits[i]!.docid)))
  }
  const tokenizer = tokenizerFor(settings)
  const analyze = textAnalyzer(outcome.plan, tokenizer, settings)
  const options = formatOptions(query, settings)
  return docs.map((doc, i) => hitObject(formatHit(doc as never, options, analyze), hitExtras(query, outcome, i)))
}

function formatOptions(query: SearchQuery, settings: Settings): FormatHitOptions {
  return {
    displayedAttributes: settings.displayedAttributes,
    attributesToRetrieve: query.attributesToRetrieve,
    attributesToHighlight: query.attributesToHighlight,
    attributesToCrop: query.attributesToCrop,
    cropLength: query.cropLength,
    cropMarker: query.cropMarker,
    highlightPreTag: query.highlightPreTag,
    highlightPostTag: query.highlightPostTag,
    showMatchesPosition: query.showMatchesPosition,
    retrieveVectors: query.retrieveVectors,
  }
}

/** The hit's own fields after the document's: `_geoDistance`, the score and its details when asked for. */
function hitExtras(query: SearchQuery, outcome: SearchOutcome, i: number): HitExtras {
  const evaluation = outcome.hits[i]!.evaluation
  return {
    geoDistance: geoDistance(outcome.sorts, outcome.hits[i]!.docid),
    rankingScore: query.showRankingScore ? (evaluation?.score ?? 1) : undefined,
    rankingScoreDetails: query.showRankingScoreDetails ? (evaluation?.details ?? {}) : undefined,
  }
}
