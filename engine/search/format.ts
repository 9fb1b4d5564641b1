/**
 * Shaping search hits and responses as Meilisearch does (`crates/meilisearch/src/search/mod.rs`: `HitMaker`,
 * `compute_formatted_options`, `format_fields`, `format_value`, `SearchResult`/`SearchHit` field order). Pure
 * functions: the tokenizer and the matcher (which words of a text match which query terms) come in through a
 * `TextAnalyzer`; highlighting and cropping one text is crop.ts, dotted paths into documents json-paths.ts.
 */
import { parseCropAttribute } from './request.js'
import { isObject, type JsonObject } from '../json/value.js'

import { formatText, matchBounds, type FormatMarkers, type FormatOptions, type MatchBounds, type TextAnalyzer } from './crop.js'
import { mapLeafValues, selectValues } from './json-paths.js'
import { isFacetedBy } from '../filter/index.js'

export { formatText, matchBounds, type AnalyzedText, type FormatMarkers, type FormatOptions, type MatchBounds, type TextAnalyzer, type TextMatch, type TextToken } from './crop.js'
export { containedIn, mapLeafValues, selectValues } from './json-paths.js'

function fieldOrder(document: JsonObject): Map<string, number> {
  const order = new Map<string, number>()
  const walk = (v: unknown, base: string) => {
    if (Array.isArray(v)) for (const item of v) walk(item, base)
    else if (isObject(v)) {
      for (const [key, child] of Object.entries(v)) {
        const path = base === '' ? key : `${base}.${key}`
        if (!order.has(path)) order.set(path, order.size)
        walk(child, path)
      }
    }
  }
  walk(document, '')
  return order
}

function deepClone<T>(v: T): T {
  return structuredClone(v)
}

// ---- a hit ---------------------------------------------------------------------------------------------------------

export interface FormatHitOptions {
  /** The index's `displayedAttributes` (`['*']` by default). */
  displayedAttributes: readonly string[]
  attributesToRetrieve: readonly string[] | null
  attributesToHighlight: readonly string[] | null
  /** `attr` or `attr:length` entries. */
  attributesToCrop: readonly string[] | null
  cropLength: number
  cropMarker: string
  highlightPreTag: string
  highlightPostTag: string
  showMatchesPosition: boolean
  /** Keep `_vectors` (when displayed); the engine merges the stored embeddings in. */
  retrieveVectors?: boolean
  /**
   * Whether a field name exists in the index (Meilisearch's fields-ids map: top-level and dotted nested names).
   * Names that do not exist are ignored in highlight/crop/retrieve lists. Default: every name exists.
   */
  fieldExists?: (name: string) => boolean
}

export interface FormattedHit {
  /** The retrieved fields: `attributesToRetrieve` ∩ `displayedAttributes`. */
  document: JsonObject
  /** Present when something was highlighted or cropped (and the result is not empty). */
  formatted?: JsonObject
  /** Present when `showMatchesPosition`: matches in every displayed field, keyed by dotted path, sorted. */
  matchesPosition?: Record<string, MatchBounds[]>
}

const VECTORS = '_vectors'

/** serde_json's number rendering, as `format_value` turns numbers into strings. */
function numberText(n: number): string {
  return String(n)
}

/**
 * One hit as `HitMaker::make_hit` shapes it (without scores, `_geoDistance` or embeddings):
 * - retrieved fields: `attributesToRetrieve` (`*` or absent: all displayed) ∩ `displayedAttributes`, by exact
 *   field name (dotted names select nested values); unknown names are ignored.
 * - `_formatted`: the highlighted (`attributesToHighlight`, `*` = all displayed) and cropped (`attributesToCrop`)
 *   displayed fields, plus the retrieved ones; numbers become strings there; when nothing valid is highlighted or
 *   cropped there is no `_formatted`.
 * - `_matchesPosition`: matches of every displayed field (retrieved or not), by dotted path. As Meilisearch's
 *   `format_fields` inserts per leaf, an array keeps only the matches of its last matching element.
 *
 * `document` is given away: the hit keeps its values (a search decodes each stored document for this call alone,
 * and copying long documents again cost a twentieth of a search on man pages).
 */
