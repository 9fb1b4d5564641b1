/**
 * Array built-ins of Rhai's array package. Arrays are modified in place; stored items are copies. Callbacks
 * (`map`, `filter`, `reduce`, `sort`...) take a function pointer or a function name, and receive the item's
 * index as an extra argument when they declare a parameter for it, as in Rhai.
 */
import { runtime, systemError } from '../errors.js'
import { display } from '../format.js'
import { RChar, compareCodePoints, own, typeName, valuesEqual, type Value } from '../values.js'
import { clampLength, clampStart, isCallable, isInt, isStr, resolveIndex, type Getter, type Native, type NativeCall } from './native.js'

function method(f: (call: NativeCall, a: Value[], rest: (Value | undefined)[]) => Value | undefined): Native {
  return (call) => {
    const [a, ...rest] = call.args
    return Array.isArray(a) ? f(call, a, rest) : undefined
  }
}

/** Call a callback with the item, and its index when the callback wants one. */
function callItem(call: NativeCall, fn: Value, args: Value[], index: number): Value {
  const arity = call.ctx.arity(fn)
  return call.ctx.callFn(fn, arity !== null && arity > args.length ? [...args, BigInt(index)] : args)
}

const truthy = (v: Value) => v === true

function growCheck(call: NativeCall, a: Value[]): Value[] {
  if (a.length > call.ctx.budget.limits.maxArraySize) throw systemError(runtime.dataTooLarge('Size of array/BLOB'))
  return a
}

/** Default ordering of `sort()`: numbers, strings, characters, booleans; other types by type name. */
function defaultOrder(x: Value, y: Value): number {
  if ((typeof x === 'bigint' || typeof x === 'number') && (typeof y === 'bigint' || typeof y === 'number')) return x < y ? -1 : x > y ? 1 : 0
  if (typeof x === 'string' && typeof y === 'string') return compareCodePoints(x, y)
  if (x instanceof RChar && y instanceof RChar) return compareCodePoints(x.c, y.c)
  if (typeof x === 'boolean' && typeof y === 'boolean') return Number(x) - Number(y)
  return compareCodePoints(typeName(x), typeName(y))
}

/** Start and count of a portion (`extract`, `drain`, `retain`, `splice`). */
function portion(length: number, start: bigint, len: bigint): [number, number] {
  const from = clampStart(length, start)
  return [from, clampLength(len, length - from)]
}

