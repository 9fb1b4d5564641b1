/**
 * Rhai values in JavaScript.
 *
 * | Rhai      | here                       | why                                                           |
 * |-----------|----------------------------|---------------------------------------------------------------|
 * | `()`      | `null`                     | maps to JSON `null` both ways, as serde does                  |
 * | `bool`    | `boolean`                  |                                                               |
 * | `INT`     | `bigint`                   | i64 exactly: overflow is checked against i64 bounds, never lost to a float; `number` stays free for FLOAT |
 * | `FLOAT`   | `number`                   | f64                                                           |
 * | string    | `string`                   | lengths and indexes count Unicode characters, as Rhai does    |
 * | `char`    | `RChar`                    | one Unicode character, distinct from a one-character string  |
 * | array     | `Value[]`                  |                                                               |
 * | map       | `Map<string, Value>`       | keys are listed and serialized in Rhai's (BTreeMap) order     |
 * | `Fn`      | `FnPtr`                    | a function name, curried arguments and captured variables    |
 * | range     | `RRange`                   | `a..b` / `a..=b` over INT                                     |
 *
 * Rhai values are copied on assignment: arrays and maps are cloned (`own`) when stored into a variable, a
 * property, an element or an argument, and mutated in place only through the place that holds them.
 */
export class RChar {
  constructor(readonly c: string) {}
}

export class RRange {
  constructor(readonly start: bigint, readonly end: bigint, readonly inclusive: boolean, readonly step: bigint = 1n) {}

  /** The integers of the range, in order (an empty list when the step points away from the end). */
  *values(): Generator<bigint> {
    const last = this.inclusive ? this.end : this.step > 0n ? this.end - 1n : this.end + 1n
    if (this.step > 0n) for (let i = this.start; i <= last; i += this.step) yield i
    else for (let i = this.start; i >= last; i += this.step) yield i
  }

  contains(x: bigint): boolean {
    return x >= this.start && (this.inclusive ? x <= this.end : x < this.end)
  }
}

/** A binding shared between a scope and the closures that captured it. */
export interface Binding {
  name: string
  value: Value
  constant: boolean
}

export class FnPtr {
  constructor(
    readonly name: string,
    readonly curry: Value[] = [],
    /** Variables captured by a closure, shared with the scope they came from. */
    readonly captured: Binding[] = [],
  ) {}
}

export type RArray = Value[]
export type RMap = Map<string, Value>
export type Value = null | boolean | bigint | number | string | RChar | RArray | RMap | FnPtr | RRange

export const INT_MIN = -(2n ** 63n)
export const INT_MAX = 2n ** 63n - 1n

export function isMap(v: Value): v is RMap {
  return v instanceof Map
}

export function typeName(v: Value): string {
  if (v === null) return '()'
  switch (typeof v) {
    case 'boolean': return 'bool'
    case 'bigint': return 'i64'
    case 'number': return 'f64'
    case 'string': return 'string'
  }
  if (Array.isArray(v)) return 'array'
  if (v instanceof Map) return 'map'
  if (v instanceof RChar) return 'char'
  if (v instanceof FnPtr) return 'Fn'
  return v.inclusive ? 'range=' : 'range'
}

/** The type as Rhai prints it in a function signature (`Function not found: f (i64, ...)`). */
export function signatureType(v: Value): string {
  return typeof v === 'string' ? '&str | ImmutableString | String' : typeName(v)
}

/** A copy that shares nothing mutable with the original (Rhai's value semantics). */
export function own(v: Value): Value {
  if (Array.isArray(v)) return v.map(own)
  if (v instanceof Map) {
    const copy: RMap = new Map()
    for (const [k, x] of v) copy.set(k, own(x))
    return copy
  }
  return v
}

/** Rhai's `==` between values of any types (different types are unequal; INT and FLOAT compare as numbers). */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b)
  if (a instanceof RChar && b instanceof RChar) return a.c === b.c
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]!))
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false
    for (const [k, x] of a) if (!b.has(k) || !valuesEqual(x, b.get(k)!)) return false
    return true
  }
  if (a instanceof RRange && b instanceof RRange) return a.start === b.start && a.end === b.end && a.inclusive === b.inclusive
  if (a instanceof FnPtr && b instanceof FnPtr) return a.name === b.name && a.curry.length === 0 && b.curry.length === 0
  return false
}

/** Exact equality for `switch`: same type and same value (`1` does not match `1.0`). */
export function sameValue(a: Value, b: Value): boolean {
  return typeName(a) === typeName(b) && valuesEqual(a, b)
}

/** Compare strings by Unicode code point, the order of Rust's `str` and of `BTreeMap` keys. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // Surrogates (astral characters) sort after every BMP character in code point order.
    const xs = x >= 0xd800 && x <= 0xdfff
    const ys = y >= 0xd800 && y <= 0xdfff
    if (xs !== ys) return xs ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/** Map keys in Rhai's order. */
export function sortedKeys(m: RMap): string[] {
  return [...m.keys()].sort(compareCodePoints)
}

const ASCII = /^[\x00-\x7f]*$/

/** Number of Unicode characters (Rhai's string length). */
export function charLength(s: string): number {
  if (ASCII.test(s)) return s.length
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xd800 || c > 0xdbff) n++
  }
  return n
}

/** The characters of a string (code points). */
export function charsOf(s: string): string[] {
  return ASCII.test(s) ? s.split('') : Array.from(s)
}

/** UTF-8 length, which Rhai's string size limit counts. */
export function utf8Length(s: string): number {
  if (ASCII.test(s)) return s.length
  return Buffer.byteLength(s, 'utf8')
}
