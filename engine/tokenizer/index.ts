/**
 * The tokenizer: Meilisearch's (charabia 0.9 as milli configures it), one for indexing and for queries.
 *
 * Pipeline, as charabia runs it (charabia/src/segmenter/mod.rs, tokenizer.rs, normalizer/*):
 *   1. The text is cut into script groups (script.ts): a letter of another script starts a group; digits, spaces,
 *      punctuation and symbols stay in the group they follow.
 *   2. In each group, separators and `dictionary` words are found leftmost-longest on the raw text. Each match is a
 *      token of its own; what lies between matches is handed to the group's segmenter: Chinese and Japanese (CJ
 *      script, language from `locales` or detected: any kana → Japanese, else Chinese), Thai, Khmer and Korean runs
 *      go through `Intl.Segmenter` (charabia uses jieba, lindera/UniDic, lindera/ko-dic and its own dictionaries, so
 *      word boundaries may differ); Arabic is split on word boundaries with the article ال split off; everything else
 *      (Latin, Cyrillic, Greek, …) is kept whole. A run made only of digits and ASCII punctuation is never segmented.
 *   3. Each token is normalized (normalize.ts) and classified on its non-lossy form: a stop word (exact, so
 *      case-sensitive: milli stores stop words with the same non-lossy normalization), else a separator if that form
 *      is in the separator list (hard when it is one of charabia's context separators), else a word. So `…` becomes
 *      the word `...` (NFKD), `，` the soft separator `,`, `\0` an empty word that is ignored.
 *
 * Positions (milli's `process_tokens`, update/new/extract/searchable/tokenize_document.rs): a word is 1 after the
 * previous word, or 8 (MAX_DISTANCE) after it when a hard separator came between; stop words take a position but are
 * not indexed; leading separators are ignored. In an attribute, each further value (array element) starts 8 after
 * the last indexed position; positions stop at 65,536 (MAX_POSITION_PER_ATTRIBUTE); words are trimmed and those
 * empty or longer than 250 bytes (MAX_WORD_LENGTH) are skipped.
 *
 * Settings (milli `Index::allowed_separators`): the separator list is the default list plus `separatorTokens`
 * minus `nonSeparatorTokens` (exact strings: removing "." keeps ". "); `dictionary` entries are extra patterns
 * matched on the raw text (case-sensitive, anywhere, even inside a word).
 */
