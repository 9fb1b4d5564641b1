/**
 * Property, index and method chains (`doc.a.b`, `doc.tags[0]`, `doc.title.trim()`), read and assigned.
 *
 * A chain starts at a variable (or `this`, or any expression for a read). Arrays and maps are walked by
 * reference, so assignments and mutating methods change them in place; strings and integers are values, so a
 * change to one (`s[0] = 'x'`, `doc.title.trim()`) is written back up the chain to the variable. As in Rhai,
 * reading a missing map property gives `()`, assigning one creates it, and `?.` / `?[` stop at `()`.
 */
import { fnKey, type Expr, type Step } from './ast.js'
import { getterFor, nativeOverloads } from './builtins/index.js'
import { resolveIndex } from './builtins/native.js'
import { runtime, runtimeError, type Position } from './errors.js'
import type { Interpreter, ThisRef } from './interpreter.js'
import { compound, notFound } from './operators.js'
import { FnPtr, RChar, RRange, charLength, charsOf, own, typeName, type Binding, type Value } from './values.js'

type ChainExpr = Extract<Expr, { k: 'chain' }>

/** Where the chain's first value lives. */
interface Root {
  get(): Value
  set(value: Value): void
  /** The constant variable it is, if any. */
  constantName: string | null
}

/** Methods that modify their object: refused on constants, as Rhai refuses non-pure methods there. */
const MUTATING = new Set([
  'push', 'append', 'insert', 'pop', 'shift', 'remove', 'truncate', 'chop', 'clear', 'reverse', 'pad', 'sort', 'sort_desc',
  'dedup', 'retain', 'drain', 'splice', 'set', 'trim', 'replace', 'crop', 'make_upper', 'make_lower', 'mixin', 'fill_with',
])

function rootOf(it: Interpreter, chain: ChainExpr, forWrite: boolean): Root {
  const root = chain.root
  if (root.k === 'var') {
    const binding: Binding | undefined = it.findBinding(root.name)
    if (binding === undefined) {
      if (forWrite) throw runtimeError(runtime.variableNotFound(root.name), root.pos)
      const value = it.eval(root)
      return { get: () => value, set: () => {}, constantName: null }
    }
    return { get: () => binding.value, set: (v) => { binding.value = v }, constantName: binding.constant ? binding.name : null }
  }
  if (root.k === 'this') {
    const ref = it.thisRef
    if (ref === null) throw runtimeError(runtime.unboundThis(), root.pos)
    return { get: () => ref.value, set: (v) => { ref.value = v }, constantName: null }
  }
  let value = it.eval(root)
  return { get: () => value, set: (v) => { value = v }, constantName: null }
}

export function evalChain(it: Interpreter, chain: ChainExpr): Value {
  it.budget.tick(chain.pos)
  const root = rootOf(it, chain, false)
  let current = root.get()
  const trail: Trail = []
  for (const step of chain.steps) {
    if (step.optional && current === null) return null
    it.budget.tick(step.pos)
    let next: Value
    let index: Value = null
    if (step.k === 'prop') next = readProperty(current, step.name, step.pos)
    else if (step.k === 'index') next = readIndex(current, (index = it.eval(step.index)), step.pos)
    else {
      const args = step.args.map((a) => own(it.eval(a)))
      const outcome = callMethod(it, current, step.name, args, step.pos, root.constantName)
      if (outcome.newThis !== undefined && outcome.newThis !== current) writeBack(trail, root, outcome.newThis)
      next = outcome.result
    }
    trail.push({ container: current, step, index })
    current = next
  }
  return current
}

type Trail = { container: Value; step: Step; index: Value }[]

/** Store a changed value back into its container, and the container into its own while it is a value type. */
function writeBack(trail: Trail, root: Root, value: Value): void {
  let next = value
  for (let i = trail.length - 1; i >= 0; i--) {
    const { container, step, index } = trail[i]!
    const updated = writeStep(container, step, index, next, true)
    if (updated === container) return
    next = updated
  }
  root.set(next)
}

export function assignChain(it: Interpreter, chain: ChainExpr, op: string | null, value: Value, pos: Position): void {
  it.budget.tick(chain.pos)
  const root = rootOf(it, chain, true)
  if (root.constantName !== null) throw runtimeError(runtime.assignToConstant(root.constantName), chain.root.pos)
  const indexes = chain.steps.map((step) => (step.k === 'index' ? it.eval(step.index) : null))
  const before = root.get()
  const after = setIn(it, before, chain.steps, indexes, 0, op, value, pos)
  if (after !== before) root.set(after)
  if (Array.isArray(value) || value instanceof Map) it.sized(root.get(), pos)
}

function setIn(it: Interpreter, target: Value, steps: Step[], indexes: Value[], i: number, op: string | null, value: Value, pos: Position): Value {
  const step = steps[i]!
  if (step.optional && target === null) return target
  const index = indexes[i]!
  if (i === steps.length - 1) {
    const next = op === null ? own(value) : it.withPosition(pos, () => compound(op, readForWrite(target, step, index), own(value)))
    return writeStep(target, step, index, it.sized(next, pos), false, it)
  }
  const child = readForWrite(target, step, index)
  const updated = setIn(it, child, steps, indexes, i + 1, op, value, pos)
  return updated === child ? target : writeStep(target, step, index, updated, false, it)
}

function readForWrite(target: Value, step: Step, index: Value): Value {
  if (step.k === 'prop') return readProperty(target, step.name, step.pos)
  if (step.k === 'index') return readIndex(target, index, step.pos)
  throw runtimeError(runtime.assignToConstant(''), step.pos)
}

