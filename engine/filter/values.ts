/**
 * The filter grammar's values (words, quoted strings, dotted field names, floats) and geo functions
 * (`_geoRadius`, `_geoBoundingBox`, `_geoPolygon`), with Meilisearch's diagnostics when a geo function or a
 * reserved geo field is used where a value is expected.
 */
import type { FilterExpression, Token } from './ast.js'
import type { ParseErrorKind } from './errors.js'
import { KEYWORDS, ParserCore, SYNTAX, UNICODE_WS, type Err, type Res } from './parser-core.js'

export class ValueParser extends ParserCore {
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
}