import { matchAttributePattern } from '../settings/patterns.js'
import { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.js'
import { BMP_SCRIPT, KANA_BIT, Script, astralScript } from './script.js'
import { Lang, isAscii, langId, lossy, nonLossy, type LangId } from './normalize.js'

export { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.js'
export { katakanaToHiragana } from './normalize.js'

/** Distance added between two words separated by a hard separator, and between two values of an attribute. */
export const MAX_DISTANCE = 8
/** Positions in an attribute are below this (u16::MAX + 1). */
export const MAX_POSITION_PER_ATTRIBUTE = 65_536
/** Longest indexed word, in UTF-8 bytes (milli: LMDB key limit 500 / 2). */
export const MAX_WORD_LENGTH = 250

export type TokenKind = 'word' | 'stopWord' | 'separator'

export interface Token {
  kind: TokenKind
  /** Separators only: a hard separator (sentence or clause mark). */
  hard?: boolean
  /** The normalized text (charabia's lemma). */
  text: string
  /** The text as written. */
  original: string
  /** UTF-8 byte offsets into the original text (what `_matchesPosition` reports). */
  byteStart: number
  byteEnd: number
  /** Offsets in Unicode scalar values (code points). */
  charStart: number
  charEnd: number
}

export interface TokenizerConfig {
  separatorTokens: string[]
  nonSeparatorTokens: string[]
  dictionary: string[]
  stopWords: string[]
  /** Default locales (ISO-639-3 like 'cmn', 'jpn', 'eng'; ISO-639-1 accepted) when `tokenize` gets none. */
  locales?: string[]
}

/** Settings (or a subset) to a tokenizer configuration. */
export function tokenizerConfig(settings: Partial<Pick<TokenizerConfig, 'separatorTokens' | 'nonSeparatorTokens' | 'dictionary' | 'stopWords'>>): TokenizerConfig {
  return {
    separatorTokens: settings.separatorTokens ?? [],
    nonSeparatorTokens: settings.nonSeparatorTokens ?? [],
    dictionary: settings.dictionary ?? [],
    stopWords: settings.stopWords ?? [],
  }
}

// Token kinds inside the scanner.
const WORD = 0
const STOP = 1
const SOFT = 2
const HARD = 3
const KIND_NAMES: readonly TokenKind[] = ['word', 'stopWord', 'separator', 'separator']

/** Receives every token: kind, normalized text, UTF-16 range in the text. */
type Sink = (kind: number, text: string, start: number, end: number) => void

// Segmenters (charabia's SEGMENTERS map): which groups are segmented. Intl.Segmenter stands in for all the
// dictionaries (the kinds differ only in the Arabic article split; ICU's boundaries do not depend on the locale).
const SEG_NONE = 0
const SEG_ZH = 1
const SEG_JA = 2
const SEG_KO = 3
const SEG_TH = 4
const SEG_KM = 5
const SEG_AR = 6

/** Word starts (absolute UTF-16 offsets) known for text[from, to), and the next one to use. */
interface Bounds { from: number; to: number; starts: number[]; cursor: number }

// V8's Intl.Segmenter gets very slow on long strings (quadratic: 150k characters take seconds) and each call costs
// several microseconds, so boundaries are computed in windows of WINDOW characters, at least SPAN characters at a
// time, and shared by the following groups. ICU picks its word dictionaries by script, not by locale (zh, ja, th
// and km segmenters give the same boundaries), so one segmenter serves every script; a CJK or Thai run never spans
// a script change, where ICU always breaks, so the context outside a group does not change its boundaries.
const WINDOW = 1024
const SPAN = 4096
let wordSegmenter: Intl.Segmenter | undefined

function computeBounds(text: string, start: number, end: number, bounds: Bounds): void {
  const seg = (wordSegmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }))
  const target = Math.min(text.length, Math.max(end, start + SPAN))
  const starts: number[] = []
  let pos = start
  for (;;) {
    let windowEnd = Math.min(text.length, pos + WINDOW)
    const h = text.charCodeAt(windowEnd - 1)
    if (windowEnd < text.length && h >= 0xd800 && h <= 0xdbff) windowEnd-- // never cut a surrogate pair
    for (const { index } of seg.segment(text.slice(pos, windowEnd))) starts.push(pos + index)
    if (windowEnd >= text.length) { pos = text.length; break }
    // The window may cut the last segment: drop it and start the next window there.
    const last = starts[starts.length - 1]!
    if (last > pos) { starts.pop(); pos = last } else pos = windowEnd
    if (pos >= target) break
  }
  bounds.from = start
  bounds.to = pos
  bounds.starts = starts
  bounds.cursor = 0
}

const ARABIC_ARTICLES = ['ال', 'أل', 'إل', 'آل', 'ٱل']
const NUMERIC = /^\p{N}$/u

/** charabia's `maybe_number`: only numeric characters and ASCII punctuation — such a run is never segmented. */
function maybeNumber(s: string): boolean {
  for (const ch of s) {
    const c = ch.charCodeAt(0)
    if (c < 0x80) {
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)) continue
      return false
    }
    if (!NUMERIC.test(ch)) return false
  }
  return true
}

/** Parsed locales: null when none (an empty list means none, as in Meilisearch). */
function parseLocales(locales: readonly string[] | undefined | null): LangId[] | null {
  if (!locales || locales.length === 0) return null
  return locales.map(langId)
}

