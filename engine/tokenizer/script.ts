/**
 * Script of a character, as charabia's `Script::from(char)` sees it (charabia/src/detection/chars.rs and
 * script_language.rs, themselves taken from whatlang): block ranges, checked in charabia's order, so e.g. U+0080–U+00FF
 * and the fullwidth ASCII forms U+FF01–U+FF5E count as Latin, and ASCII digits, punctuation and spaces are `OTHER`.
 *
 * The text is cut into script groups the way charabia's segmenter does: a character of another (non-OTHER) script
 * than the current one starts a new group; OTHER characters (digits, spaces, punctuation, emoji…) join the group
 * they follow (or, at the start of the text, the first group).
 */

export const Script = {
  Other: 0, Latin: 1, Cyrillic: 2, Arabic: 3, Devanagari: 4, Hebrew: 5, Ethiopic: 6, Georgian: 7, Bengali: 8,
  Hangul: 9, Cj: 10, Greek: 11, Kannada: 12, Tamil: 13, Thai: 14, Gujarati: 15, Gurmukhi: 16, Telugu: 17,
  Malayalam: 18, Oriya: 19, Myanmar: 20, Sinhala: 21, Khmer: 22,
  /** Not a group-splitting script in charabia (it has no `is_armenian`), but whatlang detects it for a group. */
  Armenian: 23,
} as const
export type ScriptId = number

/** Hiragana/katakana marker in the BMP table (bit 7), used to tell Japanese from Chinese. */
export const KANA_BIT = 0x80

/** Script id per BMP code point (low 7 bits) with KANA_BIT on hiragana and katakana. */
export const BMP_SCRIPT = new Uint8Array(0x10000)

function fill(script: number, ...ranges: [number, number][]): void {
  for (const [a, b] of ranges) {
    for (let c = a; c <= b && c < 0x10000; c++) if (BMP_SCRIPT[c] === 0) BMP_SCRIPT[c] = script
  }
}

// Order matters: the first match wins (charabia checks Latin, Cyrillic, Arabic, Devanagari, Hebrew, Ethiopic,
// Georgian, Bengali, Hangul, CJ (hiragana, katakana, mandarin), Greek, Kannada, Tamil, Thai, Gujarati, Gurmukhi,
// Telugu, Malayalam, Oriya, Myanmar, Sinhala, Khmer).
fill(Script.Latin, [0x41, 0x5a], [0x61, 0x7a], [0x80, 0xff], [0x100, 0x17f], [0x180, 0x24f], [0x250, 0x2af],
  [0x1d00, 0x1d7f], [0x1d80, 0x1dbf], [0x1e00, 0x1eff], [0x2100, 0x214f], [0x2c60, 0x2c7f], [0xa720, 0xa7ff],
  [0xab30, 0xab6f], [0xff01, 0xff5e])
fill(Script.Cyrillic, [0x400, 0x484], [0x487, 0x52f], [0x2de0, 0x2dff], [0xa640, 0xa69d], [0x1d2b, 0x1d2b],
  [0x1d78, 0x1d78], [0xa69f, 0xa69f])
fill(Script.Arabic, [0x600, 0x6ff], [0x750, 0x7ff], [0x8a0, 0x8ff], [0xfb50, 0xfdff], [0xfe70, 0xfeff])
fill(Script.Devanagari, [0x900, 0x97f], [0xa8e0, 0xa8ff], [0x1cd0, 0x1cff])
fill(Script.Hebrew, [0x590, 0x5ff])
fill(Script.Ethiopic, [0x1200, 0x139f], [0x2d80, 0x2ddf], [0xab00, 0xab2f])
fill(Script.Georgian, [0x10a0, 0x10ff])
fill(Script.Bengali, [0x980, 0x9ff])
fill(Script.Hangul, [0xac00, 0xd7af], [0x1100, 0x11ff], [0x3130, 0x318f], [0x3200, 0x32ff], [0xa960, 0xa97f],
  [0xd7b0, 0xd7ff], [0xffa0, 0xffdc])
fill(Script.Cj | KANA_BIT, [0x3040, 0x309f], [0x30a0, 0x30ff], [0xff65, 0xff9f])
fill(Script.Cj, [0x2e80, 0x2e99], [0x2e9b, 0x2ef3], [0x2f00, 0x2fd5], [0x3005, 0x3005], [0x3007, 0x3007],
  [0x3021, 0x3029], [0x3038, 0x303b], [0x3400, 0x4db5], [0x4e00, 0x9fcc], [0xf900, 0xfa6d], [0xfa70, 0xfad9])
fill(Script.Greek, [0x370, 0x3ff])
fill(Script.Kannada, [0xc80, 0xcff])
fill(Script.Tamil, [0xb80, 0xbff])
fill(Script.Thai, [0xe00, 0xe7f])
fill(Script.Gujarati, [0xa80, 0xaff])
fill(Script.Gurmukhi, [0xa00, 0xa7f])
fill(Script.Telugu, [0xc00, 0xc7f])
fill(Script.Malayalam, [0xd00, 0xd7f])
fill(Script.Oriya, [0xb00, 0xb7f])
fill(Script.Myanmar, [0x1000, 0x109f])
fill(Script.Sinhala, [0xd80, 0xdff])
fill(Script.Khmer, [0x1780, 0x17ff], [0x19e0, 0x19ff])
fill(Script.Armenian, [0x531, 0x58f], [0xfb13, 0xfb17])

/** Script of a code point outside the BMP: only two Arabic ranges exist there in charabia's tables. */
export function astralScript(cp: number): number {
  if ((cp >= 0x10e60 && cp <= 0x10e7f) || (cp >= 0x1ee00 && cp <= 0x1eeff)) return Script.Arabic
  return Script.Other
}

/** Scripts whose tokens are lowercased (charabia's LowercaseNormalizer). */
export function isCasedScript(s: number): boolean {
  return s === Script.Latin || s === Script.Cyrillic || s === Script.Greek || s === Script.Georgian || s === Script.Armenian
}

/** Scripts whose nonspacing marks are removed (charabia's NonspacingMarkNormalizer). */
export function stripsMarks(s: number): boolean {
  return s === Script.Latin || s === Script.Greek || s === Script.Hebrew || s === Script.Thai || s === Script.Arabic
}
