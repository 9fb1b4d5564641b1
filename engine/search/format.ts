/**
 * Shaping search hits and responses as Meilisearch does. Pure functions: the tokenizer and the matcher (which words
 * of a text match which query terms) are other modules and come in through a `TextAnalyzer`.
 *
 * Sources: `crates/meilisearch/src/search/mod.rs` (`HitMaker`, `compute_formatted_options`, `format_fields`,
 * `format_value`, `SearchResult`/`SearchHit` field order), `crates/milli/src/search/new/matches/mod.rs`
 * (`Matcher::format`, `crop_bounds`, `matches`) with `best_match_interval.rs`, and `crates/permissive-json-pointer`
 * (`select_values`, `map_leaf_values`, `contained_in`).
 *
 * Offsets are UTF-8 byte offsets into the text (what `_matchesPosition` reports), never JS string indices.
 */
import { parseCropAttribute } from './request.js'
import { isObject, type JsonObject } from '../json/value.js'

// ---- analyzed text ---------------------------------------------------------------------------------------------------

/** A token of a text, by UTF-8 byte offsets. No `separator` means a word (stop words included). */
export interface TextToken {
  start: number
  end: number
  separator?: 'soft' | 'hard'
}

/**
 * A match: `start` is the byte offset of its first token; `length` the matched bytes (a prefix match covers only the
 * start of its word; a phrase match spans all its tokens, separators included). `ids`: the query terms it matches
 * (the crop window prefers intervals with more distinct ids, then closer, then in query order).
 */
export interface TextMatch {
  start: number
  length: number
  /** What `_matchesPosition` reports as the length when it differs from the highlighted bytes (milli's prefix matches). */
  reportedLength?: number
  ids?: readonly number[]
}

export interface AnalyzedText {
  tokens: readonly TextToken[]
  /** In text order, not overlapping (as the matcher produces them). */
  matches: readonly TextMatch[]
}

/** Tokenizes and matches one leaf value; `field` is its dotted path (for localized attributes). */
export type TextAnalyzer = (text: string, field: string) => AnalyzedText

export interface FormatOptions {
  highlight: boolean
  /** Crop to this many words; null (or 0) for no crop. */
  crop: number | null
}

export interface FormatMarkers {
  highlightPreTag: string
  highlightPostTag: string
  cropMarker: string
}

export interface MatchBounds {
  start: number
  length: number
  indices?: number[]
}

// ---- matches on tokens ---------------------------------------------------------------------------------------------

interface LocatedMatch {
  start: number
  /** Byte where the highlight ends (a prefix match stops inside its word). */
  highlightEnd: number
  /** Byte where its last token ends. */
  end: number
  firstToken: number
  lastToken: number
  firstWord: number
  lastWord: number
  minId: number
  ids: readonly number[]
}

function locateMatches(analyzed: AnalyzedText): LocatedMatch[] {
  const { tokens } = analyzed
  const wordPosition: number[] = []
  let words = 0
  for (const token of tokens) {
    wordPosition.push(words)
    if (token.separator === undefined) words++
  }
  const located: LocatedMatch[] = []
  for (const m of [...analyzed.matches].sort((a, b) => a.start - b.start)) {
    const matchEnd = m.start + m.length
    let first = tokens.findIndex((t) => t.start <= m.start && m.start < t.end)
    if (first === -1) first = tokens.findIndex((t) => t.start >= m.start)
    if (first === -1) continue
    let last = first
    while (last + 1 < tokens.length && tokens[last + 1]!.start < matchEnd) last++
    const ids = m.ids ?? []
    located.push({
      start: tokens[first]!.start,
      highlightEnd: Math.min(matchEnd, tokens[last]!.end),
      end: tokens[last]!.end,
      firstToken: first,
      lastToken: last,
      firstWord: wordPosition[first]!,
      lastWord: wordPosition[last]!,
      minId: ids.length === 0 ? -1 : Math.min(...ids),
      ids,
    })
  }
  return located
}

/** `_matchesPosition` entries of one value; `indices` when the value sits in arrays. */
export function matchBounds(analyzed: AnalyzedText, arrayIndices: readonly number[] = []): MatchBounds[] {
  return [...analyzed.matches]
    .sort((a, b) => a.start - b.start)
    .map((m) => {
      const length = m.reportedLength ?? m.length
      return arrayIndices.length === 0 ? { start: m.start, length } : { start: m.start, length, indices: [...arrayIndices] }
    })
}

// ---- the crop window -----------------------------------------------------------------------------------------------

type Score = [number, number, number]

function better(a: Score, b: Score): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!
  return false
}

/** `get_interval_score`: distinct query terms, then −(capped distances), then ordered pairs (phrases count inside). */
function intervalScore(matches: readonly LocatedMatch[]): Score {
  const ids = new Set<number>()
  let order = 0
  let distance = 0
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!
    const inPhrase = m.lastWord - m.firstWord
    order += inPhrase
    distance -= inPhrase
    const next = matches[i + 1]
    if (next !== undefined) {
      if (next.minId > m.minId) order += 1
      distance -= Math.min(next.firstWord - m.lastWord, 7)
    }
    for (const id of m.ids) ids.add(id)
  }
  return [ids.size, distance, order]
}