/**
 * The language of a group, as charabia's detector ends up with it. Only Latin and CJ groups ever get one (the other
 * scripts have a single segmenter, so charabia never asks). A single allowed language is taken as is; for CJ, any
 * kana means Japanese, otherwise Chinese (whatlang's rule), restricted to the allowed ones (else undetected).
 * Latin is never detected without a single-language allow list (whatlang detection among several allowed Latin
 * languages is not reproduced).
 */
function groupLang(script: number, hasKana: boolean, allow: LangId[] | null): LangId {
  if (script !== Script.Cj && script !== Script.Latin) return Lang.None
  if (allow !== null && allow.length === 1) return allow[0]!
  if (script === Script.Latin) return Lang.None
  if (allow === null) return hasKana ? Lang.Jpn : Lang.Cmn
  if (hasKana && allow.includes(Lang.Jpn)) return Lang.Jpn
  if (allow.includes(Lang.Cmn)) return Lang.Cmn
  if (allow.includes(Lang.Zho)) return Lang.Zho
  if (allow.includes(Lang.Jpn)) return Lang.Jpn
  return Lang.None
}

function segmenterFor(script: number, lang: LangId): number {
  switch (script) {
    case Script.Cj: return lang === Lang.Cmn || lang === Lang.Zho ? SEG_ZH : lang === Lang.Jpn ? SEG_JA : SEG_NONE
    case Script.Thai: return SEG_TH
    case Script.Khmer: return SEG_KM
    case Script.Hangul: return SEG_KO
    case Script.Arabic: return SEG_AR
    default: return SEG_NONE
  }
}

const CACHE_LIMIT = 200_000
const CHUNK_CACHE_MAX_LENGTH = 32

/** UTF-8 length of a string. */
function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { n += 4; i++ }
    else n += 3
  }
  return n
}

/** A word with its position in an attribute. */
export interface WordPosition {
  word: string
  position: number
}

export class Tokenizer {
  /** Per UTF-16 unit: bit 1 = a one-unit pattern (or the high surrogate of an astral one), bit 2 = a longer pattern starts with it. */
  private readonly flags = new Uint8Array(0x10000)
  private readonly astralSingles = new Set<number>()
  /** Longer patterns by first code unit, longest first. */
  private readonly multi = new Map<number, string[]>()
  /** The separator list (classification compares the token's non-lossy form against it). */
  private readonly separators: Set<string>
  private readonly stopWords: Set<string>
  private readonly hasStopWords: boolean
  /** Kind of a one-unit BMP match (255 = not precomputed) and its non-lossy text. */
  private readonly singleKind = new Uint8Array(0x10000).fill(255)
  private readonly singleText: string[] = []
  private readonly matchCache = new Map<string, { kind: number; text: string }>()
  private readonly wordCaches = new Map<number, Map<string, number | string>>()
  /** Word starts (relative) of short segmented runs. */
  private readonly chunkCache = new Map<string, number[]>()
  private readonly defaultAllow: LangId[] | null

  constructor(config: TokenizerConfig) {
    const custom = config.separatorTokens.length > 0 || config.nonSeparatorTokens.length > 0
    const seps = new Set<string>(DEFAULT_SEPARATORS)
    if (custom) {
      for (const s of config.separatorTokens) seps.add(s)
      for (const s of config.nonSeparatorTokens) seps.delete(s)
    }
    seps.delete('')
    this.separators = seps
    this.stopWords = new Set(config.stopWords.map((w) => nonLossy(w, Lang.None, isAscii(w))))
    this.hasStopWords = this.stopWords.size > 0
    this.defaultAllow = parseLocales(config.locales)

    const patterns = new Set<string>(seps)
    for (const w of config.dictionary) if (w !== '') patterns.add(w)
    for (const p of patterns) {
      const cp = p.codePointAt(0)!
      const unitLen = cp > 0xffff ? 2 : 1
      if (p.length === unitLen) {
        if (unitLen === 1) {
          this.flags[cp] |= 1
          const text = nonLossy(p, Lang.None, cp < 0x80)
          this.singleKind[cp] = this.classify(text)
          this.singleText[cp] = text
        } else {
          this.astralSingles.add(cp)
          this.flags[p.charCodeAt(0)] |= 1
        }
      } else {
        const first = p.charCodeAt(0)
        this.flags[first] |= 2
        const list = this.multi.get(first)
        if (list) list.push(p)
        else this.multi.set(first, [p])
      }
    }
    for (const list of this.multi.values()) list.sort((a, b) => b.length - a.length)
  }

