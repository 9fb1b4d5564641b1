/**
 * The default separator set and the hard ("context") separator set, as lookups.
 *
 * charabia matches separators (and dictionary words) with an Aho-Corasick automaton in leftmost-longest mode over
 * each script group of the raw text. Nearly every pattern is one code point, so the matcher here (see index.ts) is a
 * per-code-unit flag table plus, for the few longer patterns, a list per first code unit tried longest first — the
 * same leftmost-longest result.
 */
import { DEFAULT_SEPARATOR_RANGES, HARD_SEPARATOR_RANGES } from './data.js'

function parseRanges(spec: string): number[] {
  const out: number[] = []
  for (const part of spec.split(',')) {
    const dash = part.indexOf('-')
    const a = parseInt(dash < 0 ? part : part.slice(0, dash), 16)
    const b = dash < 0 ? a : parseInt(part.slice(dash + 1), 16)
    for (let c = a; c <= b; c++) out.push(c)
  }
  return out
}

/** Multi-character default separators: ". " and ", " (hard, so a sentence end is told from "3.14"), Khmer "។ល។". */
export const DEFAULT_MULTI_SEPARATORS: readonly string[] = ['. ', ', ', '\u17D4\u179B\u17D4']

/** Every default separator as a string (charabia's DEFAULT_SEPARATORS, 1,066 entries here). */
export const DEFAULT_SEPARATORS: readonly string[] = [
  ...DEFAULT_MULTI_SEPARATORS,
  ...parseRanges(DEFAULT_SEPARATOR_RANGES).map((c) => String.fromCodePoint(c)),
]

/** Hard separators (charabia's CONTEXT_SEPARATORS), as strings. */
export const HARD_SEPARATORS: ReadonlySet<string> = new Set<string>([
  ...DEFAULT_MULTI_SEPARATORS,
  ...parseRanges(HARD_SEPARATOR_RANGES).map((c) => String.fromCodePoint(c)),
])
