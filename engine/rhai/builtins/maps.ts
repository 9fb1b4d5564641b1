/**
 * Object map built-ins of Rhai's map package. Keys are listed in Rhai's order (a BTreeMap's: by code point).
 */
import { runtime, systemError } from '../errors.js'
import { jsonText } from '../json.js'
import { own, sortedKeys, type RMap, type Value } from '../values.js'
import { isCallable, isStr, type Native, type NativeCall } from './native.js'

function method(f: (call: NativeCall, m: RMap, rest: (Value | undefined)[]) => Value | undefined): Native {
  return (call) => {
    const [m, ...rest] = call.args
    return m instanceof Map ? f(call, m, rest) : undefined
  }
}

function growCheck(call: NativeCall, m: RMap): void {
  if (m.size > call.ctx.budget.limits.maxMapSize) throw systemError(runtime.dataTooLarge('Size of object map'))
  call.ctx.budget.checkSize(m)
}

const truthy = (v: Value) => v === true

/** Entries split by a `(key, value)` predicate: those that pass, those that do not. */
function partition(call: NativeCall, m: RMap, fn: Value): [string[], string[]] {
  const pass: string[] = []
  const fail: string[] = []
  for (const key of sortedKeys(m)) (truthy(call.ctx.callFn(fn, [key, own(m.get(key)!)])) ? pass : fail).push(key)
  return [pass, fail]
}

function pick(m: RMap, keys: string[]): RMap {
  return new Map(keys.map((k) => [k, m.get(k)!]))
}

export const mapNatives: Record<string, Native> = {
  keys: method((_, m, rest) => (rest.length === 0 ? sortedKeys(m) : undefined)),
  values: method((_, m, rest) => (rest.length === 0 ? sortedKeys(m).map((k) => own(m.get(k)!)) : undefined)),
  get: method((_, m, [key, ...rest]) => (rest.length === 0 && isStr(key) ? own(m.get(key) ?? null) : undefined)),
  set: method((call, m, [key, value, ...rest]) => {
    if (rest.length > 0 || !isStr(key) || value === undefined) return undefined
    m.set(key, own(value))
    growCheck(call, m)
    return null
  }),
  remove: method((_, m, [key, ...rest]) => {
    if (rest.length > 0 || !isStr(key)) return undefined
    const value = m.get(key)
    m.delete(key)
    return value ?? null
  }),
  clear: method((_, m, rest) => {
    if (rest.length > 0) return undefined
    m.clear()
    return null
  }),
  mixin: method((call, m, [other, ...rest]) => {
    if (rest.length > 0 || !(other instanceof Map)) return undefined
    for (const [k, v] of other) m.set(k, own(v))
    growCheck(call, m)
    return null
  }),
  fill_with: method((call, m, [other, ...rest]) => {
    if (rest.length > 0 || !(other instanceof Map)) return undefined
    for (const [k, v] of other) if (!m.has(k)) m.set(k, own(v))
    growCheck(call, m)
    return null
  }),
  filter: method((call, m, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return own(pick(m, partition(call, m, fn)[0]))
  }),
  retain: method((call, m, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    const [, removed] = partition(call, m, fn)
    const out = pick(m, removed)
    for (const k of removed) m.delete(k)
    return out
  }),
  drain: method((call, m, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    const [removed] = partition(call, m, fn)
    const out = pick(m, removed)
    for (const k of removed) m.delete(k)
    return out
  }),
  map: method((call, m, [fn, ...rest]) => {
    if (rest.length > 0 || fn === undefined || !isCallable(fn)) return undefined
    return new Map(sortedKeys(m).map((k) => [k, call.ctx.callFn(fn, [k, own(m.get(k)!)])]))
  }),
  to_json: method((call, m, rest) => {
    if (rest.length > 0) return undefined
    const text = jsonText(m)
    call.ctx.budget.charge(text.length)
    return text
  }),
}