  private classify(nonLossyText: string): number {
    if (this.stopWords.has(nonLossyText)) return STOP
    if (this.separators.has(nonLossyText)) return HARD_SEPARATORS.has(nonLossyText) ? HARD : SOFT
    return WORD
  }

  /** Tokens of `text`, separators included, covering the whole text in order. */
  tokenize(text: string, locales?: readonly string[] | null): Token[] {
    const tokens: Token[] = []
    let u16 = 0
    let bytes = 0
    let chars = 0
    this.scan(text, locales === undefined ? this.defaultAllow : parseLocales(locales), (kind, lemma, start, end) => {
      // Tokens are contiguous; advance the byte and char cursors over the token's UTF-16 range.
      const byteStart = bytes + utf8Length(text.slice(u16, start))
      const charStart = chars + countChars(text, u16, start)
      const original = text.slice(start, end)
      const byteEnd = byteStart + utf8Length(original)
      const charEnd = charStart + countChars(text, start, end)
      u16 = end
      bytes = byteEnd
      chars = charEnd
      const token: Token = { kind: KIND_NAMES[kind]!, text: lemma, original, byteStart, byteEnd, charStart, charEnd }
      if (kind >= SOFT) token.hard = kind === HARD
      tokens.push(token)
    })
    return tokens
  }

  /**
   * The indexed words of one attribute value, with milli's positions, starting at `start` (0 for an attribute's
   * first value). Stops at `maxPosition`. Calls `fn(word, position)` for each word kept (trimmed, non-empty, at most
   * 250 bytes). Returns the position of the last word given to `fn`, or -1.
   */
  forEachWord(text: string, locales: readonly string[] | null | undefined, start: number, fn: (word: string, position: number) => void, maxPosition = MAX_POSITION_PER_ATTRIBUTE): number {
    let offset = start
    let prev = -1 // -1 none, WORD for a word or stop word, SOFT, HARD
    let started = false
    let stopped = false
    let last = -1
    this.scan(text, locales === undefined ? this.defaultAllow : parseLocales(locales), (kind, lemma) => {
      if (stopped) return
      if (kind >= SOFT) {
        if (!started) return
        if (kind === HARD) prev = HARD
        else if (prev !== HARD) prev = SOFT
        return
      }
      started = true
      if (lemma.length === 0) return
      offset += prev === HARD ? MAX_DISTANCE : prev === -1 ? 0 : 1
      prev = WORD
      if (kind === STOP) return
      if (offset >= maxPosition) { stopped = true; return }
      const word = trimWord(lemma)
      if (word.length === 0 || (word.length > 83 && utf8Length(word) > MAX_WORD_LENGTH)) return
      last = offset
      fn(word, offset)
    })
    return last
  }

