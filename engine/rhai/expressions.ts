/**
 * Expression parsing, following Rhai's parser: precedence climbing with Rhai's table (`**` binds right,
 * `||` `|` `^` share the lowest level), unary operators folding numeric literals, primaries (literals, groups,
 * statement expressions, closures, interpolated strings, arrays, maps, calls) and postfix chains (`.prop`,
 * `[index]`, `.method(...)`, and their `?.` / `?[` forms). Nesting levels are counted where Rhai counts them.
 */
import type { Expr, Step } from './ast.js'
import { syntax, type Position } from './errors.js'
import { CALLABLE_RESERVED, METHOD_RESERVED, tokenDisplay, type Token } from './lexer.js'
import { parseArray, parseClosure, parseInterpolated, parseMap } from './literals.js'
import { positionOf, type ParseContext, type Settings } from './parse-state.js'
import { parseBlock, parseDo, parseFor, parseIf, parseStmt, parseSwitch, parseWhile } from './statements.js'

const PRECEDENCE: Record<string, number> = {
  '||': 30, '|': 30, '^': 30,
  '&&': 60, '&': 60,
  '==': 90, '!=': 90,
  'in': 110, '!in': 110,
  '<': 130, '<=': 130, '>': 130, '>=': 130,
  '??': 135,
  '..': 140, '..=': 140,
  '+': 150, '-': 150,
  '*': 180, '/': 180, '%': 180,
  '**': 190,
  '<<': 210, '>>': 210,
}

function precedenceOf(p: ParseContext, t: Token): number {
  if (p.noPipe && t.kind === '|') return 0
  if (t.kind === 'reserved' && !/^[A-Za-z_]/.test(t.text)) p.failAt(syntax.unknownOperator(t.text), t)
  return PRECEDENCE[t.kind] ?? 0
}

export function startPos(e: Expr): Position {
  switch (e.k) {
    case 'binary': return startPos(e.lhs)
    case 'chain': return startPos(e.root)
    case 'logic': return startPos(e.items[0]!)
    case 'in': return startPos(e.item)
    default: return e.pos
  }
}

/** Rhai's `ensure_bool_expr`: a literal that can never be a boolean is refused where a condition is expected. */
export function ensureBool(p: ParseContext, e: Expr): Expr {
  const kind = literalKind(e, false)
  if (kind !== null) p.fail(syntax.mismatched('a boolean expression', kind), startPos(e))
  return e
}

/** Rhai's `ensure_iterable`. */
export function ensureIterable(p: ParseContext, e: Expr): Expr {
  const kind = literalKind(e, true)
  if (kind !== null) p.fail(syntax.mismatched('an iterable value', kind), startPos(e))
  return e
}

function literalKind(e: Expr, iterable: boolean): string | null {
  switch (e.k) {
    case 'unit': return '()'
    case 'bool': return iterable ? 'a boolean' : null
    case 'int': return 'a number'
    case 'float': return 'a floating-point number'
    case 'char': return 'a character'
    case 'str': case 'interp': return iterable ? null : 'a string'
    case 'array': return iterable ? null : 'an array'
    case 'map': return 'an object map'
    default: return null
  }
}

export function isConstant(e: Expr): boolean {
  switch (e.k) {
    case 'unit': case 'bool': case 'int': case 'float': case 'str': case 'char': return true
    case 'array': return e.items.every(isConstant)
    case 'map': return e.entries.every(([, v]) => isConstant(v))
    default: return false
  }
}

export function parseExpr(p: ParseContext, s: Settings): Expr {
  const settings = p.levelUp({ ...s, pos: positionOf(p.peek()) })
  const lhs = parseUnary(p, settings)
  return parseBinary(p, settings, 1, lhs)
}

function parseBinary(p: ParseContext, s: Settings, parent: number, lhs: Expr): Expr {
  let settings: Settings = { ...s, pos: lhs.pos }
  let root = lhs
  for (;;) {
    const current = p.peek()
    const precedence = precedenceOf(p, current)
    const bindRight = current.kind === '**'
    if (precedence < parent || (precedence === parent && !bindRight)) return root
    const op = p.next()
    const opPos = positionOf(op)
    let rhs: Expr
    const after = p.peek().kind
    if (op.kind === '??' && (after === 'break' || after === 'continue' || after === 'return' || after === 'throw')) {
      rhs = { k: 'stmt', stmt: parseStmt(p, settings), pos: positionOf(p.peek()) }
    } else if ((op.kind === '..' || op.kind === '..=') && [']', ')', '}', ',', ';', '=>'].includes(after)) {
      rhs = { k: 'unit', pos: positionOf(p.peek()) }
    } else {
      rhs = parseUnary(p, settings)
    }
    const next = precedenceOf(p, p.peek())
    if ((precedence === next && bindRight) || precedence < next) rhs = parseBinary(p, p.levelUp(settings), precedence, rhs)
    settings = p.levelUp(settings, opPos)
    root = combine(p, op.kind, root, rhs, opPos)
  }
}

