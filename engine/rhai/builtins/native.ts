/**
 * The shape of a built-in function: it receives the evaluated arguments (for a method call, the object first)
 * and answers a value, or `undefined` when no overload takes these argument types — the interpreter then
 * reports Rhai's "Function not found: name (types)". Mutating methods on strings, integers and characters
 * hand the new object back through `setThis`; arrays and maps are mutated in place.
 */
import type { Budget } from '../limits.js'
import { FnPtr, type Value } from '../values.js'

export interface NativeContext {
  budget: Budget
  /** Call a function pointer or a function name with arguments (callbacks of `map`, `filter`, `sort` ...). */
  callFn(fn: Value, args: Value[]): Value
  /** Parameters a callable takes beyond its curried ones, when known (to pass an index only to those that want it). */
  arity(fn: Value): number | null
  /** Is a script function with this name and arity defined? */
  hasFunction(name: string, arity: number): boolean
  print(text: string): void
}

export interface NativeCall {
  ctx: NativeContext
  args: Value[]
  /** Replace the object of a method call (for methods that modify strings, integers, characters in place). */
  setThis(value: Value): void
}

export type Native = (call: NativeCall) => Value | undefined

/** Property getters by type name (`s.len`, `x.is_odd`). */
export type Getter = (target: Value) => Value | undefined

export const isInt = (v: Value | undefined): v is bigint => typeof v === 'bigint'
export const isFloat = (v: Value | undefined): v is number => typeof v === 'number'
export const isStr = (v: Value | undefined): v is string => typeof v === 'string'
export const isArray = (v: Value | undefined): v is Value[] => Array.isArray(v)
export const isCallable = (v: Value): boolean => typeof v === 'string' || v instanceof FnPtr

/** Rhai's `calc_index`: a non-negative index, or a negative one counted from the end; null when outside. */
export function resolveIndex(length: number, index: bigint): number | null {
  if (index >= 0n) return index < BigInt(length) ? Number(index) : null
  const fromEnd = BigInt(length) + index
  return fromEnd >= 0n ? Number(fromEnd) : null
}

/** Rhai's start positions for slicing: negative counts from the end, clamped to the bounds. */
export function clampStart(length: number, start: bigint): number {
  if (start < 0n) {
    const fromEnd = BigInt(length) + start
    return fromEnd < 0n ? 0 : Number(fromEnd)
  }
  return start > BigInt(length) ? length : Number(start)
}

export function clampLength(len: bigint, available: number): number {
  if (len <= 0n) return 0
  return len > BigInt(available) ? available : Number(len)
}
