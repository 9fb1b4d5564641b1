/**
 * The built-in function table: every name with its overloads (string, array, map, number and core
 * built-ins), and the property getters by type. A call tries the overloads of its name in turn; none taking
 * the arguments means "Function not found".
 */
import { RRange, typeName, valuesEqual, type Value } from '../values.js'
import { arrayGetters, arrayNatives } from './arrays.js'
import { coreGetters, coreNatives } from './core.js'
import { mapNatives } from './maps.js'
import { isInt, type Getter, type Native } from './native.js'
import { stringContains, stringGetters, stringNatives } from './strings.js'

export type { Native, NativeCall, NativeContext, Getter } from './native.js'

const shared: Record<string, Native> = {
  contains: ({ args: [target, item, ...rest] }) => {
    if (rest.length > 0 || item === undefined) return undefined
    if (typeof target === 'string') return stringContains(target, item)
    if (Array.isArray(target)) return target.some((x) => valuesEqual(x, item))
    if (target instanceof Map) return typeof item === 'string' ? target.has(item) : undefined
    if (target instanceof RRange && isInt(item)) return target.contains(item)
    return undefined
  },
  len: ({ args: [target, ...rest] }) => {
    if (rest.length > 0) return undefined
    if (Array.isArray(target)) return BigInt(target.length)
    return target instanceof Map ? BigInt(target.size) : undefined
  },
  is_empty: ({ args: [target, ...rest] }) => {
    if (rest.length > 0) return undefined
    if (typeof target === 'string') return target === ''
    if (Array.isArray(target)) return target.length === 0
    if (target instanceof Map) return target.size === 0
    return undefined
  },
}

const table = new Map<string, Native[]>()
for (const group of [shared, stringNatives, arrayNatives, mapNatives, coreNatives]) {
  for (const [name, fn] of Object.entries(group)) {
    const list = table.get(name)
    if (list) list.push(fn)
    else table.set(name, [fn])
  }
}

export function nativeOverloads(name: string): Native[] | undefined {
  return table.get(name)
}

const getters: Record<string, Record<string, Getter>> = { ...coreGetters, string: stringGetters, array: arrayGetters }

export function getterFor(target: Value, property: string): Getter | undefined {
  return getters[typeName(target)]?.[property]
}
