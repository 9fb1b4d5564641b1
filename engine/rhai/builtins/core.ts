/**
 * Built-ins for any value and for numbers: `type_of`, the `is_*` checks, `print`/`debug`, `to_string`,
 * `to_debug`, conversions (`to_int`, `to_float`, `parse_int`, `parse_float`, `to_char`), `range`, function
 * pointers (`Fn`, `call`, `curry`, `is_def_fn`), and the math functions of Rhai's arithmetic and math packages.
 */
import { runtimeError } from '../errors.js'
import { debug, display } from '../format.js'
import { FnPtr, INT_MAX, INT_MIN, RChar, RRange, typeName, type Value } from '../values.js'
import { isFloat, isInt, isStr, type Getter, type Native } from './native.js'

const arithmetic = (message: string) => runtimeError(message)

function parseInteger(text: string, radix: bigint): bigint {
  if (radix < 2n || radix > 36n) throw arithmetic(`Invalid radix: '${radix}'`)
  const s = text.trim()
  const fail = (why: string) => arithmetic(`Error parsing integer number '${text}': ${why}`)
  if (s === '') throw fail('cannot parse integer from empty string')
  const negative = s.startsWith('-')
  const digits = s.startsWith('-') || s.startsWith('+') ? s.slice(1) : s
  if (digits === '') throw fail('invalid digit found in string')
  let value = 0n
  const r = BigInt(radix)
  for (const ch of digits.toLowerCase()) {
    const d = parseInt(ch, Number(radix))
    if (Number.isNaN(d)) throw fail('invalid digit found in string')
    value = value * r + BigInt(d)
  }
  if (negative) value = -value
  if (value > INT_MAX) throw fail('number too large to fit in target type')
  if (value < INT_MIN) throw fail('number too small to fit in target type')
  return value
}

function parseFloatText(text: string): number {
  const s = text.trim()
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity
  if (/^[+-]?nan$/i.test(s)) return NaN
  if (!/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(s)) {
    throw arithmetic(`Error parsing floating-point number '${text}': ${s === '' ? 'cannot parse float from empty string' : 'invalid float literal'}`)
  }
  return Number(s)
}

function floatToInt(x: number): bigint {
  if (Number.isNaN(x)) return 0n
  if (Math.abs(x) > Number(INT_MAX)) throw arithmetic(`Integer overflow: to_int(${display(x)})`)
  const value = BigInt(Math.trunc(x))
  return value > INT_MAX ? INT_MAX : value
}

const TYPE_CHECKS: Record<string, (v: Value) => boolean> = {
  is_string: isStr,
  is_int: isInt,
  is_float: isFloat,
  is_bool: (v) => typeof v === 'boolean',
  is_char: (v) => v instanceof RChar,
  is_array: (v) => Array.isArray(v),
  is_map: (v) => v instanceof Map,
  is_unit: (v) => v === null,
  is_fn: (v) => v instanceof FnPtr,
}

const floatFn = (f: (x: number) => Value): Native => ({ args: [x] }) => (isFloat(x) ? f(x) : isInt(x) ? f(Number(x)) : undefined)