function combine(p: ParseContext, op: string, lhs: Expr, rhs: Expr, pos: Position): Expr {
  if (op === '&&' || op === '||' || op === '??') {
    if (op !== '??') {
      ensureBool(p, lhs)
      ensureBool(p, rhs)
    }
    const items: Expr[] = []
    for (const side of [lhs, rhs]) {
      if (side.k === 'logic' && side.op === op) items.push(...side.items)
      else items.push(side)
    }
    return { k: 'logic', op, items, pos }
  }
  if (op === 'in' || op === '!in') return { k: 'in', item: lhs, container: rhs, negated: op === '!in', pos }
  return { k: 'binary', op, lhs, rhs, pos }
}

function parseUnary(p: ParseContext, s: Settings): Expr {
  const t = p.peek()
  const pos = positionOf(t)
  if (p.noPipe && t.kind === '|') p.failAt(syntax.unexpected('|'), t)
  if (t.kind === '-' || t.kind === '+') {
    p.next()
    const arg = parseUnary(p, p.levelUp({ ...s, pos }))
    if (t.kind === '-') {
      if (arg.k === 'int') return arg.value === -(2n ** 63n) ? { k: 'float', value: -Number(arg.value), pos } : { k: 'int', value: -arg.value, pos }
      if (arg.k === 'float') return { k: 'float', value: -arg.value, pos }
      return { k: 'unary', op: '-', arg, pos }
    }
    if (arg.k === 'int' || arg.k === 'float') return arg
    return { k: 'unary', op: '+', arg, pos }
  }
  if (t.kind === '!') {
    p.next()
    return { k: 'unary', op: '!', arg: parseUnary(p, p.levelUp({ ...s, pos })), pos }
  }
  if (t.kind === 'eof') p.failAt(syntax.incomplete(), t)
  return parsePrimary(p, { ...s, pos })
}

function parsePrimary(p: ParseContext, s: Settings): Expr {
  const t = p.peek()
  const pos = positionOf(t)
  let root: Expr
  switch (t.kind) {
    case 'eof': p.failAt(syntax.incomplete(), t)
    // falls through (fail never returns)
    case '()': p.next(); root = { k: 'unit', pos }; break
    case 'int': p.next(); root = { k: 'int', value: t.int, pos }; break
    case 'float': p.next(); root = { k: 'float', value: t.float, pos }; break
    case 'char': p.next(); root = { k: 'char', value: t.text, pos }; break
    case 'str': p.next(); root = { k: 'str', value: t.text, pos }; break
    case 'true': case 'false': p.next(); root = { k: 'bool', value: t.kind === 'true', pos }; break
    case '..': case '..=': root = { k: 'int', value: 0n, pos }; break
    case '{': root = { k: 'stmt', stmt: parseBlock(p, p.levelUp(s)), pos }; break
    case '(': {
      p.next()
      const inner = parseExpr(p, p.levelUp({ ...s, pos }))
      const close = p.next()
      if (close.kind !== ')') p.failAt(syntax.missing(')', 'for a matching ( in this expression'), close)
      root = inner
      break
    }
    case 'if': root = { k: 'stmt', stmt: parseIf(p, p.levelUp(s)), pos }; break
    case 'while': case 'loop': root = { k: 'stmt', stmt: parseWhile(p, p.levelUp(s)), pos }; break
    case 'do': root = { k: 'stmt', stmt: parseDo(p, p.levelUp(s)), pos }; break
    case 'for': root = { k: 'stmt', stmt: parseFor(p, p.levelUp(s)), pos }; break
    case 'switch': root = { k: 'stmt', stmt: parseSwitch(p, p.levelUp(s)), pos }; break
    case '|': case '||':
      if (p.noPipe) p.failAt(syntax.unexpected(t.text), t)
      p.checkFunctionCount(pos)
      root = parseClosure(p, s)
      break
    case 'interp': root = parseInterpolated(p, p.levelUp(s)); break
    case '[': root = parseArray(p, p.levelUp(s)); break
    case '#{': root = parseMap(p, p.levelUp(s)); break
    case 'ident': {
      p.next()
      const after = p.peek().kind
      if (after !== '(' && after !== '!' && after !== '()') p.access(t.text)
      root = { k: 'var', name: t.text, pos }
      break
    }
    case 'reserved': {
      p.next()
      const after = p.peek().kind
      if ((after === '(' || after === '!' || after === '()') && CALLABLE_RESERVED.has(t.text)) {
        root = { k: 'var', name: t.text, pos }
      } else if (t.text === 'this') {
        if (!s.fnScope) p.failAt("'this' can only be used in functions", t)
        root = { k: 'this', pos }
      } else {
        p.failAt(syntax.reserved(t.text), t)
      }
      break
    }
    default: p.failAt(syntax.unexpected(tokenDisplay(t)), t)
  }
  if (p.noPipe && p.peek().kind === '|') return root
  return parsePostfix(p, s, root)
}

