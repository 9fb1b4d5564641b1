/**
 * Statement parsing, following Rhai's parser: blocks and the semicolons between statements, `let`/`const`,
 * assignments and their left-hand-side checks, `if`, `while`/`loop`, `do`, `for`, `switch`, `try`,
 * `break`/`continue`/`return`/`throw`, and `fn` definitions at global level.
 */
import type { Expr, FnDef, Stmt, SwitchCase } from './ast.js'
import { RhaiSyntaxError, syntax } from './errors.js'
import { ensureBool, ensureIterable, isConstant, parseExpr, startPos } from './expressions.js'
import { isKeyword } from './lexer.js'
import { positionOf, type ParseContext, type Settings } from './parse-state.js'

const OP_ASSIGN = new Set(['+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '&=', '|=', '^='])

export function selfTerminated(stmt: Stmt): boolean {
  switch (stmt.k) {
    case 'if': case 'switch': case 'while': case 'for': case 'block': case 'try': return true
    default: return false
  }
}

export function parseStmt(p: ParseContext, s: Settings): Stmt {
  const t = p.peek()
  const pos = positionOf(t)
  const settings = { ...s, pos }
  switch (t.kind) {
    case 'eof': return { k: 'noop', pos }
    case ';': p.next(); return { k: 'noop', pos }
    case '{': return parseBlock(p, p.levelUp(settings))
    case 'fn': case 'private': return parseFnDefinition(p, settings)
    case 'if': return parseIf(p, p.levelUp(settings))
    case 'switch': return parseSwitch(p, p.levelUp(settings))
    case 'while': case 'loop': return parseWhile(p, p.levelUp(settings))
    case 'do': return parseDo(p, p.levelUp(settings))
    case 'for': return parseFor(p, p.levelUp(settings))
    case 'continue': case 'break':
      if (!s.breakable) p.failAt(syntax.loopBreak(), t)
      p.next()
      if (t.kind === 'continue') return { k: 'continue', pos }
      return { k: 'break', value: optionalValue(p, p.levelUp(settings)), pos }
    case 'return': case 'throw':
      p.next()
      return { k: t.kind, value: optionalValue(p, p.levelUp(settings)), pos }
    case 'try': return parseTry(p, p.levelUp(settings))
    case 'let': case 'const': return parseLet(p, p.levelUp(settings))
    default: return parseExprStatement(p, p.levelUp(settings))
  }
}

/** `break`, `return`, `throw` take a value when one follows; a failure on the very next token means none. */
function optionalValue(p: ParseContext, s: Settings): Expr | null {
  const before = p.peek()
  try {
    return parseExpr(p, s)
  } catch (err) {
    if (err instanceof RhaiSyntaxError && p.peek() === before) return null
    throw err
  }
}

export function parseBlock(p: ParseContext, s: Settings): Stmt {
  const open = p.next()
  if (open.kind !== '{') p.failAt(syntax.missing('{', 'to start a statement block'), open)
  const settings = p.levelUp(s, positionOf(open))
  const stackLength = p.scope.stack.length
  const stmts: Stmt[] = []
  for (;;) {
    const t = p.peek()
    if (t.kind === '}') {
      p.next()
      break
    }
    if (t.kind === 'eof') p.failAt(syntax.missing('}', 'to terminate this block'), t)
    const stmt = parseStmt(p, { ...settings, global: false })
    if (stmt.k === 'noop') continue
    stmts.push(stmt)
    const after = p.peek()
    if (after.kind === '}') {
      p.next()
      break
    }
    if (after.kind === ';') p.next()
    else if (selfTerminated(stmt)) continue
    else p.failAt(syntax.missing(';', 'to terminate this statement'), after)
  }
  p.scope.stack.length = stackLength
  return { k: 'block', stmts, pos: settings.pos }
}

/** The top level of a script: statements separated by semicolons, function definitions. */
export function parseGlobal(p: ParseContext, s: Settings): Stmt[] {
  const stmts: Stmt[] = []
  while (p.peek().kind !== 'eof') {
    const stmt = parseStmt(p, s)
    if (stmt.k === 'noop') continue
    stmts.push(stmt)
    const after = p.peek()
    if (after.kind === 'eof') break
    if (after.kind === ';' || selfTerminated(stmt)) continue
    p.failAt(syntax.missing(';', 'to terminate this statement'), after)
  }
  return stmts
}

function parseExprStatement(p: ParseContext, s: Settings): Stmt {
  const target = parseExpr(p, s)
  const t = p.peek()
  if (t.kind !== '=' && !OP_ASSIGN.has(t.kind)) return { k: 'expr', expr: target, pos: s.pos }
  p.next()
  const opPos = positionOf(t)
  const value = parseExpr(p, { ...s, pos: opPos })
  const op = t.kind === '=' ? null : t.kind.slice(0, -1)
  checkAssignable(p, target, op !== null, t.kind)
  return { k: 'assign', target, op, value, pos: opPos }
}

/** Rhai's `make_assignment_stmt` checks on the left-hand side. */
function checkAssignable(p: ParseContext, target: Expr, isOpAssign: boolean, opText: string): void {
  if (target.k === 'this') return
  if (target.k === 'var') {
    const declared = p.scope.stack.findLast((v) => v.name === target.name)
    if (declared?.constant) p.fail(syntax.assignToConstant(target.name), target.pos)
    return
  }
  if (target.k === 'chain') {
    const method = target.steps.find((step) => step.k === 'method')
    if (method !== undefined) p.fail(syntax.invalidLhs(), method.pos)
    if (target.root.k !== 'var' && target.root.k !== 'this') p.fail(syntax.invalidLhs(), target.root.pos)
    return
  }
  if (isConstant(target)) p.fail(syntax.assignToConstant(''), startPos(target))
  if (target.k === 'logic' && !isOpAssign) p.fail(syntax.improper("Possibly a typo of '=='?"), target.pos)
  void opText
  p.fail(syntax.invalidLhs(), target.pos)
}

function parseVarName(p: ParseContext): { name: string; pos: { line: number; pos: number } } {
  const t = p.next()
  if (t.kind === 'ident') return { name: t.text, pos: positionOf(t) }
  if (t.kind === 'reserved' && /^[A-Za-z_]/.test(t.text)) p.failAt(syntax.reserved(t.text), t)
  p.failAt(syntax.variableExpected(), t)
}

function parseLet(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = { ...s, pos: positionOf(keyword) }
  const { name } = parseVarName(p)
  const init = p.match('=') ? parseExpr(p, p.levelUp(settings)) : null
  const constant = keyword.kind === 'const'
  p.declare(name, constant)
  return { k: 'let', name, init, constant, pos: settings.pos }
}

/** Conditions: not a block, a boolean-compatible expression, not followed by a lone `=`. */
function parseCondition(p: ParseContext, s: Settings, what = 'a boolean'): Expr {
  const t = p.peek()
  if (t.kind === '{') p.failAt(syntax.exprExpected(what), t)
  const cond = parseExpr(p, s)
  const after = p.peek()
  if (after.kind === '=') p.failAt(syntax.improper("Possibly a typo of '=='?"), after)
  return cond
}

export function parseIf(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = p.levelUp(s, positionOf(keyword))
  const cond = ensureBool(p, parseConditionUnchecked(p, settings))
  const after = p.peek()
  if (after.kind === '=') p.failAt(syntax.improper("Possibly a typo of '=='?"), after)
  const then = parseBlock(p, settings)
  let otherwise: Stmt | null = null
  if (p.match('else')) otherwise = p.peek().kind === 'if' ? parseIf(p, settings) : parseBlock(p, settings)
  return { k: 'if', cond, then, otherwise, pos: settings.pos }
}

function parseConditionUnchecked(p: ParseContext, s: Settings): Expr {
  const t = p.peek()
  if (t.kind === '{') p.failAt(syntax.exprExpected('a boolean'), t)
  return parseExpr(p, s)
}

export function parseWhile(p: ParseContext, s: Settings): Stmt {
  const settings = p.levelUp(s)
  const keyword = p.next()
  let cond: Expr | null = null
  if (keyword.kind === 'while') {
    cond = ensureBool(p, parseConditionUnchecked(p, settings))
    const after = p.peek()
    if (after.kind === '=') p.failAt(syntax.improper("Possibly a typo of '=='?"), after)
  }
  const body = parseBlock(p, { ...settings, pos: positionOf(keyword), breakable: true })
  return { k: 'while', cond, body, pos: positionOf(keyword) }
}

export function parseDo(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = p.levelUp(s, positionOf(keyword))
  const body = parseBlock(p, { ...settings, breakable: true })
  const t = p.next()
  if (t.kind !== 'while' && t.kind !== 'until') p.failAt(syntax.missing('while', 'for the do statement'), t)
  const cond = ensureBool(p, parseCondition(p, settings))
  return { k: 'do', body, cond, until: t.kind === 'until', pos: settings.pos }
}

export function parseFor(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = p.levelUp(s, positionOf(keyword))
  let name: string
  let counter: string | null = null
  if (p.match('(')) {
    name = parseVarName(p).name
    if (!p.match(',')) p.failAt(syntax.missing(',', 'after the iteration variable name'), p.peek())
    const second = parseVarName(p)
    if (second.name === name) p.fail(syntax.duplicatedVariable(second.name), second.pos)
    counter = second.name
    if (!p.match(')')) p.failAt(syntax.missing(')', 'to close the iteration variable'), p.peek())
  } else {
    name = parseVarName(p).name
  }
  const inToken = p.next()
  if (inToken.kind !== 'in') p.failAt(syntax.missing('in', 'after the iteration variable'), inToken)
  const iterable = ensureIterable(p, parseConditionUnchecked(p, settings))
  const stackLength = p.scope.stack.length
  if (counter !== null) p.declare(counter, false)
  p.declare(name, false)
  const body = parseBlock(p, { ...settings, breakable: true })
  p.scope.stack.length = stackLength
  return { k: 'for', name, counter, iterable, body, pos: settings.pos }
}

export function parseSwitch(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = p.levelUp(s, positionOf(keyword))
  const subject = parseExpr(p, settings)
  const open = p.next()
  if (open.kind !== '{') p.failAt(syntax.missing('{', 'to start a switch block'), open)
  const cases: SwitchCase[] = []
  let defaultCase: Stmt | null = null
  let defaultPos = positionOf(open)
  let seenRange = false
  const endWhy = 'to end this switch block'
  for (;;) {
    const t = p.peek()
    if (t.kind === '}') {
      p.next()
      break
    }
    if (t.kind === 'eof') p.failAt(syntax.missing('}', endWhy), t)
    let values: Expr[] = []
    let condition: Expr | null = null
    const isDefault = t.kind === '_' && defaultCase === null
    if (isDefault) {
      defaultPos = positionOf(t)
      p.next()
      const ifToken = p.peek()
      if (ifToken.kind === 'if') p.failAt(syntax.wrongSwitchCaseCondition(), ifToken)
    } else if (defaultCase !== null) {
      p.fail(syntax.wrongSwitchDefaultCase(), defaultPos)
    } else {
      values = parseCaseValues(p, settings)
      if (p.match('if')) {
        condition = ensureBool(p, parseCondition(p, settings))
      }
    }
    const arrow = p.next()
    if (arrow.kind !== '=>') p.failAt(syntax.missing('=>', 'in this switch case'), arrow)
    const body = parseStmt(p, settings)
    const needComma = !selfTerminated(body)
    for (const value of values) {
      const isRange = value.k === 'binary' && (value.op === '..' || value.op === '..=')
      if (isRange) seenRange = true
      else if (seenRange && (value.k === 'int' || value.k === 'float')) p.fail(syntax.wrongSwitchIntegerCase(), startPos(value))
    }
    if (isDefault) defaultCase = body
    else cases.push({ values, condition, body })
    const sep = p.peek()
    if (sep.kind === ',') p.next()
    else if (sep.kind === '}') continue
    else if (sep.kind === 'eof') p.failAt(syntax.missing(')', endWhy), sep)
    else if (needComma) p.failAt(syntax.missing(',', 'to separate the items in this switch block'), sep)
  }
  return { k: 'switch', subject, cases, defaultCase, pos: settings.pos }
}

function parseCaseValues(p: ParseContext, s: Settings): Expr[] {
  const values: Expr[] = []
  for (;;) {
    const saved = p.noPipe
    p.noPipe = true
    let value: Expr
    try {
      value = parseExpr(p, s)
    } catch (err) {
      if (err instanceof RhaiSyntaxError) p.fail(syntax.exprExpected('literal'), err.position)
      throw err
    } finally {
      p.noPipe = saved
    }
    const literal = isConstant(value) && value.k !== 'array' && value.k !== 'map'
    const range = value.k === 'binary' && (value.op === '..' || value.op === '..=') && value.lhs.k === 'int' && value.rhs.k === 'int'
    if (!literal && !range) p.fail(syntax.exprExpected('a literal'), startPos(value))
    values.push(value)
    if (!p.match('|')) return values
  }
}

function parseTry(p: ParseContext, s: Settings): Stmt {
  const keyword = p.next()
  const settings = p.levelUp(s, positionOf(keyword))
  const body = parseBlock(p, settings)
  if (!p.match('catch')) p.failAt(syntax.missing('catch', "for the 'try' statement"), p.peek())
  let errorVar: string | null = null
  if (p.match('(')) {
    errorVar = parseVarName(p).name
    if (!p.match(')')) p.failAt(syntax.missing(')', 'to enclose the catch variable'), p.peek())
    p.declare(errorVar, false)
  }
  const handler = parseBlock(p, settings)
  if (errorVar !== null) p.scope.stack.pop()
  return { k: 'try', body, errorVar, handler, pos: settings.pos }
}

function parseFnDefinition(p: ParseContext, s: Settings): Stmt {
  const first = p.peek()
  if (first.kind === 'private') {
    p.next()
    if (p.peek().kind !== 'fn') p.failAt(syntax.missing('fn', "following 'private'"), p.peek())
  }
  const fnToken = p.next()
  const fnPos = positionOf(fnToken)
  if (!s.global) p.failAt(syntax.wrongFnDefinition(), first)
  p.checkFunctionCount(fnPos)
  const outer = p.scope
  p.scope = { stack: [], captures: null, allowCapture: true }
  const settings = p.levelUp({ level: 0, pos: fnPos, maxDepth: p.limits.maxFunctionExprDepth, global: false, fnScope: true, breakable: false })
  const nameToken = p.next()
  if (nameToken.kind === 'reserved') p.failAt(syntax.reserved(nameToken.text), nameToken)
  if (nameToken.kind !== 'ident') p.failAt(syntax.fnMissingName(), nameToken)
  const name = nameToken.text
  const params: string[] = []
  const open = p.peek()
  let noParams = false
  if (open.kind === '(') {
    p.next()
    noParams = p.match(')')
  } else if (open.kind === '()') {
    p.next()
    noParams = true
  } else {
    p.failAt(syntax.fnMissingParams(name), open)
  }
  while (!noParams) {
    const t = p.next()
    if (t.kind === ')') break
    if (t.kind === 'ident') {
      if (params.includes(t.text)) p.failAt(syntax.fnDuplicatedParam(name, t.text), t)
      params.push(t.text)
      p.declare(t.text, false)
    } else if (t.kind === 'reserved') {
      p.failAt(syntax.reserved(t.text), t)
    } else if (isKeyword(t.kind)) {
      p.failAt(syntax.variableExpected(), t)
    } else {
      p.failAt(syntax.missing(')', `to close the parameters list of function '${name}'`), t)
    }
    const sep = p.next()
    if (sep.kind === ')') break
    if (sep.kind !== ',') p.failAt(syntax.missing(',', `to separate the parameters of function '${name}'`), sep)
  }
  if (p.peek().kind !== '{') p.failAt(syntax.fnMissingBody(name), p.peek())
  const body = parseBlock(p, settings)
  p.scope = outer
  const def: FnDef = { name, params, body, anonymous: false, pos: fnPos }
  p.addFunction(def)
  return { k: 'noop', pos: fnPos }
}
