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
 * The layers: parser-core.ts (nom's primitives), values.ts (values, geo functions), this file (conditions and the
 * boolean expression); unescape.ts applies Rust's escapes to values.
 */
import type { Condition, FilterExpression, Token, VectorSelector } from './ast.js'
import type { ParseError } from './errors.js'
import type { Err, Res } from './parser-core.js'
import { ValueParser } from './values.js'

export const MAX_FILTER_DEPTH = 150

class Parser extends ValueParser {
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