  /** The core: scan `text` group by group, emitting every token to `sink`. */
  private scan(text: string, allow: LangId[] | null, sink: Sink): void {
    const n = text.length
    const bounds: Bounds = { from: 0, to: 0, starts: [], cursor: 0 }
    let i = 0
    while (i < n) {
      const groupStart = i
      let script: number = Script.Other
      let scriptCount = 0
      let armenian = 0
      let hasKana = false
      while (i < n) {
        const c = text.charCodeAt(i)
        let s: number
        let w = 1
        if (c < 0xd800 || c > 0xdbff) {
          s = BMP_SCRIPT[c]!
          if (s & KANA_BIT) { hasKana = true; s &= 0x7f }
        } else {
          const d = i + 1 < n ? text.charCodeAt(i + 1) : 0
          if (d >= 0xdc00 && d <= 0xdfff) { s = astralScript(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000); w = 2 } else s = Script.Other
        }
        if (s !== Script.Other) {
          if (s === Script.Armenian) armenian++
          else if (s !== script) {
            if (script !== Script.Other) break
            script = s
            scriptCount = 1
          } else scriptCount++
        }
        i += w
      }
      // whatlang names the group after its most frequent script; Armenian never splits groups in charabia.
      if (armenian > scriptCount) script = Script.Armenian
      this.scanGroup(text, groupStart, i, script, groupLang(script, hasKana, allow), bounds, sink)
    }
  }

  private scanGroup(text: string, start: number, end: number, script: number, lang: LangId, bounds: Bounds, sink: Sink): void {
    const flags = this.flags
    const seg = segmenterFor(script, lang)
    let chunk = start
    let j = start
    while (j < end) {
      const c = text.charCodeAt(j)
      const f = flags[c]!
      if (f === 0) { j++; continue }
      let len = 0
      if (f & 2) {
        for (const p of this.multi.get(c)!) {
          if (j + p.length <= end && text.startsWith(p, j)) { len = p.length; break }
        }
      }
      if (len === 0 && f & 1) {
        if (c >= 0xd800 && c <= 0xdbff) {
          const d = j + 1 < end ? text.charCodeAt(j + 1) : 0
          if (d >= 0xdc00 && d <= 0xdfff && this.astralSingles.has(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) len = 2
        } else len = 1
      }
      if (len === 0) { j++; continue }
      if (chunk < j) this.emitChunk(text, chunk, j, script, lang, seg, bounds, sink)
      if (len === 1 && this.singleKind[c]! >= SOFT && this.singleKind[c] !== 255) {
        sink(this.singleKind[c]!, this.singleText[c]!, j, j + 1)
      } else {
        this.emitMatch(text.slice(j, j + len), j, j + len, script, lang, sink)
      }
      j += len
      chunk = j
    }
    if (chunk < end) this.emitChunk(text, chunk, end, script, lang, seg, bounds, sink)
  }

  /** A separator or dictionary match. */
  private emitMatch(raw: string, start: number, end: number, script: number, lang: LangId, sink: Sink): void {
    let m = this.matchCache.get(raw)
    if (m === undefined) {
      const text = nonLossy(raw, lang, isAscii(raw))
      m = { kind: this.classify(text), text }
      if (this.matchCache.size < CACHE_LIMIT) this.matchCache.set(raw, m)
    }
    sink(m.kind, m.kind >= SOFT ? m.text : lossy(m.text, script, lang, isAscii(m.text)), start, end)
  }

  /**
   * Text between matches: segmented by the group's segmenter, each piece a token. `bounds` are the word boundaries
   * of the text from this chunk on, computed when first needed (see computeBounds) and consumed in order through
   * `cursor`; a chunk starts after a separator or a script change, where ICU breaks anyway.
   */
  private emitChunk(text: string, start: number, end: number, script: number, lang: LangId, seg: number, bounds: Bounds, sink: Sink): void {
    const raw = text.slice(start, end)
    if (seg === SEG_NONE || maybeNumber(raw)) {
      this.emitWord(raw, start, end, script, lang, sink)
      return
    }
    // Short runs repeat (names, tags, common phrases): their word starts are cached, relative to the run.
    let rel = raw.length <= CHUNK_CACHE_MAX_LENGTH ? this.chunkCache.get(raw) : undefined
    if (rel === undefined) {
      if (!(bounds.from <= start && end <= bounds.to)) computeBounds(text, start, end, bounds)
      const b = bounds.starts
      while (bounds.cursor < b.length && b[bounds.cursor]! <= start) bounds.cursor++
      rel = []
      for (let k = bounds.cursor; k < b.length && b[k]! < end; k++) rel.push(b[k]! - start)
      if (raw.length <= CHUNK_CACHE_MAX_LENGTH) {
        if (this.chunkCache.size >= CACHE_LIMIT) this.chunkCache.clear()
        this.chunkCache.set(raw, rel)
      }
    }
    let r = 0
    let s = start
    while (s < end) {
      const e = r < rel.length ? start + rel[r++]! : end
      const piece = text.slice(s, e)
      if (seg === SEG_AR && piece.length > 2 && ARABIC_ARTICLES.some((a) => piece.startsWith(a))) {
        this.emitWord(piece.slice(0, 2), s, s + 2, script, lang, sink)
        this.emitWord(piece.slice(2), s + 2, e, script, lang, sink)
      } else {
        this.emitWord(piece, s, e, script, lang, sink)
      }
      s = e
    }
  }

  private emitWord(raw: string, start: number, end: number, script: number, lang: LangId, sink: Sink): void {
    // ASCII fast path, one pass: only control characters and case can change; ASCII letters are always in a
    // Latin group, and a run between matches is never a separator.
    let upper = false
    let control = false
    let ascii = true
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i)
      if (c >= 0x80) { ascii = false; break }
      if (c <= 0x5a) {
        if (c >= 0x41) upper = true
        else if (c < 0x20 && (c < 0x09 || c > 0x0d)) control = true
      } else if (c === 0x7f) control = true
    }
    if (ascii) {
      const text = control ? nonLossy(raw, lang, true) : raw
      const kind = this.hasStopWords && this.stopWords.has(text) ? STOP : WORD
      sink(kind, upper ? text.toLowerCase() : text, start, end)
      return
    }
    const key = script * 16 + lang
    let cache = this.wordCaches.get(key)
    if (cache === undefined) this.wordCaches.set(key, (cache = new Map()))
    const hit = cache.get(raw)
    if (hit !== undefined) {
      // Words are cached as their text; other kinds as a number (kind) followed by the text in the next entry.
      if (typeof hit === 'string') sink(WORD, hit, start, end)
      else sink(hit, cache.get('\u0000' + raw) as string, start, end)
      return
    }
    const nl = nonLossy(raw, lang, false)
    const kind = this.classify(nl)
    const out = kind >= SOFT ? nl : lossy(nl, script, lang, isAscii(nl))
    if (cache.size >= CACHE_LIMIT) cache.clear()
    if (kind === WORD) cache.set(raw, out)
    else { cache.set(raw, kind); cache.set('\u0000' + raw, out) }
    sink(kind, out, start, end)
  }
}

