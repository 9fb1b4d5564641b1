/**
 * Highlighting and cropping read a field's text as the query matched it: its tokens, and which of them match the
 * query's terms (exactly, or as a prefix of the last term), for format.ts.
 */
import type { Settings } from '../settings/index.js'
import { localesForField, type Tokenizer } from '../tokenizer/index.js'
import type { AnalyzedText, TextMatch, TextToken } from './format.js'
import type { QueryPlan } from './terms.js'

function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

/** The analyzer the formatter uses: the field's tokens and which of them match the query's terms. */
export function textAnalyzer(plan: QueryPlan | null, tokenizer: Tokenizer, settings: Settings) {
  const exact = new Map<string, number[]>()
  const prefixes: { word: string; charCount: number; term: number }[] = []
  for (const t of plan?.terms ?? []) {
    for (const [word, m] of t.matchWords) {
      // A prefix term's words match as prefixes (sized by the query word), even a whole-word match.
      if (m.prefix) { prefixes.push({ word, charCount: m.charCount, term: t.index }); continue }
      const ids = exact.get(word) ?? []
      if (!ids.includes(t.index)) ids.push(t.index)
      exact.set(word, ids)
    }
  }
  return (text: string, field: string): AnalyzedText => {
    const tokens: TextToken[] = []
    const matches: TextMatch[] = []
    for (const token of tokenizer.tokenize(text, localesForField(settings.localizedAttributes, field))) {
      if (token.kind === 'separator') {
        tokens.push({ start: token.byteStart, end: token.byteEnd, separator: token.hard ? 'hard' : 'soft' })
        continue
      }
      tokens.push({ start: token.byteStart, end: token.byteEnd })
      if (token.kind !== 'word' || plan === null) continue
      const ids = exact.get(token.text)
      if (ids) {
        matches.push({ start: token.byteStart, length: token.byteEnd - token.byteStart, ids })
        continue
      }
      for (const p of prefixes) {
        if (!token.text.startsWith(p.word)) continue
        // The highlight covers the query word's characters of the original; `_matchesPosition` reports milli's
        // length, the character count taken as bytes.
        const chars = Math.min(p.charCount, [...token.text].length)
        const highlighted = utf8Bytes([...token.original].slice(0, chars).join(''))
        matches.push({ start: token.byteStart, length: Math.min(highlighted, token.byteEnd - token.byteStart), reportedLength: chars, ids: [p.term] })
        break
      }
    }
    return { tokens, matches }
  }
}
