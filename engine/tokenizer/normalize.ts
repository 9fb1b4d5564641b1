/**
 * charabia's normalizer pipeline, per token (charabia/src/normalizer/*), in its order:
 *
 * Non-lossy (applied before classification, so stop words and separators are compared after them):
 *   1. compatibility decomposition: NFKD (ligatures, fullwidth forms, `…` → `...`, accents split off);
 *   2. Swedish recomposition (only when the language is Swedish): `a`/`A`/`o`/`O` + U+030A/U+0308 back to å ä ö;
 *   3. control characters removed (Unicode Cc that are not whitespace: `\0` disappears, `\t` stays).
 * Lossy (after classification):
 *   4. lowercase — only for Latin, Cyrillic, Greek, Georgian, Armenian tokens (char by char, so no final-sigma rule);
 *   5. quotes ’ ‘ ‛ → ' (Latin); 6. œ æ → oe ae (Latin);
 *   7. Chinese kvariants + traditional→simplified (CJ tokens, Chinese or undetected language) — NOT reproduced: the
 *      mapping tables (irg-kvariants, character_converter) are not available here; Chinese text is kept as written;
 *   8. Japanese: katakana → hiragana (wana_kana `to_hiragana` with `pass_romaji`; CJ tokens, Japanese or undetected
 *      language, unless already all hiragana), including its long-vowel-mark rule (カー → かあ);
 *   9. Greek: a final ς becomes σ; 10. Arabic: tatweel removed, ٱ → ا, ى → ي, ة → ه;
 *  11. nonspacing marks (Mn) removed — only for Latin, Greek, Hebrew, Thai and Arabic tokens (so Cyrillic й stays
 *      decomposed as и + U+0306 and Japanese keeps its decomposed (semi-)voiced marks U+3099/U+309A);
 *  12. Vietnamese: đ → d (Latin); 13. Turkish: ı → i (Latin).
 * (Meilisearch builds charabia with its default features, which enable the Japanese, Chinese, Greek, Vietnamese,
 * Turkish and Swedish normalizers; camelCase splitting is not enabled.)
 */
import { TO_ISO_639_3 } from '../settings/locales.js'
import { Script, isCasedScript, stripsMarks } from './script.js'

/** Languages the tokenizer tells apart (behaviour differs only for these); anything else is `Lang.Other`. */
export const Lang = {
  None: 0, Cmn: 1, Zho: 2, Jpn: 3, Swe: 4, Deu: 5, Kor: 6, Tha: 7, Khm: 8, Ara: 9, Other: 10,
} as const
export type LangId = number


const LANG_IDS: Record<string, LangId> = {
  cmn: Lang.Cmn, zho: Lang.Zho, jpn: Lang.Jpn, swe: Lang.Swe, deu: Lang.Deu, kor: Lang.Kor, tha: Lang.Tha,
  khm: Lang.Khm, ara: Lang.Ara,
}

/** A locale (ISO-639-1 or -3, any case) as a language id. */
export function langId(locale: string): LangId {
  const l = locale.toLowerCase()
  return LANG_IDS[TO_ISO_639_3.get(l) ?? l] ?? Lang.Other
}

// ---- non-lossy --------------------------------------------------------------------------------------------------

// Cc minus White_Space (Rust `c.is_control() && !c.is_whitespace()`): U+0000–0008, U+000E–001F, U+007F–0084, U+0086–009F.
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F]/g
const HAS_CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F]/

function recomposeSwedish(s: string): string {
  return s.replace(/([AaOo])\u0308|([Aa])\u030A/g, (_m, umlaut: string | undefined, ring: string | undefined) => {
    if (ring !== undefined) return ring === 'A' ? 'Å' : 'å'
    return ({ A: 'Ä', a: 'ä', O: 'Ö', o: 'ö' } as Record<string, string>)[umlaut!]!
  })
}

/** True when every UTF-16 unit is ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false
  return true
}

/** Steps 1–3: what stop words and separators are compared against. */
export function nonLossy(raw: string, lang: LangId, ascii: boolean): string {
  let s = raw
  if (!ascii) {
    s = s.normalize('NFKD')
    if (lang === Lang.Swe) s = recomposeSwedish(s)
  }
  if (HAS_CONTROL.test(s)) s = s.replace(CONTROL, '')
  return s
}