function readProperty(target: Value, name: string, pos: Position): Value {
  if (target instanceof Map) return target.get(name) ?? null
  const getter = getterFor(target, name)
  if (getter !== undefined) {
    const value = getter(target)
    if (value !== undefined) return value
  }
  throw runtimeError(runtime.unknownProperty(name, typeName(target)), pos)
}

function readIndex(target: Value, index: Value, pos: Position): Value {
  if (Array.isArray(target)) {
    if (typeof index !== 'bigint') throw runtimeError(runtime.mismatch(typeName(index), 'i64'), pos)
    const i = resolveIndex(target.length, index)
    if (i === null) throw runtimeError(runtime.arrayBounds(target.length, index), pos)
    return target[i]!
  }
  if (target instanceof Map) {
    if (typeof index !== 'string') throw runtimeError(runtime.mismatch(typeName(index), 'string'), pos)
    return target.get(index) ?? null
  }
  if (typeof target === 'string') {
    if (index instanceof RRange) return charsOf(target).slice(Number(index.start), Number(index.inclusive ? index.end + 1n : index.end)).join('')
    if (typeof index !== 'bigint') throw runtimeError(runtime.mismatch(typeName(index), 'i64'), pos)
    const chars = charsOf(target)
    const i = resolveIndex(chars.length, index)
    if (i === null) throw runtimeError(runtime.stringBounds(chars.length, index), pos)
    return new RChar(chars[i]!)
  }
  if (typeof target === 'bigint') {
    if (typeof index !== 'bigint') throw runtimeError(runtime.mismatch(typeName(index), 'i64'), pos)
    const bit = resolveIndex(64, index)
    if (bit === null) throw runtimeError(runtime.bitBounds(index), pos)
    return ((BigInt.asUintN(64, target) >> BigInt(bit)) & 1n) === 1n
  }
  throw runtimeError(runtime.indexingType(`${typeName(target)} [${typeName(index)}]`), pos)
}

/**
 * Put `value` at `step` in `target`; answers the target itself (arrays, maps: changed in place) or its new
 * value (strings, integers).
 */
function writeStep(target: Value, step: Step, key: Value, value: Value, fromMethod: boolean, it?: Interpreter): Value {
  if (step.k === 'method') return target
  if (step.k === 'prop') {
    if (target instanceof Map) {
      target.set(step.name, value)
      if (it && target.size > it.budget.limits.maxMapSize) it.sized(target, step.pos)
      return target
    }
    if (fromMethod) return target
    throw runtimeError(runtime.noSetter(step.name, typeName(target), typeName(value)), step.pos)
  }
  if (target instanceof Map && typeof key === 'string') {
    target.set(key, value)
    if (it && target.size > it.budget.limits.maxMapSize) it.sized(target, step.pos)
    return target
  }
  if (Array.isArray(target) && typeof key === 'bigint') {
    const i = resolveIndex(target.length, key)
    if (i === null) throw runtimeError(runtime.arrayBounds(target.length, key), step.pos)
    target[i] = value
    return target
  }
  if (typeof target === 'string' && typeof key === 'bigint') {
    if (!(value instanceof RChar)) throw runtimeError(runtime.mismatch(typeName(value), 'char'), step.pos)
    const chars = charsOf(target)
    const i = resolveIndex(chars.length, key)
    if (i === null) throw runtimeError(runtime.stringBounds(charLength(target), key), step.pos)
    chars[i] = value.c
    return chars.join('')
  }
  if (typeof target === 'bigint' && typeof key === 'bigint') {
    if (typeof value !== 'boolean') throw runtimeError(runtime.mismatch(typeName(value), 'bool'), step.pos)
    const bit = resolveIndex(64, key)
    if (bit === null) throw runtimeError(runtime.bitBounds(key), step.pos)
    const mask = 1n << BigInt(bit)
    return BigInt.asIntN(64, value ? target | mask : target & ~mask)
  }
  if (fromMethod) return target
  if (target instanceof Map || Array.isArray(target) || typeof target === 'string' || typeof target === 'bigint') readIndex(target, key, step.pos)
  throw runtimeError(runtime.indexingType(`${typeName(target)} [${typeName(key)}] = ${typeName(value)}`), step.pos)
}

/** `target.name(args)`: a script function in method style, a built-in, or a function pointer stored in a map. */
function callMethod(it: Interpreter, target: Value, name: string, args: Value[], pos: Position, constantName: string | null): { result: Value; newThis?: Value } {
  const def = it.program.functions.get(fnKey(name, args.length))
  if (def !== undefined) {
    const ref: ThisRef = { value: target }
    const result = it.callScript(def, args, [], pos, ref)
    return { result, newThis: ref.value }
  }
  if (name === 'call' && target instanceof FnPtr) return { result: it.withPosition(pos, () => it.callFn(target, args, pos)) }
  if (constantName !== null && MUTATING.has(name)) throw runtimeError(runtime.nonPureOnConstant(name), pos)
  const overloads = nativeOverloads(name)
  if (overloads !== undefined) {
    let newThis: Value | undefined
    const all = [target, ...args]
    const result = it.withPosition(pos, () => {
      for (const native of overloads) {
        const r = native({ ctx: it, args: all, setThis: (v) => { newThis = v } })
        if (r !== undefined) return r
      }
      return undefined
    })
    if (result !== undefined) return { result: it.sized(result, pos), newThis }
  }
  if (target instanceof Map && target.get(name) instanceof FnPtr) {
    const ref: ThisRef = { value: target }
    const fn = target.get(name) as FnPtr
    return { result: it.withPosition(pos, () => it.callFn(fn, args, pos, ref)) }
  }
  throw notFound(name, [target, ...args]).fillPosition(pos)
}
