/**
 * The query-text parser for `q`: milli's `located_query_terms_from_tokens`
 * (`crates/milli/src/search/new/query_term/parse_query.rs`), before terms are derived (terms.ts).
 */
import { endsWithWhitespace } from '../util/rust-text.js'

/** A token of the query text as the tokenizer gives it (after normalization: `lemma` is the normalized text). */
export interface QueryToken {
  lemma: string
  kind: 'word' | 'stopWord' | 'separator'
  /** For separators. */
  separatorKind?: 'soft' | 'hard'
}

export type QueryTokenizer = (text: string) => QueryToken[]

/** A positive word: `prefix` only for the last token of the query when nothing (not even a space) follows it. */
export interface WordTerm {
  type: 'word'
  word: string
  position: number
  prefix: boolean
}

/** A phrase: its words (`null` for stop words, which match any word), and the positions it spans. */
export interface PhraseTerm {
  type: 'phrase'
  words: (string | null)[]
  start: number
  end: number
}

export type QueryTerm = WordTerm | PhraseTerm

export interface NegativeWord { type: 'word'; word: string }
export type NegativeTerm = NegativeWord | PhraseTerm

export interface ParsedQueryText {
  /** Positive words and phrases in query order (milli's `query_terms`; at most `wordsLimit` of them). */
  located: QueryTerm[]
  /** The words of `located`. */
  terms: WordTerm[]
  /** The phrases of `located`. */
  phrases: PhraseTerm[]
  /** Excluded words (`-word`) and phrases (`-"a phrase"`), in query order. */
  negative: NegativeTerm[]
}

export interface ParseQueryTextOptions {
  /** Meilisearch considers the first 10 terms (words and phrases); null for no limit. */
  wordsLimit?: number | null
  /** Only the first 1000 tokens are read (`MAX_TOKEN_COUNT`). */
  maxTokens?: number
}

/**
 * The part of a query text the tokenizer reads. milli reads tokens lazily and stops at `MAX_TOKEN_COUNT`; Tessera
 * tokenizes eagerly, so it cuts the text first, or a megabyte-long query would cost its whole length on the HTTP
 * thread. 1,000 tokens of ordinary words fit well within the cut; beyond it only words longer than
 * MAX_WORD_LENGTH (which match nothing) or runs of separators could have mattered.
 */
export const MAX_QUERY_TEXT_CHARS = 32_768

function readableText(text: string): string {
  if (text.length <= MAX_QUERY_TEXT_CHARS) return text
  let end = MAX_QUERY_TEXT_CHARS
  // Never split a surrogate pair.
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return text.slice(0, end)
}

class PhraseBuilder {
  words: (string | null)[] = []
  start = 0xffff
  end = 0xffff
  isEmpty(): boolean { return this.words.every((w) => w === null) }
  push(token: QueryToken, position: number): void {
    if (this.isEmpty()) this.start = position
    this.end = position
    this.words.push(token.kind === 'stopWord' ? null : token.lemma)
  }
  build(): PhraseTerm | null {
    return this.isEmpty() ? null : { type: 'phrase', words: this.words, start: this.start, end: this.end }
  }
}

/**
 * milli's `located_query_terms_from_tokens`, before term derivation:
 * - `"..."` is a phrase; a hard separator inside a phrase closes it and opens another; an unterminated quote makes
 *   the rest of the query a phrase; phrases made only of stop words vanish.
 * - `-word` and `-"phrase"` are negative when the `-` is its own separator token right after whitespace (or at the
 *   start): `word-word` and a lone `- word` are not negations.
 * - stop words are dropped, except as the last token (which is then a prefix term) and inside phrases.
 * - positions: +1 per word, +7 extra per hard separator, starting at 0 (u16 arithmetic, as milli).
 */
export function parseQueryText(text: string, tokenize: QueryTokenizer, options: ParseQueryTextOptions = {}): ParsedQueryText {
  const wordsLimit = options.wordsLimit === undefined ? 10 : options.wordsLimit
  const limit = wordsLimit ?? Infinity
  const tokens = tokenize(readableText(text)).slice(0, options.maxTokens ?? 1000)
  const located: QueryTerm[] = []
  const negative: NegativeTerm[] = []

  let negativePhrase = false
  let phrase: PhraseBuilder | null = null
  let encounteredWhitespace = true
  let negativeNextToken = false
  let position = 0xffff

  const pushPhrase = (built: PhraseTerm | null, isNegative: boolean) => {
    if (built === null) return
    if (isNegative) negative.push(built)
    else located.push(built)
  }

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.lemma === '') continue
    if (located.length >= limit) return result(located, negative)

    if (token.kind === 'word' || token.kind === 'stopWord') {
      position = (position + 1) & 0xffff
      if (phrase !== null) {
        phrase.push(token, position)
      } else if (negativeNextToken) {
        negative.push({ type: 'word', word: token.lemma })
        negativeNextToken = false
      } else if (i + 1 < tokens.length) {
        if (token.kind === 'word') located.push({ type: 'word', word: token.lemma, position, prefix: false })
      } else {
        located.push({ type: 'word', word: token.lemma, position, prefix: true })
      }
    } else {
      const hard = token.separatorKind === 'hard'
      if (hard) position = (position + 7) & 0xffff
      let current: PhraseBuilder | null = phrase
      phrase = null
      if (hard && current !== null) {
        pushPhrase(current.build(), negativePhrase)
        current = new PhraseBuilder()
      }
      let quotes = [...token.lemma].filter((c) => c === '"').length
      if (quotes === 0) {
        phrase = current
      } else {
        if (current !== null) {
          quotes -= 1
          const built = current.build()
          if (built !== null && negativePhrase) {
            negative.push(built)
            negativePhrase = false
          } else if (built !== null) {
            located.push(built)
          }
        }
        if (quotes % 2 === 1) {
          negativePhrase = negativeNextToken
          phrase = new PhraseBuilder()
        } else {
          phrase = null
        }
      }
      negativeNextToken = phrase === null && token.lemma === '-' && encounteredWhitespace
    }
    encounteredWhitespace = endsWithWhitespace(token.lemma)
  }
  if (phrase !== null) pushPhrase(phrase.build(), negativePhrase)
  return result(located, negative)
}

function result(located: QueryTerm[], negative: NegativeTerm[]): ParsedQueryText {
  return {
    located,
    terms: located.filter((t): t is WordTerm => t.type === 'word'),
    phrases: located.filter((t): t is PhraseTerm => t.type === 'phrase'),
    negative,
  }
}