/** `find_best_match_interval`: the first and last match of the best interval that fits in `cropSize` words. */
function bestMatchInterval(matches: readonly LocatedMatch[], cropSize: number): [LocatedMatch, LocatedMatch] {
  let best: { first: number; last: number; score: Score } | null = null
  const save = (first: number, last: number) => {
    const score = intervalScore(matches.slice(first, last + 1))
    if (best === null || better(score, best.score)) best = { first, last, score }
  }
  let intervalFirst = 0
  let intervalFirstWord = matches[0]!.firstWord
  for (let index = 0; index < matches.length; index++) {
    const nextLastWord = matches[index]!.lastWord
    if (nextLastWord - intervalFirstWord >= cropSize) {
      if (index !== 0) save(intervalFirst, index - 1)
      for (;;) {
        intervalFirst += 1
        if (intervalFirst === matches.length) {
          intervalFirst -= 1
          break
        }
        intervalFirstWord = matches[intervalFirst]!.firstWord
        if (intervalFirstWord > nextLastWord || nextLastWord - intervalFirstWord < cropSize) break
      }
    }
  }
  const intervalLast = matches.length - 1
  const single = matches[intervalFirst]!
  if (intervalFirst !== intervalLast || single.lastWord - single.firstWord + 1 < cropSize) save(intervalFirst, intervalLast)
  const found = best as { first: number; last: number } | null
  return found === null ? [matches[0]!, matches[0]!] : [matches[found.first]!, matches[found.last]!]
}

/** `crop_bounds`: grow a window of `cropSize` words around the best matches, preferring words and soft separators. */
function cropBounds(textLength: number, tokens: readonly TextToken[], matches: readonly LocatedMatch[], cropSize: number): [number, number] {
  let remaining: number
  let forward: boolean
  let beforeStart: number
  let afterStart: number
  if (matches.length > 0) {
    const [first, last] = bestMatchInterval(matches, cropSize)
    const matchesSize = last.lastWord - first.firstWord + 1
    const fits = cropSize >= matchesSize
    forward = matchesSize === 0 || fits
    // a single phrase longer than the window: count the extra words backwards from its end.
    remaining = fits ? cropSize - matchesSize : matchesSize - cropSize
    afterStart = matchesSize === 0 ? 0 : Math.min(last.lastToken + 1, tokens.length)
    beforeStart = forward ? first.firstToken : 0
  } else {
    remaining = cropSize
    forward = true
    beforeStart = 0
    afterStart = 0
  }
  // `before` walks tokens[..beforeStart] backwards; `after` walks tokens[afterStart..] forwards, or, when a phrase
  // is longer than the window, tokens[..=afterStart] backwards (milli would panic past the end; we stop at it).
  let before = beforeStart - 1
  let after = forward ? afterStart : Math.min(afterStart, tokens.length - 1)
  const afterStep = forward ? 1 : -1
  const beforeToken = () => (before >= 0 ? tokens[before] : undefined)
  const afterToken = () => (after >= 0 && after < tokens.length ? tokens[after] : undefined)
  const isWord = (t: TextToken) => t.separator === undefined

  while (remaining > 0) {
    const b = beforeToken()
    const a = afterToken()
    if (b !== undefined && a !== undefined) {
      if (!isWord(b) && !isWord(a)) {
        if (b.separator === a.separator) {
          before--
          // this avoids having an ending separator before the crop marker.
          if (remaining > 1) after += afterStep
        } else if (b.separator === 'hard') {
          after += afterStep
        } else {
          before--
        }
      } else if (isWord(b) && !isWord(a)) {
        before--
        remaining--
      } else if (!isWord(b) && isWord(a)) {
        after += afterStep
        remaining--
      } else {
        before--
        remaining--
        if (remaining > 0) {
          after += afterStep
          remaining--
        }
      }
    } else if (b !== undefined) {
      before--
      if (isWord(b)) remaining--
    } else if (a !== undefined) {
      after += afterStep
      if (isWord(a)) remaining--
    } else {
      break
    }
  }
  const b = beforeToken()
  const a = afterToken()
  return [b === undefined ? 0 : b.end, a === undefined ? textLength : a.start]
}

// ---- formatting one text -----------------------------------------------------------------------------------------

/**
 * `Matcher::format`: crop (to `crop` words around the best matches, with the crop marker where text was cut) and
 * highlight (pre/post tags around each match; a prefix match highlights its matched bytes and leaves the rest of
 * the word after the post tag). Without highlight or crop the text is returned unchanged.
 */