function parsePostfix(p: ParseContext, s: Settings, lhs: Expr): Expr {
  let expr = lhs
  let settings = s
  for (;;) {
    const t = p.peek()
    const pos = positionOf(t)
    if (expr.k === 'var' && (t.kind === '(' || t.kind === '()' || t.kind === '!')) {
      p.next()
      if (t.kind === '!') {
        const open = p.peek()
        if (open.kind !== '(' && open.kind !== '()') p.failAt(syntax.missing('(', 'to start arguments list of function call'), open)
        p.next()
        expr = parseCall(p, { ...settings, pos: expr.pos }, expr.name, open.kind === '()')
      } else {
        expr = parseCall(p, { ...settings, pos: expr.pos }, expr.name, t.kind === '()')
      }
      continue
    }
    if (t.kind === '[' || t.kind === '?[') {
      p.next()
      const check = expr
      // Rhai nests an index chain one level deeper per `[`.
      settings = p.levelUp({ ...settings, pos })
      const index = parseExpr(p, p.levelUp(settings))
      checkIndexType(p, check, index)
      const close = p.next()
      if (close.kind !== ']') p.failAt(syntax.missing(']', 'for a matching [ in this index expression'), close)
      expr = appendStep(expr, { k: 'index', index, optional: t.kind === '?[', pos: startPos(index) }, pos)
      continue
    }
    if (t.kind === '.' || t.kind === '?.') {
      p.next()
      settings = p.levelUp({ ...settings, pos })
      const name = p.next()
      const namePos = positionOf(name)
      const optional = t.kind === '?.'
      if (name.kind === 'reserved' && !METHOD_RESERVED.has(name.text)) p.failAt(syntax.reserved(name.text), name)
      if (name.kind !== 'ident' && name.kind !== 'reserved') p.failAt(syntax.propertyExpected(), name)
      const after = p.peek()
      if (after.kind === '(' || after.kind === '()') {
        p.next()
        const call = parseCall(p, { ...settings, pos: namePos }, name.text, after.kind === '()')
        if (call.k !== 'call') throw new Error('unreachable')
        expr = appendStep(expr, { k: 'method', name: name.text, args: call.args, optional, pos: namePos }, pos)
      } else if (after.kind === '!') {
        p.fail('method-call style does not support running within the caller\'s scope', namePos)
      } else {
        if (name.kind === 'reserved') p.failAt(syntax.reserved(name.text), name)
        expr = appendStep(expr, { k: 'prop', name: name.text, optional, pos: namePos }, pos)
      }
      continue
    }
    return expr
  }
}

function appendStep(expr: Expr, step: Step, pos: Position): Expr {
  if (expr.k === 'chain') {
    expr.steps.push(step)
    return expr
  }
  return { k: 'chain', root: expr, steps: [step], pos }
}

/** Indexing a literal with a literal of a type it can never take is refused when parsing. */
function checkIndexType(p: ParseContext, target: Expr, index: Expr): void {
  const at = startPos(index)
  const kind = index.k === 'logic' && index.op !== '??' ? 'bool' : index.k
  if (target.k === 'map') {
    const what: Record<string, string> = { int: 'a number', float: 'a float', char: 'a character', unit: '()', bool: 'a boolean' }
    if (what[kind] !== undefined) p.fail(`Object map expects string index, not ${what[kind]}`, at)
  } else if (target.k === 'int' || target.k === 'array' || target.k === 'str' || target.k === 'interp') {
    if (kind === 'str' || kind === 'interp') p.fail('Array, string or bit-field expects numeric index, not a string', at)
    const what: Record<string, string> = { float: 'a float', char: 'a character', unit: '()', bool: 'a boolean' }
    if (what[kind] !== undefined) p.fail(`Array, string or bit-field expects integer index, not ${what[kind]}`, at)
  }
}

function parseCall(p: ParseContext, s: Settings, name: string, noArgs: boolean): Expr {
  const args: Expr[] = []
  const closeWhy = `to close the arguments list of this function call '${name}'`
  if (!noArgs) {
    const first = p.peek()
    if (first.kind === 'eof') p.failAt(syntax.missing(')', closeWhy), first)
    if (first.kind === ')') {
      p.next()
    } else {
      const settings = p.levelUp(s)
      for (;;) {
        if (p.peek().kind !== ')') args.push(parseExpr(p, settings))
        const t = p.peek()
        if (t.kind === ')') {
          p.next()
          break
        }
        if (t.kind === ',') {
          p.next()
          continue
        }
        if (t.kind === 'eof') p.failAt(syntax.missing(')', closeWhy), t)
        p.failAt(syntax.missing(',', `to separate the arguments to function call '${name}'`), t)
      }
    }
  }
  return { k: 'call', name, args, pos: s.pos }
}