function countChars(s: string, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) { const d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) i++ }
    n++
  }
  return n
}

// Rust's `char::is_whitespace` (the White_Space property; unlike JS `trim`, U+FEFF is not trimmed).
const LEADING_WS = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/
const TRAILING_WS = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/

/** Rust's `str::trim`. */
function trimWord(s: string): string {
  const first = s.charCodeAt(0)
  const last = s.charCodeAt(s.length - 1)
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return s
  return s.replace(LEADING_WS, '').replace(TRAILING_WS, '')
}

/**
 * milli's `process_tokens`: positions of the word tokens (stop words take a position but are left out; a hard
 * separator between two words makes the distance 8 instead of 1; leading separators are ignored; empty words are
 * ignored). `start` is the attribute's current position (0 for its first value).
 */
export function positions(tokens: readonly Token[], start = 0): (WordPosition & { token: Token })[] {
  const out: (WordPosition & { token: Token })[] = []
  let offset = start
  let prev = -1
  let started = false
  for (const token of tokens) {
    if (token.kind === 'separator') {
      if (!started) continue
      if (token.hard) prev = HARD
      else if (prev !== HARD) prev = SOFT
      continue
    }
    started = true
    if (token.text.length === 0) continue
    offset += prev === HARD ? MAX_DISTANCE : prev === -1 ? 0 : 1
    prev = WORD
    if (token.kind === 'word') out.push({ word: token.text, position: offset, token })
  }
  return out
}