// ---- lossy ------------------------------------------------------------------------------------------------------

const NONSPACING = /\p{Mn}/gu
const HAS_NONSPACING = /\p{Mn}/u

// Vowel of each hiragana (by code point), for wana_kana's long-vowel rule: ー after a converted katakana becomes
// あ い う え う for a/i/u/e/o; after ん (romaji "n") or a kana without a vowel it is dropped.
const HIRAGANA_VOWEL = new Map<number, string>()
for (const [vowel, kana] of [
  ['あ', 'ぁあかがさざただなはばぱまゃやらゎわ'], ['い', 'ぃいきぎしじちぢにひびぴみりゐ'], ['う', 'ぅうくぐすずっつづぬふぶぷむゅゆるゔ'],
  ['え', 'ぇえけげせぜてでねへべぺめれゑ'], ['う', 'ぉおこごそぞとどのほぼぽもょよろを'],
] as const) for (const k of kana) HIRAGANA_VOWEL.set(k.charCodeAt(0), vowel)

/** wana_kana's `is_hiragana`: every char hiragana (U+3040–U+309F) or ー. */
function isAllHiragana(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (!((c >= 0x3040 && c <= 0x309f) || c === 0x30fc)) return false
  }
  return true
}

/** wana_kana's katakana → hiragana with `pass_romaji` (romaji and everything else passes through). */
export function katakanaToHiragana(s: string): string {
  let out = ''
  let prev = -1 // last hiragana produced from a katakana, or -1
  let index = 0 // char index, as wana_kana counts
  for (let i = 0; i < s.length; i++, index++) {
    const c = s.charCodeAt(i)
    if (c === 0x30fb || (c === 0x30fc && index === 0) || c === 0x30f6 || c === 0x30f5) {
      out += s[i] // ・, an initial ー, ヶ and ヵ are kept as they are
    } else if (c === 0x30fc && prev >= 0) {
      out += HIRAGANA_VOWEL.get(prev) ?? ''
    } else if (c !== 0x30fc && c >= 0x30a1 && c <= 0x30fc) {
      prev = c - 0x60
      out += String.fromCharCode(prev)
    } else {
      prev = -1
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { out += s[i]! + s[i + 1]!; i++; continue }
      out += s[i]
    }
  }
  return out
}

/** Steps 4–13 on a non-lossy lemma of a token of `script` (group script) and `lang`. */
export function lossy(s: string, script: number, lang: LangId, ascii: boolean): string {
  if (ascii) {
    // Only lowercasing can change ASCII text (ASCII letters always sit in a Latin group).
    if (isCasedScript(script)) {
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x41 && c <= 0x5a) return s.toLowerCase()
      }
    }
    return s
  }
  const latin = script === Script.Latin
  if (isCasedScript(script)) {
    // Rust lowercases char by char: Σ is always σ (no final-sigma context); İ becomes i + U+0307 as in JS.
    s = (s.includes('Σ') ? s.replace(/Σ/g, 'σ') : s).toLowerCase()
  }
  if (latin) {
    if (/[’‘‛]/.test(s)) s = s.replace(/[’‘‛]/g, "'")
    if (/[œæŒÆ]/.test(s)) s = s.replace(/[œŒ]/g, 'oe').replace(/[æÆ]/g, 'ae')
  }
  if (script === Script.Cj && (lang === Lang.None || lang === Lang.Jpn) && !isAllHiragana(s)) s = katakanaToHiragana(s)
  if (script === Script.Greek && s.endsWith('ς')) s = s.slice(0, -1) + 'σ'
  if (script === Script.Arabic && /[ـٱىة]/.test(s)) {
    s = s.replace(/ـ/g, '').replace(/ٱ/g, 'ا').replace(/ى/g, 'ي').replace(/ة/g, 'ه')
  }
  if (stripsMarks(script) && HAS_NONSPACING.test(s)) s = s.replace(NONSPACING, '')
  if (latin) {
    if (/[ÐĐđ]/.test(s)) s = s.replace(/[ÐĐđ]/g, 'd')
    if (s.includes('ı')) s = s.replace(/ı/g, 'i')
  }
  return s
}