export function formatText(text: string, analyzed: AnalyzedText, options: FormatOptions, markers: FormatMarkers): string {
  if (!options.highlight && (options.crop === null || options.crop === undefined)) return text
  const bytes = Buffer.from(text, 'utf8')
  const slice = (from: number, to: number) => bytes.toString('utf8', from, to)
  const matches = locateMatches(analyzed)
  const [cropStart, cropEnd] = options.crop !== null && options.crop > 0
    ? cropBounds(bytes.length, analyzed.tokens, matches, options.crop)
    : [0, bytes.length]

  let out = ''
  if (cropStart > 0 && markers.cropMarker !== '') out += markers.cropMarker
  let index = cropStart
  if (options.highlight) {
    for (const m of matches) {
      // skip matches out of the crop window
      if (m.end < cropStart || m.start > cropEnd) continue
      const start = Math.max(m.start, cropStart)
      const end = Math.min(m.end, cropEnd)
      if (start < index) continue // overlapping matches: the matcher never produces them
      if (index < start) out += slice(index, start)
      const highlightEnd = Math.min(Math.max(m.highlightEnd, start), end)
      out += markers.highlightPreTag + slice(start, highlightEnd) + markers.highlightPostTag
      if (highlightEnd < end) out += slice(highlightEnd, end)
      index = end
    }
  }
  if (index < cropEnd) out += slice(index, cropEnd)
  if (cropEnd < bytes.length && markers.cropMarker !== '') out += markers.cropMarker
  return out
}

// ---- JSON paths (permissive-json-pointer) --------------------------------------------------------------------------



/** `contained_in`: `selector` is `key` or a path under it (`a.b` is contained in `a`; `a` is not in `a.b`). */
export function containedIn(selector: string, key: string): boolean {
  if (selector === key) return true
  return selector.startsWith(key) && selector.length > key.length + 1 && selector[key.length] === '.'
}

/** milli's `is_faceted_by`: `field` is `facet` or nested under it. */
function isFacetedBy(field: string, facet: string): boolean {
  return field === facet || (field.startsWith(facet) && field[facet.length] === '.')
}

/** `select_values`: a new document with only the selected fields (dotted paths reach into objects and arrays). */
export function selectValues(document: JsonObject, selectors: Iterable<string>): JsonObject {
  return createValue(document, new Set(selectors))
}

function createValue(value: JsonObject, selectors: Set<string>): JsonObject {
  const out: JsonObject = {}
  for (const [key, v] of Object.entries(value)) {
    if (selectors.has(key)) {
      out[key] = v
      if (!key.includes('.')) {
        selectors.delete(key)
        continue
      }
    }
    const sub = new Set<string>()
    for (const s of selectors) if (containedIn(s, key) && s !== key) sub.add(s.slice(key.length + 1))
    if (sub.size === 0) continue
    if (Array.isArray(v)) out[key] = createArray(v, sub)
    else if (isObject(v)) out[key] = createValue(v, sub)
  }
  return out
}

function createArray(array: unknown[], selectors: Set<string>): unknown[] {
  const out: unknown[] = []
  for (const v of array) {
    if (Array.isArray(v)) out.push(createArray(v, selectors))
    else if (isObject(v)) {
      const o = createValue(v, new Set(selectors))
      if (Object.keys(o).length > 0) out.push(o)
    }
  }
  return out
}

/** `map_leaf_values`: calls `mapper(dottedKey, arrayIndices, value)` on every selected leaf; replaces it by the result. */
export function mapLeafValues(document: JsonObject, selectors: readonly string[] | null, mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  mapInObject(document, selectors, '', [], mapper)
}

function mapInObject(object: JsonObject, selectors: readonly string[] | null, baseKey: string, indices: readonly number[], mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  for (const key of Object.keys(object)) {
    const path = baseKey === '' ? key : `${baseKey}.${key}`
    if (selectors !== null && !selectors.some((s) => containedIn(s, path) || containedIn(path, s))) continue
    const v = object[key]
    if (Array.isArray(v)) mapInArray(v, selectors, path, indices, mapper)
    else if (isObject(v)) mapInObject(v, selectors, path, indices, mapper)
    else object[key] = mapper(path, indices, v)
  }
}

function mapInArray(array: unknown[], selectors: readonly string[] | null, baseKey: string, base: readonly number[], mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  for (let i = 0; i < array.length; i++) {
    const indices = [...base, i]
    const v = array[i]
    if (Array.isArray(v)) mapInArray(v, selectors, baseKey, indices, mapper)
    else if (isObject(v)) mapInObject(v, selectors, baseKey, indices, mapper)
    else array[i] = mapper(baseKey, indices, v)
  }
}

/** Every field path of a document in first-seen order (objects inside arrays included): an index's field-id order. */
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

  const hitDocument = toRetrieve === null ? deepClone(source) : selectValues(deepClone(source), toRetrieve)
  if (keepVectors && VECTORS in document) hitDocument[VECTORS] = deepClone(document[VECTORS])

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
  const work = selection === null ? deepClone(source) : selectValues(deepClone(source), selection)
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