/** A leaf value of a document field, as milli tokenizes it. */
export type FieldValue = string | number | boolean

/** milli's text for a leaf value: numbers and booleans are tokenized from their string form. */
export function valueText(value: FieldValue): string {
  return typeof value === 'string' ? value : String(value)
}

/**
 * The indexed words of one searchable attribute (all its leaf values in document order), as milli's
 * `tokenize_field` indexes them: the first value starts at position 0, each further value 8 after the last indexed
 * position (even when a value yields nothing), nothing at or past 65,536. `locales` are the attribute's
 * `localizedAttributes` locales, used for string values only (numbers and booleans are tokenized without).
 */
export function attributeWords(tokenizer: Tokenizer, values: readonly FieldValue[], locales?: readonly string[] | null, maxPosition = MAX_POSITION_PER_ATTRIBUTE): WordPosition[] {
  const out: WordPosition[] = []
  forEachAttributeWord(tokenizer, values, locales, (word, position) => { out.push({ word, position }) }, maxPosition)
  return out
}

/** `attributeWords`, each word handed to `fn` as it is found (no object per word: what indexing uses). */
export function forEachAttributeWord(tokenizer: Tokenizer, values: readonly FieldValue[], locales: readonly string[] | null | undefined, fn: (word: string, position: number) => void, maxPosition = MAX_POSITION_PER_ATTRIBUTE): void {
  let position = -1
  for (const value of values) {
    position = position < 0 ? 0 : position + MAX_DISTANCE
    if (position >= maxPosition) break
    const last = tokenizer.forEachWord(valueText(value), typeof value === 'string' ? locales : null, position, fn, maxPosition)
    if (last >= 0) position = last
  }
}

const defaultTokenizer = new Tokenizer({ separatorTokens: [], nonSeparatorTokens: [], dictionary: [], stopWords: [] })

/**
 * Normalizes a word or phrase as the tokenizer normalizes a token (NFKD, control characters, then the lossy steps
 * of its script: lowercase, diacritics, kana…), without splitting it. The script is that of the text's first
 * letters; the language comes from `locales` or detection as for a group.
 */
export function normalize(word: string, locales?: readonly string[] | null): string {
  let script: number = Script.Other
  let hasKana = false
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    let s = c >= 0xd800 && c <= 0xdfff ? Script.Other : BMP_SCRIPT[c]!
    if (s & KANA_BIT) { hasKana = true; s &= 0x7f }
    if (script === Script.Other && s !== Script.Other) script = s
  }
  const lang = groupLang(script, hasKana, parseLocales(locales))
  const ascii = isAscii(word)
  const nl = nonLossy(word, lang, ascii)
  return lossy(nl, script, lang, isAscii(nl))
}

/** The tokenizer with Meilisearch's default settings. */
export function defaultTokenizerInstance(): Tokenizer {
  return defaultTokenizer
}

/** A `localizedAttributes` rule (settings' LocalizedAttributesRule). */
export interface LocalizedRule {
  attributePatterns: string[]
  locales: string[]
}

export { matchAttributePattern }

/**
 * The locales for a field's string values (milli `tokenize_field`): those of the first `localizedAttributes` rule
 * with a pattern matching the field's dotted name, else null (detection).
 */
export function localesForField(rules: readonly LocalizedRule[] | null | undefined, field: string): string[] | null {
  if (!rules) return null
  for (const rule of rules) if (rule.attributePatterns.some((p) => matchAttributePattern(p, field))) return rule.locales
  return null
}