export const coreNatives: Record<string, Native> = {
  type_of: ({ args }) => (args.length === 1 ? typeName(args[0]!) : undefined),
  print: ({ args, ctx }) => {
    if (args.length !== 1) return undefined
    ctx.print(display(args[0]!))
    return null
  },
  debug: ({ args, ctx }) => {
    if (args.length !== 1) return undefined
    ctx.print(debug(args[0]!))
    return null
  },
  to_string: ({ args }) => (args.length === 1 ? display(args[0]!) : undefined),
  to_debug: ({ args }) => (args.length === 1 ? debug(args[0]!) : undefined),
  ...Object.fromEntries(Object.entries(TYPE_CHECKS).map(([name, check]) => [name, ({ args }: { args: Value[] }) => (args.length === 1 ? check(args[0]!) : undefined)])),
  to_int: ({ args: [x, ...rest] }) => {
    if (rest.length > 0) return undefined
    if (isInt(x)) return x
    if (isFloat(x)) return floatToInt(x)
    if (x instanceof RChar) return BigInt(x.c.codePointAt(0)!)
    return undefined
  },
  to_float: ({ args: [x, ...rest] }) => (rest.length > 0 ? undefined : isInt(x) ? Number(x) : isFloat(x) ? x : undefined),
  to_char: ({ args: [x, ...rest] }) => {
    if (rest.length > 0 || !isInt(x)) return undefined
    if (x < 0n || x > 0x10ffffn || (x >= 0xd800n && x <= 0xdfffn)) throw arithmetic(`Invalid character: ${x}`)
    return new RChar(String.fromCodePoint(Number(x)))
  },
  parse_int: ({ args: [s, radix, ...rest] }) => {
    if (rest.length > 0 || !isStr(s) || (radix !== undefined && !isInt(radix))) return undefined
    return parseInteger(s, radix ?? 10n)
  },
  parse_float: ({ args: [s, ...rest] }) => (rest.length === 0 && isStr(s) ? parseFloatText(s) : undefined),
  range: ({ args: [a, b, step, ...rest] }) => {
    if (rest.length > 0 || !isInt(a) || !isInt(b) || (step !== undefined && !isInt(step))) return undefined
    if (step === 0n) throw arithmetic('step value cannot be zero')
    return new RRange(a, b, false, step ?? 1n)
  },
  abs: ({ args: [x] }) => {
    if (isInt(x)) {
      if (x === INT_MIN) throw arithmetic(`Negation overflow: -${x}`)
      return x < 0n ? -x : x
    }
    return isFloat(x) ? Math.abs(x) : undefined
  },
  sign: ({ args: [x] }) => {
    if (isInt(x)) return x > 0n ? 1n : x < 0n ? -1n : 0n
    if (!isFloat(x)) return undefined
    if (Number.isNaN(x)) throw arithmetic('Sign of NaN is undefined')
    return x > 0 ? 1n : x < 0 ? -1n : 0n
  },
  min: ({ args: [a, b] }) => numericPick(a, b, (x, y) => x <= y),
  max: ({ args: [a, b] }) => numericPick(a, b, (x, y) => x >= y),
  is_odd: ({ args: [x] }) => (isInt(x) ? x % 2n !== 0n : undefined),
  is_even: ({ args: [x] }) => (isInt(x) ? x % 2n === 0n : undefined),
  is_zero: ({ args: [x] }) => (isInt(x) ? x === 0n : isFloat(x) ? x === 0 : undefined),
  floor: floatFn(Math.floor),
  ceiling: floatFn(Math.ceil),
  round: floatFn((x) => (x < 0 ? -Math.round(-x) : Math.round(x))),
  int: floatFn(Math.trunc),
  fraction: floatFn((x) => x - Math.trunc(x)),
  sqrt: floatFn(Math.sqrt),
  exp: floatFn(Math.exp),
  ln: floatFn(Math.log),
  log10: floatFn(Math.log10),
  log: ({ args: [x, base] }) => {
    const n = isInt(x) ? Number(x) : x
    if (!isFloat(n)) return undefined
    if (base === undefined) return Math.log10(n)
    const b = isInt(base) ? Number(base) : base
    return isFloat(b) ? Math.log(n) / Math.log(b) : undefined
  },
  sin: floatFn(Math.sin), cos: floatFn(Math.cos), tan: floatFn(Math.tan),
  asin: floatFn(Math.asin), acos: floatFn(Math.acos), atan: floatFn(Math.atan),
  sinh: floatFn(Math.sinh), cosh: floatFn(Math.cosh), tanh: floatFn(Math.tanh),
  is_nan: floatFn(Number.isNaN),
  is_finite: floatFn(Number.isFinite),
  is_infinite: floatFn((x) => x === Infinity || x === -Infinity),
  to_degrees: floatFn((x) => (x * 180) / Math.PI),
  to_radians: floatFn((x) => (x * Math.PI) / 180),
  PI: ({ args }) => (args.length === 0 ? Math.PI : undefined),
  E: ({ args }) => (args.length === 0 ? Math.E : undefined),
  Fn: ({ args: [name, ...rest] }) => (rest.length === 0 && isStr(name) ? new FnPtr(name) : undefined),
  curry: ({ args: [fn, ...extra] }) => (fn instanceof FnPtr ? new FnPtr(fn.name, [...fn.curry, ...extra], fn.captured) : undefined),
  call: ({ args: [fn, ...extra], ctx }) => (fn instanceof FnPtr ? ctx.callFn(fn, extra) : undefined),
  is_def_fn: ({ args: [name, arity, ...rest], ctx }) => (rest.length === 0 && isStr(name) && isInt(arity) ? ctx.hasFunction(name, Number(arity)) : undefined),
}

function numericPick(a: Value | undefined, b: Value | undefined, keepFirst: (x: number | bigint, y: number | bigint) => boolean): Value | undefined {
  if (a === undefined || b === undefined) return undefined
  if (isInt(a) && isInt(b)) return keepFirst(a, b) ? a : b
  if ((isInt(a) || isFloat(a)) && (isInt(b) || isFloat(b))) {
    const x = Number(a)
    const y = Number(b)
    return keepFirst(x, y) ? x : y
  }
  return undefined
}

/** Getters that Rhai registers for numbers, ranges and function pointers. */
export const coreGetters: Record<string, Record<string, Getter>> = {
  i64: {
    is_odd: (x) => (x as bigint) % 2n !== 0n,
    is_even: (x) => (x as bigint) % 2n === 0n,
    is_zero: (x) => x === 0n,
  },
  f64: {
    floor: (x) => Math.floor(x as number),
    ceiling: (x) => Math.ceil(x as number),
    round: (x) => ((x as number) < 0 ? -Math.round(-(x as number)) : Math.round(x as number)),
    int: (x) => Math.trunc(x as number),
    fraction: (x) => (x as number) - Math.trunc(x as number),
    is_nan: (x) => Number.isNaN(x),
    is_finite: (x) => Number.isFinite(x),
    is_infinite: (x) => x === Infinity || x === -Infinity,
    is_zero: (x) => x === 0,
  },
  range: rangeGetters(),
  'range=': rangeGetters(),
  Fn: {
    name: (f) => (f as FnPtr).name,
    is_anonymous: (f) => (f as FnPtr).name.startsWith('anon$'),
  },
}

function rangeGetters(): Record<string, Getter> {
  return {
    start: (r) => (r as RRange).start,
    end: (r) => (r as RRange).end,
    is_inclusive: (r) => (r as RRange).inclusive,
    is_exclusive: (r) => !(r as RRange).inclusive,
    is_empty: (r) => {
      const range = r as RRange
      return range.inclusive ? range.start > range.end : range.start >= range.end
    },
  }
}
