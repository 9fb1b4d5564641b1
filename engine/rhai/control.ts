/**
 * Loops, `switch` and `try`: how they run and how `break`, `continue` and `return` (kept in the interpreter's
 * `flow`, not thrown) leave them. A loop's value is its `break` value, `()` otherwise; `switch` tries exact
 * values, then ranges, then the default case; `try` catches every error but the limit errors.
 */
import type { Stmt } from './ast.js'
import { RhaiRuntimeError, runtime, runtimeError } from './errors.js'
import type { Interpreter } from './interpreter.js'
import { RChar, RRange, charsOf, own, sameValue, type Binding, type Value } from './values.js'

export const NONE = 0
export const BREAK = 1
export const CONTINUE = 2
export const RETURN = 3

/** After a loop body: whether to leave the loop, and the loop's value. */
function afterBody(it: Interpreter): 'next' | 'exit' {
  if (it.flow === CONTINUE) {
    it.flow = NONE
    return 'next'
  }
  return it.flow === NONE ? 'next' : 'exit'
}

function loopResult(it: Interpreter): Value {
  if (it.flow === BREAK) {
    it.flow = NONE
    return it.flowValue
  }
  return null
}

export function runWhile(it: Interpreter, s: Extract<Stmt, { k: 'while' }>): Value {
  for (;;) {
    it.budget.tick(s.body.pos)
    if (s.cond !== null && !it.condition(s.cond)) return null
    it.exec(s.body)
    if (afterBody(it) === 'exit') return loopResult(it)
  }
}

export function runDo(it: Interpreter, s: Extract<Stmt, { k: 'do' }>): Value {
  for (;;) {
    it.budget.tick(s.body.pos)
    it.exec(s.body)
    if (afterBody(it) === 'exit') return loopResult(it)
    if (it.condition(s.cond) === s.until) return null
  }
}

export function runFor(it: Interpreter, s: Extract<Stmt, { k: 'for' }>): Value {
  const source = it.eval(s.iterable)
  let items: Iterable<Value>
  if (Array.isArray(source)) items = source.slice()
  else if (typeof source === 'string') items = charsOf(source).map((c) => new RChar(c))
  else if (source instanceof RRange) items = source.values()
  else throw runtimeError(runtime.forNotIterable(), s.iterable.pos)
  const mark = it.scope.length
  const counter: Binding | null = s.counter === null ? null : { name: s.counter, value: 0n, constant: false }
  if (counter) it.scope.push(counter)
  const item: Binding = { name: s.name, value: null, constant: false }
  it.scope.push(item)
  let index = 0n
  let result: Value = null
  for (const value of items) {
    it.budget.tick(s.body.pos)
    item.value = own(value)
    if (counter) counter.value = index
    index++
    it.exec(s.body)
    if (afterBody(it) === 'exit') {
      result = loopResult(it)
      break
    }
  }
  it.scope.length = mark
  return result
}

export function runSwitch(it: Interpreter, s: Extract<Stmt, { k: 'switch' }>): Value {
  const subject = it.eval(s.subject)
  // Exact values first, then ranges, then the default case.
  for (const ranges of [false, true]) {
    for (const c of s.cases) {
      for (const valueExpr of c.values) {
        const isRange = valueExpr.k === 'binary'
        if (isRange !== ranges) continue
        const value = it.eval(valueExpr)
        const hit = value instanceof RRange ? typeof subject === 'bigint' && value.contains(subject) : sameValue(subject, value)
        if (hit && (c.condition === null || it.condition(c.condition))) return it.exec(c.body)
      }
    }
  }
  return s.defaultCase === null ? null : it.exec(s.defaultCase)
}

export function runTry(it: Interpreter, s: Extract<Stmt, { k: 'try' }>): Value {
  const mark = it.scope.length
  const level = it.budget.level
  const saved = { scope: it.scope, thisRef: it.thisRef }
  try {
    return it.exec(s.body)
  } catch (err) {
    if (!(err instanceof RhaiRuntimeError) || err.kind === 'system') throw err
    it.scope = saved.scope
    it.thisRef = saved.thisRef
    it.scope.length = mark
    it.budget.level = level
    it.flow = NONE
    if (s.errorVar !== null) it.scope.push({ name: s.errorVar, value: err.kind === 'thrown' ? (err.thrown as Value) : err.message, constant: false })
    const value = it.exec(s.handler)
    it.scope.length = mark
    return value
  }
}
