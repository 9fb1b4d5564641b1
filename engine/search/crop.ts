/**
 * Highlighting and cropping one text as milli's `Matcher` does (`crates/milli/src/search/new/matches/mod.rs`:
 * `format`, `crop_bounds`, `matches`, with `best_match_interval.rs`): where the matches are, the crop window with the
 * most distinct query terms, the closest together, in query order, and the text with its markers. Pure functions: the
 * tokens and matches of a text come from a `TextAnalyzer` (see highlight.ts).
 *
 * Offsets are UTF-8 byte offsets into the text (what `_matchesPosition` reports), never JS string indices.
 */

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
