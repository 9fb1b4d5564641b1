/**
 * The tokenizer's vocabulary: its limits (milli's), what a token is, how settings configure it, and the token kinds
 * its scanner and milli's position rules share.
 */

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
export const WORD = 0
export const STOP = 1
export const SOFT = 2
export const HARD = 3
export const KIND_NAMES: readonly TokenKind[] = ['word', 'stopWord', 'separator', 'separator']

/** A word with its position in an attribute. */
export interface WordPosition {
  word: string
  position: number
}