export function formatHit(document: JsonObject, options: FormatHitOptions, analyze: TextAnalyzer): FormattedHit {
  const displayedAll = options.displayedAttributes.includes('*')
  const exists = options.fieldExists ?? (() => true)
  const isDisplayed = (name: string) => exists(name) && (displayedAll || options.displayedAttributes.includes(name))
  const source: JsonObject = { ...document }
  const keepVectors = options.retrieveVectors === true && isDisplayed(VECTORS)
  delete source[VECTORS]

  // The displayed field names (null: every field).
  const displayed: string[] | null = displayedAll ? null : options.displayedAttributes.filter(exists)
  const allDisplayed = (): string[] => displayed ?? Object.keys(source)

  // Retrieved selectors (null: every displayed field).
  const retrieve = options.attributesToRetrieve
  const toRetrieve: string[] | null = retrieve === null || retrieve.includes('*')
    ? displayed
    : retrieve.filter(isDisplayed)

  // The hit shares the document's values (the caller gave it away); formatting works on a copy of its own.
  const hitDocument = toRetrieve === null ? source : selectValues(source, toRetrieve)
  if (keepVectors && VECTORS in document) hitDocument[VECTORS] = document[VECTORS]

  // compute_formatted_options
  const formatting = new Map<string, FormatOptions>()
  for (const attr of options.attributesToHighlight ?? []) {
    if (attr === '*') {
      for (const name of allDisplayed()) formatting.set(name, { highlight: true, crop: null })
      break
    }
    if (isDisplayed(attr)) formatting.set(attr, { highlight: true, crop: null })
  }
  for (const entry of options.attributesToCrop ?? []) {
    const [name, length] = parseCropAttribute(entry, options.cropLength)
    const targets = name === '*' ? allDisplayed() : isDisplayed(name) ? [name] : []
    for (const target of targets) {
      const current = formatting.get(target)
      formatting.set(target, { highlight: current?.highlight ?? false, crop: length })
    }
  }
  if (formatting.size > 0) {
    for (const name of toRetrieve ?? Object.keys(source)) if (!formatting.has(name)) formatting.set(name, { highlight: false, crop: null })
  }

  const result: FormattedHit = { document: hitDocument }
  if (!options.showMatchesPosition && formatting.size === 0) return result

  // format_fields: formatting rules in field order, reduced per leaf.
  const order = fieldOrder(source)
  const rank = (name: string) => order.get(name) ?? Number.MAX_SAFE_INTEGER
  const rules = [...formatting.entries()]
    .filter(([, o]) => o.highlight || (o.crop !== null))
    .sort((a, b) => rank(a[0]) - rank(b[0]))
  const markers: FormatMarkers = { highlightPreTag: options.highlightPreTag, highlightPostTag: options.highlightPostTag, cropMarker: options.cropMarker }

  const selection = options.showMatchesPosition ? displayed : [...formatting.keys()]
  const work = deepClone(selection === null ? source : selectValues(source, selection))
  const positions: Record<string, MatchBounds[]> | undefined = options.showMatchesPosition ? {} : undefined

  mapLeafValues(work, displayed, (key, indices, value) => {
    let text: string
    if (typeof value === 'string') text = value
    else if (typeof value === 'number') text = numberText(value)
    else return value
    let format: FormatOptions | null = null
    for (const [name, o] of rules) {
      if (isFacetedBy(name, key) || isFacetedBy(key, name)) {
        format = format === null ? { ...o } : { highlight: format.highlight || o.highlight, crop: format.crop ?? o.crop }
      }
    }
    if (format === null && positions === undefined) return text
    const analyzed = analyze(text, key)
    if (positions !== undefined) {
      const bounds = matchBounds(analyzed, indices)
      if (bounds.length > 0) positions[key] = bounds
    }
    return format === null ? text : formatText(text, analyzed, format, markers)
  })

  if (positions !== undefined) {
    result.matchesPosition = Object.fromEntries(Object.keys(positions).sort(byteOrder).map((k) => [k, positions[k]!]))
  }
  if (formatting.size > 0) {
    const formatted = selectValues(work, formatting.keys())
    if (Object.keys(formatted).length > 0) result.formatted = formatted
  }
  return result
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

// ---- the response ------------------------------------------------------------------------------------------------

export interface HitExtras {
  /** Meters to the geo sort's point, among the document's fields. */
  geoDistance?: number
  rankingScore?: number
  rankingScoreDetails?: Record<string, unknown>
}

/** A hit in Meilisearch's key order: the document's fields, `_formatted`, `_matchesPosition`, `_rankingScore`, `_rankingScoreDetails`. */
export function hitObject(hit: FormattedHit, extras: HitExtras = {}): JsonObject {
  const out: JsonObject = { ...hit.document }
  if (extras.geoDistance !== undefined) out._geoDistance = extras.geoDistance
  if (hit.formatted !== undefined && Object.keys(hit.formatted).length > 0) out._formatted = hit.formatted
  if (hit.matchesPosition !== undefined) out._matchesPosition = hit.matchesPosition
  if (extras.rankingScore !== undefined) out._rankingScore = extras.rankingScore
  if (extras.rankingScoreDetails !== undefined) out._rankingScoreDetails = extras.rankingScoreDetails
  return out
}

export interface SearchResponseParts {
  hits: JsonObject[]
  /** `q`, or "" for a placeholder search. */
  query: string
  queryVector?: number[]
  processingTimeMs: number
  /** From `hitsInfo` (pagination.ts): `limit, offset, estimatedTotalHits` or `hitsPerPage, page, totalPages, totalHits`. */
  hitsInfo: Record<string, number> | object
  facetDistribution?: Record<string, Record<string, number>>
  facetStats?: Record<string, { min: number; max: number }>
  requestUid?: string
  metadata?: Record<string, unknown>
  performanceDetails?: Record<string, string>
  remoteErrors?: Record<string, unknown>
  semanticHitCount?: number
}

/** `SearchResult` in its serialization order; absent optional fields are left out. */
export function searchResponse(parts: SearchResponseParts): JsonObject {
  const out: JsonObject = { hits: parts.hits, query: parts.query }
  if (parts.queryVector !== undefined) out.queryVector = parts.queryVector
  out.processingTimeMs = parts.processingTimeMs
  Object.assign(out, parts.hitsInfo)
  const optional = ['facetDistribution', 'facetStats', 'requestUid', 'metadata', 'performanceDetails', 'remoteErrors', 'semanticHitCount'] as const
  for (const key of optional) if (parts[key] !== undefined) out[key] = parts[key]
  return out
}
