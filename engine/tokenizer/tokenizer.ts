/**
 * The scanner (see index.ts for the pipeline it follows): script groups, separators and dictionary words matched
 * leftmost-longest, segmentation, normalization and classification, with a cache of normalized chunks.
 */
import { rustTrim } from '../util/rust-text.js'
import { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.js'
import { BMP_SCRIPT, KANA_BIT, Script, astralScript } from './script.js'
import { Lang, isAscii, lossy, nonLossy, type LangId } from './normalize.js'
import { ARABIC_ARTICLES, SEG_AR, SEG_NONE, computeBounds, groupLang, maybeNumber, parseLocales, segmenterFor, type Bounds } from './segmenters.js'
import { HARD, KIND_NAMES, MAX_DISTANCE, MAX_POSITION_PER_ATTRIBUTE, MAX_WORD_LENGTH, SOFT, STOP, WORD, type Token, type TokenizerConfig } from './types.js'

/**
 * Receives every token: kind, normalized text, UTF-16 range in the text. The text is null for a plain ASCII word
 * (no control character, no whitespace at either end, no stop word list to check): the word is its range of the
 * text, lowercased, and no string is made for it unless the sink makes one.
 */
type Sink = (kind: number, text: string | null, start: number, end: number) => void

/** Receives a plain ASCII word as its range of the text (to be read lowercased), with its position. */
export type WordRangeSink = (text: string, start: number, end: number, position: number) => void

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
    this.scan(text, locales === undefined ? this.defaultAllow : parseLocales(locales), (kind, normalized, start, end) => {
      // Tokens are contiguous; advance the byte and char cursors over the token's UTF-16 range.
      const byteStart = bytes + utf8Length(text.slice(u16, start))
      const charStart = chars + countChars(text, u16, start)
      const original = text.slice(start, end)
      const lemma = normalized ?? original.toLowerCase()
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
   * 250 bytes). Returns the position of the last word given to `fn`, or -1. With `range`, plain ASCII words go to
   * it instead, as their range of `text` (read lowercased): no string is made for them.
   */
  forEachWord(text: string, locales: readonly string[] | null | undefined, start: number, fn: (word: string, position: number) => void, maxPosition = MAX_POSITION_PER_ATTRIBUTE, range?: WordRangeSink): number {
    let offset = start
    let prev = -1 // -1 none, WORD for a word or stop word, SOFT, HARD
    let started = false
    let stopped = false
    let last = -1
    this.scan(text, locales === undefined ? this.defaultAllow : parseLocales(locales), (kind, lemma, from, to) => {
      if (stopped) return
      if (kind >= SOFT) {
        if (!started) return
        if (kind === HARD) prev = HARD
        else if (prev !== HARD) prev = SOFT
        return
      }
      started = true
      if (lemma !== null && lemma.length === 0) return
      offset += prev === HARD ? MAX_DISTANCE : prev === -1 ? 0 : 1
      prev = WORD
      if (kind === STOP) return
      if (offset >= maxPosition) { stopped = true; return }
      if (lemma === null) {
        // A plain ASCII word: already trimmed, one byte per character.
        if (to - from > MAX_WORD_LENGTH) return
        last = offset
        if (range) range(text, from, to, offset)
        else fn(text.slice(from, to).toLowerCase(), offset)
        return
      }
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
    if (seg === SEG_NONE) {
      this.emitWord(text, start, end, script, lang, sink)
      return
    }
    const raw = text.slice(start, end)
    if (maybeNumber(raw)) {
      this.emitWord(text, start, end, script, lang, sink)
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
      if (seg === SEG_AR && e - s > 2 && ARABIC_ARTICLES.some((a) => text.startsWith(a, s))) {
        this.emitWord(text, s, s + 2, script, lang, sink)
        this.emitWord(text, s + 2, e, script, lang, sink)
      } else {
        this.emitWord(text, s, e, script, lang, sink)
      }
      s = e
    }
  }

  /** The word `text[start, end)`: a run between matches, or a segment of one. */
  private emitWord(text: string, start: number, end: number, script: number, lang: LangId, sink: Sink): void {
    // ASCII fast path, one pass: only control characters and case can change; ASCII letters are always in a
    // Latin group, and a run between matches is never a separator.
    let upper = false
    let control = false
    let ascii = true
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c >= 0x80) { ascii = false; break }
      if (c <= 0x5a) {
        if (c >= 0x41) upper = true
        else if (c < 0x20 && (c < 0x09 || c > 0x0d)) control = true
      } else if (c === 0x7f) control = true
    }
    if (ascii) {
      // A plain word (no stop word to look up, nothing to trim: the characters at both ends are visible) goes to
      // the sink as its range, lowercased by the reader.
      if (!control && !this.hasStopWords && end > start && text.charCodeAt(start) > 0x20 && text.charCodeAt(end - 1) > 0x20) {
        sink(WORD, null, start, end)
        return
      }
      const raw = text.slice(start, end)
      const word = control ? nonLossy(raw, lang, true) : raw
      const kind = this.hasStopWords && this.stopWords.has(word) ? STOP : WORD
      sink(kind, upper ? word.toLowerCase() : word, start, end)
      return
    }
    const raw = text.slice(start, end)
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

/** Rust's `str::trim`, with a fast path for words that start and end with a visible ASCII character. */
function trimWord(s: string): string {
  const first = s.charCodeAt(0)
  const last = s.charCodeAt(s.length - 1)
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return s
  return rustTrim(s)
}
