/**
 * Parsing of literal-like primaries: array and object map literals (with the task engine's size limits),
 * interpolated back-tick strings (whose `${...}` pieces are blocks), and closures (`|a, b| body`), which record
 * the outer variables they use so that the interpreter can capture them.
 */
import type { Expr } from './ast.js'
import { syntax } from './errors.js'
import { parseExpr } from './expressions.js'
import { isKeyword } from './lexer.js'
import { positionOf, type ParseContext, type Settings } from './parse-state.js'
import { parseBlock, parseStmt } from './statements.js'

export function parseArray(p: ParseContext, s: Settings): Expr {
  const open = p.next()
  const settings = { ...s, pos: positionOf(open) }
  const items: Expr[] = []
  for (;;) {
    const max = p.limits.maxArrayLiteral
    if (max > 0 && items.length >= max) p.failAt(syntax.literalTooLarge('Size of array literal', max), p.peek())
    const t = p.peek()
    if (t.kind === ']') {
      p.next()
      break
    }
    if (t.kind === 'eof') p.failAt(syntax.missing(']', 'to end this array literal'), t)
    items.push(parseExpr(p, p.levelUp(settings)))
    const sep = p.peek()
    if (sep.kind === ',') p.next()
    else if (sep.kind === ']') continue
    else if (sep.kind === 'eof') p.failAt(syntax.missing(']', 'to end this array literal'), sep)
    else p.failAt(syntax.missing(',', 'to separate the items of this array literal'), sep)
  }
  return { k: 'array', items, pos: settings.pos }
}

export function parseMap(p: ParseContext, s: Settings): Expr {
  const open = p.next()
  const settings = { ...s, pos: positionOf(open) }
  const entries: [string, Expr][] = []
  const endWhy = 'to end this object map literal'
  for (;;) {
    const t = p.peek()
    if (t.kind === '}') {
      p.next()
      break
    }
    if (t.kind === 'eof') p.failAt(syntax.missing('}', endWhy), t)
    const key = p.next()
    if (key.kind === 'ident' || key.kind === 'str') {
      if (entries.some(([k]) => k === key.text)) p.failAt(syntax.duplicatedProperty(key.text), key)
    } else if (key.kind === 'interp') {
      p.failAt(syntax.propertyExpected(), key)
    } else if (key.kind === 'reserved' && /^[A-Za-z_]/.test(key.text)) {
      p.failAt(syntax.reserved(key.text), key)
    } else if (entries.length === 0) {
      p.failAt(syntax.missing('}', endWhy), key)
    } else {
      p.failAt(syntax.propertyExpected(), key)
    }
    const colon = p.next()
    if (colon.kind !== ':') p.failAt(syntax.missing(':', `to follow the property '${key.text}' in this object map literal`), colon)
    const max = p.limits.maxMapLiteral
    if (max > 0 && entries.length >= max) p.failAt(syntax.literalTooLarge('Number of properties in object map literal', max), p.peek())
    entries.push([key.text, parseExpr(p, p.levelUp(settings))])
    const sep = p.peek()
    if (sep.kind === ',') p.next()
    else if (sep.kind === '}') continue
    else if (sep.kind === 'ident') p.failAt(syntax.missing(',', 'to separate the items of this object map literal'), sep)
    else p.failAt(syntax.missing('}', endWhy), sep)
  }
  return { k: 'map', entries, pos: settings.pos }
}

export function parseInterpolated(p: ParseContext, s: Settings): Expr {
  const first = p.next()
  const parts: Expr[] = []
  if (first.text !== '') parts.push({ k: 'str', value: first.text, pos: positionOf(first) })
  for (;;) {
    const block = parseBlock(p, s)
    parts.push({ k: 'stmt', stmt: block, pos: block.pos })
    p.resumeText()
    const t = p.next()
    if (t.text !== '') parts.push({ k: 'str', value: t.text, pos: positionOf(t) })
    if (t.kind === 'str') break
  }
  return { k: 'interp', parts, pos: s.pos }
}

export function parseClosure(p: ParseContext, s: Settings): Expr {
  const outer = p.scope
  const scope = { stack: [] as { name: string; constant: boolean }[], captures: [] as string[], allowCapture: true }
  p.scope = scope
  const params: string[] = []
  const open = p.next()
  if (open.kind === '|' && !p.match('|')) {
    for (;;) {
      const t = p.next()
      if (t.kind === '|') break
      if (t.kind === 'ident') {
        if (params.includes(t.text)) p.failAt(syntax.fnDuplicatedParam('', t.text), t)
        params.push(t.text)
        p.declare(t.text, false)
      } else if (t.kind === 'reserved') {
        p.failAt(syntax.reserved(t.text), t)
      } else if (isKeyword(t.kind)) {
        p.failAt(syntax.variableExpected(), t)
      } else {
        p.failAt(syntax.missing('|', 'to close the parameters list of anonymous function or closure'), t)
      }
      const sep = p.next()
      if (sep.kind === '|') break
      if (sep.kind !== ',') p.failAt(syntax.missing(',', 'to separate the parameters of anonymous function'), sep)
    }
  }
  const bodySettings: Settings = { ...s, fnScope: true, breakable: false, global: false }
  const body = parseStmt(p, p.levelUp(bodySettings))
  p.scope = outer
  for (const name of scope.captures) p.access(name)
  const fn = { name: p.anonymousName(), params, body, anonymous: true, pos: s.pos }
  p.functionCount++
  return { k: 'closure', fn, captures: scope.captures, pos: s.pos }
}
