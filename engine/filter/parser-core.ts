/**
 * The filter parser's primitives, as nom's combinators are in Meilisearch's `crates/filter-parser`: results that
 * tell a recoverable error from a failure after a `cut`, whitespace, tags, keywords, words and quoted strings with
 * Rust's escapes. The grammar itself is in values.ts (values and geo functions) and parser.ts (conditions and the
 * boolean expression), each layer a subclass of the one below.
 */
import type { Token } from './ast.js'
import type { ParseError, ParseErrorKind } from './errors.js'
import { unescapeRust } from './unescape.js'

export type Ok<T> = { ok: true; p: number; v: T }
export type Err = { ok: false; fail: boolean; e: ParseError }
export type Res<T> = Ok<T> | Err

export const KEYWORDS = new Set(['AND', 'OR', 'IN', 'NOT', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS', 'STARTS', 'WITH', '_geoRadius', '_geoBoundingBox'])

export const VALUE_COMPONENT = /[\p{Alphabetic}\p{N}_.-]/u
/** Rust's `char::is_whitespace` (the White_Space property). */
export const UNICODE_WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/
export const SYNTAX = new Set(['(', ')', '=', '<', '>', '!'])

/** nom's `multispace`: ASCII space, tab, CR, LF only. */
export function isMultispace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r'
}

export class ParserCore {
  constructor(readonly src: string) {}

  // ---- primitives --------------------------------------------------------------------------------------

  ok<T>(p: number, v: T): Ok<T> {
    return { ok: true, p, v }
  }

  /** A recoverable error whose context runs from `start` to `end` (by default the rest of the input). */
  error(kind: ParseErrorKind, start: number, end = this.src.length): Err {
    return { ok: false, fail: false, e: { kind, src: this.src, start, end } }
  }

  failure(kind: ParseErrorKind, start: number, end = this.src.length): Err {
    return { ok: false, fail: true, e: { kind, src: this.src, start, end } }
  }

  /** nom's `cut`: an error becomes a failure. */
  cut<T>(r: Res<T>): Res<T> {
    return r.ok || r.fail ? r : { ok: false, fail: true, e: r.e }
  }

  /** Meilisearch's `map_cut(kind)`: any error becomes a failure of `kind`, keeping the inner context. */
  mapCut<T>(r: Res<T>, kind: ParseErrorKind): Res<T> {
    return r.ok ? r : { ok: false, fail: true, e: { kind, src: this.src, start: r.e.start, end: r.e.end } }
  }

  /** The code point at `p` (as a string) or undefined at the end. */
  charAt(p: number): string | undefined {
    if (p >= this.src.length) return undefined
    const cp = this.src.codePointAt(p)!
    return String.fromCodePoint(cp)
  }

  skipMultispace(p: number): number {
    while (isMultispace(this.src[p])) p++
    return p
  }

  multispace1(p: number): Res<null> {
    const q = this.skipMultispace(p)
    return q === p ? this.error({ k: 'Internal', what: 'MultiSpace' }, p) : this.ok(q, null)
  }

  skipUnicodeWhitespace(p: number): number {
    for (let c = this.charAt(p); c !== undefined && UNICODE_WS.test(c); c = this.charAt(p)) p += c.length
    return p
  }

  tag(p: number, t: string): Res<Token> {
    return this.src.startsWith(t, p) ? this.ok(p + t.length, this.token(t, p, p + t.length)) : this.error({ k: 'Internal', what: 'Tag' }, p)
  }

  char(p: number, c: string): Res<null> {
    return this.src[p] === c ? this.ok(p + 1, null) : this.error({ k: 'Char', c }, p)
  }

  /** End of the longest run of value components (`[alnum _ - .]`) starting at `p`. */
  wordEnd(p: number, allowDot = true): number {
    for (let c = this.charAt(p); c !== undefined && VALUE_COMPONENT.test(c) && (allowDot || c !== '.'); c = this.charAt(p)) p += c.length
    return p
  }

  /** `word_exact(tag)`: a whole word equal to `tag`. */
  wordExact(p: number, t: string): Res<Token> {
    const end = this.wordEnd(p)
    if (end === p) return this.error({ k: 'Internal', what: 'TakeWhile1' }, p)
    const word = this.src.slice(p, end)
    return word === t ? this.ok(end, this.token(word, p, end)) : this.error({ k: 'Internal', what: 'Tag' }, end)
  }

  /** `ws(word_exact(tag))`. */
  keyword(p: number, t: string): Res<Token> {
    const r = this.wordExact(this.skipMultispace(p), t)
    return r.ok ? this.ok(this.skipMultispace(r.p), r.v) : r
  }

  token(value: string, start: number, end: number): Token {
    return { value, src: this.src, start, end }
  }

  // ---- values ------------------------------------------------------------------------------------------

  /** `quoted_by`: the content up to the (unescaped) closing quote, which is left in the input. */
  quotedBy(p: number, quote: string): Res<Token> {
    const start = p
    let escaped = false
    let i = p
    while (i < this.src.length) {
      const c = this.charAt(i)!
      if (c === quote) break
      if (c === '\\') {
        i += 1
        const next = this.charAt(i)
        if (next === undefined) return this.error({ k: 'MalformedValue' }, start)
        if (next === quote) escaped = true
        i += next.length
        continue
      }
      i += c.length
    }
    const raw = this.src.slice(start, i)
    return this.ok(i, this.token(escaped ? raw.split(`\\${quote}`).join(quote) : raw, start, i))
  }

  /** `delimited(char(q), cut(quoted_by), cut(char(q)))`. */
  quoted(p: number, quote: string): Res<Token> {
    if (this.src[p] !== quote) return this.error({ k: 'Char', c: quote }, p)
    const inner = this.cut(this.quotedBy(p + 1, quote))
    if (!inner.ok) return inner
    const close = this.char(inner.p, quote)
    if (!close.ok) return this.cut(close)
    return this.ok(close.p, inner.v)
  }

  /** Apply Rust-style escapes (the `unescaper` crate) to a parsed token. */
  unescapeToken(r: Ok<Token>): Res<Token> {
    const u = unescapeRust(r.v.value)
    if (u.ok) return u.value === r.v.value ? r : this.ok(r.p, { ...r.v, value: u.value })
    const kind: ParseErrorKind = u.error === 'number' ? { k: 'InvalidEscapedNumber' } : { k: 'MalformedValue' }
    return this.error(kind, r.v.start, r.v.end)
  }

}
