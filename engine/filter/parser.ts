/**
 * The filter string parser. It follows Meilisearch's grammar (`crates/filter-parser`, a nom parser) closely enough
 * to give the same tree and the same error, at the same position, for the same input:
 *
 *   filter     = expression EOF
 *   expression = or
 *   or         = and ("OR" and)*
 *   and        = not ("AND" not)*
 *   not        = ("NOT" not) | primary
 *   primary    = "(" expression ")" | geoRadius | geoBoundingBox | geoPolygon | in | not_in | condition
 *              | is_null | is_not_null | is_empty | is_not_empty | vectors_exists | exists | not_exists | to
 *              | contains | not_contains | starts_with | not_starts_with
 *   value      = WS* (word | 'single quoted' | "double quoted") WS*
 *   word       = (alphanumeric | _ | - | .)+   (not a keyword)
 *
 * Keywords are case-sensitive, as in Meilisearch (`and` is a value, not the operator).
 *
 * nom distinguishes recoverable errors (an alternative may still match) from failures (after a `cut`: the input
 * is definitely wrong here); results below carry the same distinction (`fail`), because which alternative's error
 * surfaces decides the message. Nesting is limited: each of or/and/not/primary counts one level and more than
 * MAX_FILTER_DEPTH (150) levels is an error, which allows 36 nested parentheses or 147 consecutive NOTs.
 */
import type { Condition, FilterExpression, Token, VectorSelector } from './ast.js'
import type { ParseError, ParseErrorKind } from './errors.js'

export const MAX_FILTER_DEPTH = 150

type Ok<T> = { ok: true; p: number; v: T }
type Err = { ok: false; fail: boolean; e: ParseError }
type Res<T> = Ok<T> | Err