export const arrayNatives: Record<string, Native> = {
  push: method((call, a, [item, ...rest]) => {
    if (rest.length > 0 || item === undefined) return undefined
    a.push(own(item))
    call.ctx.budget.checkSize(growCheck(call, a))
    return null
  }),
  append: method((call, a, [other, ...rest]) => {
    if (rest.length > 0 || other === undefined) return undefined
    if (Array.isArray(other)) a.push(...other.map(own))
    else a.push(own(other))
    call.ctx.budget.checkSize(growCheck(call, a))
    return null
  }),
  insert: method((call, a, [pos, item, ...rest]) => {
    if (rest.length > 0 || !isInt(pos) || item === undefined) return undefined
    const at = pos < 0n ? clampStart(a.length, pos) : pos >= BigInt(a.length) ? a.length : Number(pos)
    a.splice(at, 0, own(item))
    call.ctx.budget.checkSize(growCheck(call, a))
    return null
  }),
  pop: method((_, a, rest) => (rest.length === 0 ? (a.pop() ?? null) : undefined)),
  shift: method((_, a, rest) => (rest.length === 0 ? (a.shift() ?? null) : undefined)),
  remove: method((_, a, [index, ...rest]) => {
    if (rest.length > 0 || !isInt(index)) return undefined
    const i = resolveIndex(a.length, index)
    return i === null ? null : a.splice(i, 1)[0]!
  }),
  extract: method((_, a, [start, len, ...rest]) => {
    if (rest.length > 0 || !isInt(start) || (len !== undefined && !isInt(len))) return undefined
    const [from, count] = portion(a.length, start, len ?? BigInt(a.length))
    return a.slice(from, from + count).map(own)
  }),
  truncate: method((_, a, [len, ...rest]) => {
    if (rest.length > 0 || !isInt(len)) return undefined
    a.length = clampLength(len, a.length)
    return null
  }),
  chop: method((_, a, [len, ...rest]) => {
    if (rest.length > 0 || !isInt(len)) return undefined
    a.splice(0, a.length - clampLength(len, a.length))
    return null
  }),
  clear: method((_, a, rest) => {
    if (rest.length > 0) return undefined
    a.length = 0
    return null
  }),
  reverse: method((_, a, rest) => {
    if (rest.length > 0) return undefined
    a.reverse()
    return null
  }),
  pad: method((call, a, [len, item, ...rest]) => {
    if (rest.length > 0 || !isInt(len) || item === undefined) return undefined
    if (len > BigInt(call.ctx.budget.limits.maxArraySize)) throw systemError(runtime.dataTooLarge('Size of array/BLOB'))
    while (BigInt(a.length) < len) {
      a.push(own(item))
      call.ctx.budget.charge(1)
    }
    call.ctx.budget.checkSize(a)
    return null
  }),
  index_of: method((call, a, [find, start, ...rest]) => {
    if (rest.length > 0 || find === undefined || (start !== undefined && !isInt(start))) return undefined
    const from = start === undefined ? 0 : clampStart(a.length, start)
    const byPredicate = isCallable(find) && !(isStr(find) && !call.ctx.hasFunction(find, 1) && !call.ctx.hasFunction(find, 2))
    for (let i = from; i < a.length; i++) {
      if (byPredicate ? truthy(callItem(call, find, [a[i]!], i)) : valuesEqual(a[i]!, find)) return BigInt(i)
    }
    return -1n
  }),
  filter: method((call, a, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return a.filter((item, i) => truthy(callItem(call, fn, [item], i))).map(own)
  }),
  map: method((call, a, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return a.map((item, i) => callItem(call, fn, [own(item)], i))
  }),
  reduce: method((call, a, [fn, init, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return a.reduce<Value>((acc, item, i) => callItem(call, fn, [acc, own(item)], i), init === undefined ? null : own(init))
  }),
  reduce_rev: method((call, a, [fn, init, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return a.reduceRight<Value>((acc, item, i) => callItem(call, fn, [acc, own(item)], i), init === undefined ? null : own(init))
  }),
  some: method((call, a, [fn, ...rest]) => (rest.length > 0 || fn === undefined || !isCallable(fn) ? undefined : a.some((item, i) => truthy(callItem(call, fn, [item], i))))),
  all: method((call, a, [fn, ...rest]) => (rest.length > 0 || fn === undefined || !isCallable(fn) ? undefined : a.every((item, i) => truthy(callItem(call, fn, [item], i))))),
  none: method((call, a, [fn, ...rest]) => (rest.length > 0 || fn === undefined || !isCallable(fn) ? undefined : !a.some((item, i) => truthy(callItem(call, fn, [item], i))))),
  find: method((call, a, [fn, start, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn) || (start !== undefined && !isInt(start))) return undefined
    for (let i = start === undefined ? 0 : clampStart(a.length, start); i < a.length; i++) if (truthy(callItem(call, fn, [a[i]!], i))) return own(a[i]!)
    return null
  }),
  find_map: method((call, a, [fn, start, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn) || (start !== undefined && !isInt(start))) return undefined
    for (let i = start === undefined ? 0 : clampStart(a.length, start); i < a.length; i++) {
      const r = callItem(call, fn, [a[i]!], i)
      if (r !== null) return r
    }
    return null
  }),
  sort: method((call, a, [fn, ...rest]) => {
    if (rest.length > 0) return undefined
    call.ctx.budget.charge(a.length * Math.max(1, Math.ceil(Math.log2(a.length + 1))))
    if (fn === undefined) a.sort(defaultOrder)
    else if (isCallable(fn)) a.sort((x, y) => {
      const r = call.ctx.callFn(fn, [x, y])
      return typeof r === 'bigint' ? (r < 0n ? -1 : r > 0n ? 1 : 0) : 0
    })
    else return undefined
    return null
  }),
  sort_desc: method((call, a, rest) => {
    if (rest.length > 0) return undefined
    a.sort((x, y) => defaultOrder(y, x))
    return null
  }),
  dedup: method((call, a, [fn, ...rest]) => {
    if (rest.length > 0 || (fn !== undefined && !isCallable(fn))) return undefined
    const kept: Value[] = []
    for (const item of a) {
      const last = kept[kept.length - 1]
      const same = kept.length > 0 && (fn === undefined ? valuesEqual(last!, item) : truthy(call.ctx.callFn(fn, [last!, item])))
      if (!same) kept.push(item)
    }
    a.splice(0, a.length, ...kept)
    return null
  }),
  retain: method((call, a, [fn, len, ...rest]) => keepOrDrain(call, a, fn, len, rest, true)),
  drain: method((call, a, [fn, len, ...rest]) => keepOrDrain(call, a, fn, len, rest, false)),
  splice: method((call, a, [start, len, replacement, ...rest]) => {
    if (rest.length > 0 || !isInt(start) || !isInt(len) || !Array.isArray(replacement)) return undefined
    const [from, count] = portion(a.length, start, len)
    a.splice(from, count, ...replacement.map(own))
    call.ctx.budget.checkSize(growCheck(call, a))
    return null
  }),
  split: method((_, a, [pos, ...rest]) => {
    if (rest.length > 0 || !isInt(pos)) return undefined
    const at = pos < 0n ? clampStart(a.length, pos) : pos >= BigInt(a.length) ? a.length : Number(pos)
    return a.splice(at)
  }),
  get: method((_, a, [index, ...rest]) => {
    if (rest.length > 0 || !isInt(index)) return undefined
    const i = resolveIndex(a.length, index)
    return i === null ? null : own(a[i]!)
  }),
  set: method((call, a, [index, value, ...rest]) => {
    if (rest.length > 0 || !isInt(index) || value === undefined) return undefined
    const i = resolveIndex(a.length, index)
    if (i !== null) a[i] = own(value)
    call.ctx.budget.checkSize(a)
    return null
  }),
  /** Not in Rhai's standard library (scripts there build strings with `reduce`); offered for convenience. */
  join: method((call, a, [sep, ...rest]) => {
    if (rest.length > 0 || (sep !== undefined && !isStr(sep))) return undefined
    const out = a.map(display).join(sep ?? '')
    call.ctx.budget.charge(out.length)
    call.ctx.budget.checkSize(out)
    return out
  }),
}

/** `retain`/`drain` with a predicate, or with a start position and a count. */
function keepOrDrain(call: NativeCall, a: Value[], fn: Value | undefined, len: Value | undefined, rest: unknown[], retain: boolean): Value | undefined {
  if (rest.length > 0 || fn === undefined) return undefined
  if (isInt(fn) && isInt(len)) {
    const [from, count] = portion(a.length, fn, len)
    if (!retain) return a.splice(from, count)
    const kept = a.slice(from, from + count)
    const removed = [...a.slice(0, from), ...a.slice(from + count)]
    a.splice(0, a.length, ...kept)
    return removed
  }
  if (len !== undefined || !isCallable(fn)) return undefined
  const kept: Value[] = []
  const removed: Value[] = []
  a.forEach((item, i) => {
    const hit = truthy(callItem(call, fn, [item], i))
    ;(hit === retain ? kept : removed).push(item)
  })
  a.splice(0, a.length, ...kept)
  return removed
}

export const arrayGetters: Record<string, Getter> = {
  len: (a) => BigInt((a as Value[]).length),
  is_empty: (a) => (a as Value[]).length === 0,
}
