/**
 * milli's positions of words in attributes: from a token list (`process_tokens`) or straight from an attribute's
 * values (`tokenize_field`), and the locales a field's values are tokenized with.
 */
import { matchAttributePattern } from '../settings/patterns.js'
import type { Tokenizer, WordRangeSink } from './tokenizer.js'
import { HARD, MAX_DISTANCE, MAX_POSITION_PER_ATTRIBUTE, SOFT, WORD, type Token, type WordPosition } from './types.js'

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

/**
 * `attributeWords`, each word handed to `fn` as it is found (no object per word: what indexing uses); with `range`,
 * plain ASCII words go to it as their range of the value's text (see `Tokenizer.forEachWord`).
 */
export function forEachAttributeWord(tokenizer: Tokenizer, values: readonly FieldValue[], locales: readonly string[] | null | undefined, fn: (word: string, position: number) => void, maxPosition = MAX_POSITION_PER_ATTRIBUTE, range?: WordRangeSink): void {
  let position = -1
  for (const value of values) {
    position = position < 0 ? 0 : position + MAX_DISTANCE
    if (position >= maxPosition) break
    const last = tokenizer.forEachWord(valueText(value), typeof value === 'string' ? locales : null, position, fn, maxPosition, range)
    if (last >= 0) position = last
  }
}

/** A `localizedAttributes` rule (settings' LocalizedAttributesRule). */
export interface LocalizedRule {
  attributePatterns: string[]
  locales: string[]
}

/**
 * The locales for a field's string values (milli `tokenize_field`): those of the first `localizedAttributes` rule
 * with a pattern matching the field's dotted name, else null (detection).
 */
export function localesForField(rules: readonly LocalizedRule[] | null | undefined, field: string): string[] | null {
  if (!rules) return null
  for (const rule of rules) if (rule.attributePatterns.some((p) => matchAttributePattern(p, field))) return rule.locales
  return null
}