const KEYWORDS = new Set(['AND', 'OR', 'IN', 'NOT', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS', 'STARTS', 'WITH', '_geoRadius', '_geoBoundingBox'])

const VALUE_COMPONENT = /[\p{Alphabetic}\p{N}_.-]/u
/** Rust's `char::is_whitespace` (the White_Space property). */
const UNICODE_WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/
const SYNTAX = new Set(['(', ')', '=', '<', '>', '!'])

/** nom's `multispace`: ASCII space, tab, CR, LF only. */
function isMultispace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r'
}

class Parser {
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

  /** value = WS* (word | 'quoted' | "quoted") WS* — with Meilisearch's geo misuse diagnostics. */
  value(p: number): Res<Token> {
    p = this.skipUnicodeWhitespace(p)

    for (const r of [this.reservedGeoTag(p, '_geoPoint'), this.reservedGeoTag(p, '_geoDistance'), this.reservedGeoWord(p)]) {
      if (!r.ok && r.fail) return r
    }
    const radius = this.geoRadius(p)
    if (radius.ok || radius.fail) return this.failure({ k: 'MisusedGeoRadius' }, p)
    const bbox = this.geoBoundingBox(p)
    if (bbox.ok || bbox.fail) return this.failure({ k: 'MisusedGeoBoundingBox' }, p)

    let r: Res<Token>
    const c = this.src[p]
    if (c === "'" || c === '"') {
      r = this.quoted(p, c)
      if (!r.ok) {
        // An unmatched quote: report the whole quoted expression.
        if (r.e.kind.k === 'Char') return this.failure({ k: 'MissingClosingDelimiter', c: r.e.kind.c }, p)
        return r
      }
    } else {
      const end = this.wordEnd(p)
      const word = this.src.slice(p, end)
      if (end === p || KEYWORDS.has(word)) {
        // Quote the largest run of characters that are not filter syntax.
        let q = p
        for (let ch = this.charAt(q); ch !== undefined && !UNICODE_WS.test(ch) && !SYNTAX.has(ch); ch = this.charAt(q)) q += ch.length
        return this.error({ k: 'ExpectedValue', reserved: end !== p }, p, q)
      }
      r = this.ok(end, this.token(word, p, end))
    }
    return this.unescapeToken(this.ok(this.skipMultispace(r.p), r.v))
  }

  /** dotted_value_part = non_dot_word | 'quoted' | "quoted" (no surrounding whitespace). */
  dottedValuePart(p: number): Res<Token> {
    const c = this.src[p]
    let r: Res<Token>
    if (c === "'" || c === '"') {
      r = this.quoted(p, c)
      if (!r.ok) return r
    } else {
      const end = this.wordEnd(p, false)
      if (end === p) return this.error({ k: 'Internal', what: 'TakeWhile1' }, p)
      r = this.ok(end, this.token(this.src.slice(p, end), p, end))
    }
    return this.unescapeToken(r)
  }

  dottedValueCut(p: number, kind: ParseErrorKind): Res<Token> {
    const r = this.dottedValuePart(p)
    if (r.ok) return r
    if (r.fail && r.e.kind.k === 'Char' && (r.e.kind.c === '"' || r.e.kind.c === "'")) return this.failure({ k: 'VectorFilterInvalidQuotes' }, p)
    return this.failure(kind, p)
  }

  // ---- geo -----------------------------------------------------------------------------------------------

  /** nom's `recognize_float`: [+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)? */
  float(p: number): Res<Token> {
    const start = p
    const s = this.src
    if (s[p] === '+' || s[p] === '-') p++
    const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9'
    if (isDigit(s[p])) {
      while (isDigit(s[p])) p++
      if (s[p] === '.') { p++; while (isDigit(s[p])) p++ }
    } else if (s[p] === '.' && isDigit(s[p + 1])) {
      p++
      while (isDigit(s[p])) p++
    } else {
      return this.error({ k: 'Internal', what: 'Char' }, p)
    }
    if (s[p] === 'e' || s[p] === 'E') {
      let q = p + 1
      if (s[q] === '+' || s[q] === '-') q++
      if (!isDigit(s[q])) return this.failure({ k: 'Internal', what: 'Digit' }, q)
      while (isDigit(s[q])) q++
      p = q
    }
    return this.ok(p, this.token(s.slice(start, p), start, p))
  }

  /** `ws(recognize_float)`. */
  wsFloat(p: number): Res<Token> {
    const r = this.float(this.skipMultispace(p))
    return r.ok ? this.ok(this.skipMultispace(r.p), r.v) : r
  }

  /** nom's `separated_list1(tag(","), item)`. */
  separatedList1<T>(p: number, item: (p: number) => Res<T>): Res<T[]> {
    const first = item(p)
    if (!first.ok) return first
    const items = [first.v]
    p = first.p
    for (;;) {
      if (this.src[p] !== ',') break
      const next = item(p + 1)
      if (!next.ok) {
        if (next.fail) return next
        break
      }
      items.push(next.v)
      p = next.p
    }
    return this.ok(p, items)
  }

  /** `ws(delimited(char('['), separated_list1(",", ws(float)), char(']')))`. */
  coordinates(p: number): Res<Token[]> {
    p = this.skipMultispace(p)
    const open = this.char(p, '[')
    if (!open.ok) return open
    const list = this.separatedList1(open.p, (q) => this.wsFloat(q))
    if (!list.ok) return list
    const close = this.char(list.p, ']')
    if (!close.ok) return close
    return this.ok(this.skipMultispace(close.p), list.v)
  }

  geoRadius(p: number): Res<FilterExpression> {
    const word = this.wordExact(this.skipMultispace(p), '_geoRadius')
    if (!word.ok) return word
    const args = this.mapCut(this.parenthesized(word.p, (q) => this.separatedList1(q, (r) => this.wsFloat(r)), false), { k: 'GeoRadius' })
    if (!args.ok) return args
    const a = args.v
    if (a.length < 3 || a.length > 4) return this.failure({ k: 'GeoRadiusArgumentCount', n: a.length }, args.p)
    return this.ok(args.p, { type: 'geoRadius', lat: a[0]!, lng: a[1]!, radius: a[2]!, resolution: a[3] ?? null })
  }

  /** `delimited(char('('), inner, [opt(ws(','))] char(')'))`. */
  parenthesized<T>(p: number, inner: (p: number) => Res<T>, trailingComma: boolean): Res<T> {
    const open = this.char(p, '(')
    if (!open.ok) return open
    const body = inner(open.p)
    if (!body.ok) return body
    let q = body.p
    if (trailingComma) {
      const r = this.skipMultispace(q)
      if (this.src[r] === ',') q = this.skipMultispace(r + 1)
    }
    const close = this.char(q, ')')
    if (!close.ok) return close
    return this.ok(close.p, body.v)
  }

  geoBoundingBox(p: number): Res<FilterExpression> {
    const word = this.wordExact(this.skipMultispace(p), '_geoBoundingBox')
    if (!word.ok) return word
    const args = this.mapCut(this.parenthesized(word.p, (q) => this.separatedList1(q, (r) => this.coordinates(r)), false), { k: 'GeoBoundingBox' })
    if (!args.ok) return args
    const a = args.v
    if (a.length !== 2) return this.failure({ k: 'GeoBoundingBox' }, args.p)
    const offending = a.find((pair) => pair.length !== 2)
    if (offending) return this.notPair(offending, args.p)
    return this.ok(args.p, { type: 'geoBoundingBox', topRight: [a[0]![0]!, a[0]![1]!], bottomLeft: [a[1]![0]!, a[1]![1]!] })
  }

  notPair(offending: Token[], rest: number): Err {
    const first = offending[0]
    return first ? this.failure({ k: 'GeoCoordinatesNotPair', n: offending.length }, first.start, first.end) : this.failure({ k: 'GeoCoordinatesNotPair', n: 0 }, rest)
  }

  geoPolygon(p: number): Res<FilterExpression> {
    const word = this.wordExact(this.skipMultispace(p), '_geoPolygon')
    if (!word.ok) return word
    const args = this.mapCut(this.parenthesized(word.p, (q) => this.separatedList1(q, (r) => this.coordinates(r)), true), { k: 'GeoPolygon' })
    if (!args.ok) return args
    const a = args.v
    if (a.length < 3) {
      const last = a[a.length - 1]?.[a[a.length - 1]!.length - 1]
      return last ? this.failure({ k: 'GeoPolygonNotEnoughPoints', n: a.length }, last.start, last.end) : this.failure({ k: 'GeoPolygonNotEnoughPoints', n: a.length }, args.p)
    }
    const offending = a.find((pair) => pair.length !== 2)
    if (offending) return this.notPair(offending, args.p)
    return this.ok(args.p, { type: 'geoPolygon', points: a.map((pair) => [pair[0]!, pair[1]!] as [Token, Token]) })
  }

  /** `_geoPoint(...)` / `_geoDistance(...)` (a prefix match): always a failure once the name is seen. */
  reservedGeoTag(p: number, name: string): Res<null> {
    const q = this.skipMultispace(p)
    if (!this.src.startsWith(name, q)) return this.error({ k: 'ReservedGeo', name }, p)
    return this.failure({ k: 'ReservedGeo', name }, p)
  }

  /** `_geo(...)` (a whole word): a failure once the word is seen. */
  reservedGeoWord(p: number): Res<null> {
    const word = this.wordExact(this.skipMultispace(p), '_geo')
    if (!word.ok) return this.error({ k: 'ReservedGeo', name: '_geo' }, p)
    return this.failure({ k: 'ReservedGeo', name: '_geo' }, p)
  }

  // ---- conditions ------------------------------------------------------------------------------------------

  condition(p: number): Res<FilterExpression> {
    const field = this.value(p)
    if (!field.ok) return field
    const q = field.p
    let op: '<=' | '>=' | '!=' | '<' | '>' | '=' | null = null
    for (const candidate of ['<=', '>=', '!=', '<', '>', '='] as const) {
      if (this.src.startsWith(candidate, q)) { op = candidate; break }
    }
    if (op === null) return this.error({ k: 'Internal', what: 'Tag' }, q)
    const value = this.cut(this.value(q + op.length))
    if (!value.ok) return value
    return this.ok(value.p, { type: 'condition', field: field.v, condition: { op, value: value.v } })
  }

  /** value followed by the keyword sequence `words` (each separated by at least one space). */
  valueThen(p: number, words: string[]): Res<{ field: Token; keyword: Token }> {
    const field = this.value(p)
    if (!field.ok) return field
    let q = field.p
    let keyword: Token | null = null
    for (let i = 0; i < words.length; i++) {
      if (i > 0) {
        const ws = this.multispace1(q)
        if (!ws.ok) return ws
        q = ws.p
      }
      const t = this.tag(q, words[i]!)
      if (!t.ok) return t
      keyword = t.v
      q = t.p
    }
    return this.ok(q, { field: field.v, keyword: keyword! })
  }

  simple(p: number, words: string[], condition: Condition, negate: boolean): Res<FilterExpression> {
    const r = this.valueThen(p, words)
    if (!r.ok) return r
    const expr: FilterExpression = { type: 'condition', field: r.v.field, condition }
    return this.ok(r.p, negate ? { type: 'not', child: expr } : expr)
  }

  /** `value CONTAINS value`, `value NOT CONTAINS value`, `value STARTS WITH value`, `value NOT STARTS WITH value`. */
  textCondition(p: number, op: 'CONTAINS' | 'STARTS WITH', negate: boolean): Res<FilterExpression> {
    const r = this.valueThen(p, negate ? ['NOT', op] : [op])
    if (!r.ok) return r
    const value = this.cut(this.value(r.p))
    if (!value.ok) return value
    const expr: FilterExpression = { type: 'condition', field: r.v.field, condition: { op, keyword: r.v.keyword, value: value.v } }
    return this.ok(value.p, negate ? { type: 'not', child: expr } : expr)
  }

  to(p: number): Res<FilterExpression> {
    const field = this.value(p)
    if (!field.ok) return field
    const from = this.value(field.p)
    if (!from.ok) return from
    const t = this.tag(from.p, 'TO')
    if (!t.ok) return t
    const ws = this.multispace1(t.p)
    if (!ws.ok) return ws
    const to = this.cut(this.value(ws.p))
    if (!to.ok) return to
    return this.ok(to.p, { type: 'condition', field: field.v, condition: { op: 'TO', from: from.v, to: to.v } })
  }

  /** value_list = (value ("," value)* ","?)? */
  valueList(p: number): Res<Token[]> {
    const first = this.value(p)
    if (!first.ok) return first.fail ? first : this.ok(p, [])
    const values = [first.v]
    p = first.p
    for (;;) {
      const comma = this.skipMultispace(p)
      if (this.src[comma] !== ',') break
      const next = this.value(this.skipMultispace(comma + 1))
      if (!next.ok) {
        if (next.fail) return next
        break
      }
      values.push(next.v)
      p = next.p
    }
    const comma = this.skipMultispace(p)
    if (this.src[comma] === ',') p = this.skipMultispace(comma + 1)
    return this.ok(p, values)
  }

  /** "IN" WS* "[" value_list "]" */
  inBody(p: number): Res<Token[]> {
    const kw = this.keyword(p, 'IN')
    if (!kw.ok) return kw
    const open = this.mapCut(this.tag(kw.p, '['), { k: 'InOpeningBracket' })
    if (!open.ok) return open
    const list = this.cut(this.valueList(open.p))
    if (!list.ok) return list
    const q = list.p
    const close = this.skipMultispace(q)
    if (this.src[close] !== ']') {
      if (q >= this.src.length) return this.failure({ k: 'InClosingBracket' }, q)
      // Meilisearch inspects the value error here, but parse_value never reports a bare reserved keyword,
      // so this is always the plain variant.
      return this.failure({ k: 'InExpectedValue', reserved: false }, q)
    }
    return this.ok(this.skipMultispace(close + 1), list.v)
  }

  in(p: number): Res<FilterExpression> {
    const field = this.value(p)
    if (!field.ok) return field
    const body = this.inBody(field.p)
    if (!body.ok) return body
    return this.ok(body.p, { type: 'in', field: field.v, values: body.v })
  }

  notIn(p: number): Res<FilterExpression> {
    const field = this.value(p)
    if (!field.ok) return field
    const not = this.wordExact(field.p, 'NOT')
    if (!not.ok) return not
    const body = this.inBody(not.p)
    if (!body.ok) return body
    return this.ok(body.p, { type: 'not', child: { type: 'in', field: field.v, values: body.v } })
  }

  vectorsExists(p: number): Res<FilterExpression> {
    const start = this.skipMultispace(p)
    const fid = this.tag(start, '_vectors')
    if (!fid.ok) return fid
    let q = fid.p
    let embedder: Token | null = null
    let selector: VectorSelector = { kind: 'all' }
    const ws = this.multispace1(q)
    if (ws.ok) {
      q = ws.p
    } else {
      const dot = this.char(q, '.')
      if (!dot.ok) return dot
      q = dot.p
      // From here on, this is definitely a vector filter: errors are final.
      if (this.src[q] === ' ') return this.failure({ k: 'VectorFilterMissingEmbedder' }, q, q + 1)
      const name = this.dottedValueCut(q, { k: 'VectorFilterInvalidEmbedder' })
      if (!name.ok) return name
      embedder = name.v
      q = name.p
      let previous: string | null = null
      if (this.src.startsWith('.fragments', q)) {
        q += '.fragments'.length
        const dot2 = this.mapCut(this.tag(q, '.'), { k: 'VectorFilterMissingFragment' })
        if (!dot2.ok) return dot2
        const fragment = this.dottedValueCut(dot2.p, { k: 'VectorFilterInvalidFragment' })
        if (!fragment.ok) return fragment
        q = fragment.p
        selector = { kind: 'fragment', fragment: fragment.v }
        previous = 'fragments'
      } else {
        for (const kind of ['userProvided', 'documentTemplate', 'regenerate'] as const) {
          if (this.src.startsWith(`.${kind}`, q)) {
            q += kind.length + 1
            selector = { kind }
            previous = kind
            break
          }
        }
      }
      if (this.src[q] === '.') {
        const part = this.dottedValuePart(q + 1)
        const value = part.ok ? part.v.value : '.'
        const context = part.ok ? part.v : this.token('.', q, q + 1)
        return this.failure({ k: 'VectorFilterUnknownSuffix', previous, value }, context.start, context.end)
      }
      const trailing = this.mapCut(this.multispace1(q), { k: 'VectorFilterLeftover' })
      if (!trailing.ok) return trailing
      q = trailing.p
    }
    const expr: FilterExpression = { type: 'vectorExists', field: fid.v, embedder, selector }
    const exists = this.tag(q, 'EXISTS')
    if (exists.ok) return this.ok(exists.p, expr)
    const not = this.tag(q, 'NOT')
    if (not.ok) {
      const ws2 = this.multispace1(not.p)
      if (ws2.ok) {
        const exists2 = this.tag(ws2.p, 'EXISTS')
        if (exists2.ok) return this.ok(exists2.p, { type: 'not', child: expr })
      }
    }
    return this.failure({ k: 'VectorFilterOperation' }, q)
  }

  /** Only for its error: a reserved keyword where a field was expected becomes a failure. */
  errorReservedKeyword(p: number): Res<FilterExpression> {
    const r = this.condition(p)
    if (r.ok) return r
    if (r.e.kind.k === 'ExpectedValue' && r.e.kind.reserved) return { ok: false, fail: true, e: r.e }
    return { ok: false, fail: false, e: r.e }
  }

  /** A parser that only exists for its error (it never produces a value). */
  onlyError(r: Res<null>): Res<FilterExpression> {
    return r.ok ? this.error({ k: 'Internal', what: 'Verify' }, r.p) : r
  }

  // ---- expressions -------------------------------------------------------------------------------------

  depthError(p: number): Err {
    return this.error({ k: 'DepthLimitReached' }, p)
  }

  primary(p: number, depth: number): Res<FilterExpression> {
    if (depth > MAX_FILTER_DEPTH) return this.depthError(p)
    const alternatives: ((q: number) => Res<FilterExpression>)[] = [
      (q) => this.parenthesizedExpression(q, depth),
      (q) => this.geoRadius(q),
      (q) => this.geoBoundingBox(q),
      (q) => this.geoPolygon(q),
      (q) => this.in(q),
      (q) => this.notIn(q),
      (q) => this.condition(q),
      (q) => this.simple(q, ['IS', 'NULL'], { op: 'IS NULL' }, false),
      (q) => this.simple(q, ['IS', 'NOT', 'NULL'], { op: 'IS NULL' }, true),
      (q) => this.simple(q, ['IS', 'EMPTY'], { op: 'IS EMPTY' }, false),
      (q) => this.simple(q, ['IS', 'NOT', 'EMPTY'], { op: 'IS EMPTY' }, true),
      (q) => this.vectorsExists(q),
      (q) => this.simple(q, ['EXISTS'], { op: 'EXISTS' }, false),
      (q) => this.simple(q, ['NOT', 'EXISTS'], { op: 'EXISTS' }, true),
      (q) => this.to(q),
      (q) => this.textCondition(q, 'CONTAINS', false),
      (q) => this.textCondition(q, 'CONTAINS', true),
      (q) => this.textCondition(q, 'STARTS WITH', false),
      (q) => this.textCondition(q, 'STARTS WITH', true),
      (q) => this.onlyError(this.reservedGeoWord(q)),
      (q) => this.onlyError(this.reservedGeoTag(q, '_geoDistance')),
      (q) => this.onlyError(this.reservedGeoTag(q, '_geoPoint')),
      (q) => this.errorReservedKeyword(q),
    ]
    for (const alternative of alternatives) {
      const r = alternative(p)
      if (r.ok || r.fail) return r
    }
    // Nothing matched well enough to say more.
    return this.error({ k: 'InvalidPrimary' }, p)
  }

  /** "(" expression ")", with a missing ")" reported on the whole parenthesized text. */
  parenthesizedExpression(p: number, depth: number): Res<FilterExpression> {
    const open = this.char(this.skipMultispace(p), '(')
    if (!open.ok) return open
    const inner = this.cut(this.or(this.skipMultispace(open.p), depth + 1))
    if (!inner.ok) return inner
    const close = this.char(this.skipMultispace(inner.p), ')')
    if (!close.ok) return this.failure({ k: 'MissingClosingDelimiter', c: ')' }, p)
    return this.ok(this.skipMultispace(close.p), inner.v)
  }

  not(p: number, depth: number): Res<FilterExpression> {
    if (depth > MAX_FILTER_DEPTH) return this.depthError(p)
    const kw = this.keyword(p, 'NOT')
    if (kw.ok) {
      const inner = this.cut(this.not(kw.p, depth + 1))
      if (!inner.ok) return inner
      // NOT NOT x is x.
      const v = inner.v
      return this.ok(inner.p, v.type === 'not' ? v.child : { type: 'not', child: v })
    }
    if (kw.fail) return kw
    return this.primary(p, depth + 1)
  }

  and(p: number, depth: number): Res<FilterExpression> {
    if (depth > MAX_FILTER_DEPTH) return this.depthError(p)
    const first = this.not(p, depth + 1)
    if (!first.ok) return first
    const children = [first.v]
    p = first.p
    for (;;) {
      const kw = this.keyword(p, 'AND')
      if (!kw.ok) break
      const next = this.cut(this.not(kw.p, depth + 1))
      if (!next.ok) return next
      children.push(next.v)
      p = next.p
    }
    return this.ok(p, children.length === 1 ? first.v : { type: 'and', children })
  }

  or(p: number, depth: number): Res<FilterExpression> {
    if (depth > MAX_FILTER_DEPTH) return this.depthError(p)
    const first = this.and(p, depth + 1)
    if (!first.ok) return first
    const children = [first.v]
    p = first.p
    for (;;) {
      const kw = this.keyword(p, 'OR')
      if (!kw.ok) break
      const next = this.cut(this.and(kw.p, depth + 1))
      if (!next.ok) return next
      children.push(next.v)
      p = next.p
    }
    return this.ok(p, children.length === 1 ? first.v : { type: 'or', children })
  }

  filter(): Res<FilterExpression> {
    const r = this.or(0, 0)
    if (!r.ok) return r
    if (r.p < this.src.length) return this.error({ k: 'ExpectedEof' }, r.p)
    return r
  }
}

/** Parse one filter string. Null for a blank string; a ParseError (Meilisearch's) for a bad one. */
export function parseFilterString(src: string): { expr: FilterExpression | null } | { error: ParseError } {
  if (src.trim() === '') return { expr: null }
  const r = new Parser(src).filter()
  return r.ok ? { expr: r.v } : { error: r.e }
}

/**
 * The `unescaper` crate, which Meilisearch applies to every value: `\b \f \n \r \t \' \" \\`, `\u{X..}` and
 * `\uXXXX` (up to 0xFFFF), `\xHH`, octal `\o`, `\oo`, `\ooo` (up to 0o377). Anything else after a backslash is
 * invalid (`malformed`); bad hexadecimal numbers are `number` errors.
 */
export function unescapeRust(s: string): { ok: true; value: string } | { ok: false; error: 'malformed' | 'number' } {
  if (!s.includes('\\')) return { ok: true, value: s }
  const chars = [...s]
  let out = ''
  let i = 0
  const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c)
  const isOct = (c: string | undefined) => c !== undefined && /^[0-7]$/.test(c)
  while (i < chars.length) {
    const c = chars[i++]!
    if (c !== '\\') { out += c; continue }
    const e = chars[i++]
    if (e === undefined) return { ok: false, error: 'malformed' }
    switch (e) {
      case 'b': out += '\b'; break
      case 'f': out += '\f'; break
      case 'n': out += '\n'; break
      case 'r': out += '\r'; break
      case 't': out += '\t'; break
      case "'": out += "'"; break
      case '"': out += '"'; break
      case '\\': out += '\\'; break
      case 'u': {
        const first = chars[i++]
        if (first === undefined) return { ok: false, error: 'malformed' }
        let hex = ''
        if (first === '{') {
          while (i < chars.length && chars[i] !== '}') hex += chars[i++]
          i++ // the closing brace (or the end)
        } else {
          if (!isHex(first)) return { ok: false, error: 'malformed' }
          hex = first
          for (let k = 0; k < 3; k++) {
            const h = chars[i++]
            if (h === undefined || !isHex(h)) return { ok: false, error: 'malformed' }
            hex += h
          }
        }
        // u16::from_str_radix: hexadecimal digits only, at most 0xFFFF.
        if (!/^\+?[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0xffff) return { ok: false, error: 'number' }
        const code = parseInt(hex, 16)
        if (code >= 0xd800 && code <= 0xdfff) return { ok: false, error: 'malformed' }
        out += String.fromCharCode(code)
        break
      }
      case 'x': {
        const h1 = chars[i++]
        const h2 = chars[i++]
        if (!isHex(h1) || !isHex(h2)) return { ok: false, error: 'malformed' }
        out += String.fromCharCode(parseInt(h1! + h2!, 16))
        break
      }
      default: {
        if (!isOct(e)) return { ok: false, error: 'malformed' }
        let oct = e
        const more = e <= '3' ? 2 : 1
        for (let k = 0; k < more && isOct(chars[i]); k++) oct += chars[i++]
        out += String.fromCharCode(parseInt(oct, 8))
      }
    }
  }
  return { ok: true, value: out }
}
