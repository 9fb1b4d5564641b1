/**
 * Segmentation of a script group (charabia's segmenters): which groups are segmented, the language a group gets,
 * and word boundaries from `Intl.Segmenter`, computed in windows.
 */
import { Lang, langId, type LangId } from './normalize.js'
import { Script } from './script.js'

// Segmenters (charabia's SEGMENTERS map): which groups are segmented. Intl.Segmenter stands in for all the
// dictionaries (the kinds differ only in the Arabic article split; ICU's boundaries do not depend on the locale).
export const SEG_NONE = 0
const SEG_ZH = 1
const SEG_JA = 2
const SEG_KO = 3
const SEG_TH = 4
const SEG_KM = 5
export const SEG_AR = 6

/** Word starts (absolute UTF-16 offsets) known for text[from, to), and the next one to use. */
export interface Bounds { from: number; to: number; starts: number[]; cursor: number }

// V8's Intl.Segmenter gets very slow on long strings (quadratic: 150k characters take seconds) and each call costs
// several microseconds, so boundaries are computed in windows of WINDOW characters, at least SPAN characters at a
// time, and shared by the following groups. ICU picks its word dictionaries by script, not by locale (zh, ja, th
// and km segmenters give the same boundaries), so one segmenter serves every script; a CJK or Thai run never spans
// a script change, where ICU always breaks, so the context outside a group does not change its boundaries.
const WINDOW = 1024
const SPAN = 4096
let wordSegmenter: Intl.Segmenter | undefined

export function computeBounds(text: string, start: number, end: number, bounds: Bounds): void {
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

export const ARABIC_ARTICLES = ['ال', 'أل', 'إل', 'آل', 'ٱل']
const NUMERIC = /^\p{N}$/u

/** charabia's `maybe_number`: only numeric characters and ASCII punctuation — such a run is never segmented. */
export function maybeNumber(s: string): boolean {
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
export function parseLocales(locales: readonly string[] | undefined | null): LangId[] | null {
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
export function groupLang(script: number, hasKana: boolean, allow: LangId[] | null): LangId {
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

export function segmenterFor(script: number, lang: LangId): number {
  switch (script) {
    case Script.Cj: return lang === Lang.Cmn || lang === Lang.Zho ? SEG_ZH : lang === Lang.Jpn ? SEG_JA : SEG_NONE
    case Script.Thai: return SEG_TH
    case Script.Khmer: return SEG_KM
    case Script.Hangul: return SEG_KO
    case Script.Arabic: return SEG_AR
    default: return SEG_NONE
  }
}
