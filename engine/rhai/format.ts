/**
 * Text forms of values, as Rhai prints them: `display` (`to_string`, `print`, string interpolation, `+` onto a
 * string, `throw` messages) and `debug` (`to_debug`, `debug`, items inside arrays and maps). Floats follow
 * Rhai's `FloatWrapper` (scientific notation outside 1e-13..1e13, `.0` on whole numbers) and Rust's `{:?}`.
 */
import { FnPtr, RChar, RRange, sortedKeys, type Value } from './values.js'

const MAX_NATURAL = Math.fround(10_000_000_000_000)
const MIN_NATURAL = Math.fround(0.000_000_000_000_1)

/** Shortest round-trip digits and decimal exponent of a finite non-zero number (`d.ddd × 10^exp`). */
function digitsOf(x: number): { sign: string; digits: string; exp: number } {
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string]
  return { sign: x < 0 ? '-' : '', digits: mantissa.replace('.', ''), exp: Number(exponent) }
}

/** Rust's `{:e}`: `1e20`, `1.5e-14`. */
function scientific(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf'
  const { sign, digits, exp } = digitsOf(x)
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
  return `${sign}${mantissa}e${exp}`
}

/** Rust's `{}` for f64: plain decimal digits, never an exponent. */
function plain(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  const { sign, digits, exp } = digitsOf(x)
  if (exp >= digits.length - 1) return sign + digits + '0'.repeat(exp - digits.length + 1)
  if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
  return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
}

export function floatDisplay(x: number): string {
  const abs = Math.abs(x)
  if (abs === 0) return '0.0'
  if (abs > MAX_NATURAL || abs < MIN_NATURAL) return scientific(x)
  if (Number.isNaN(x)) return 'NaN'
  const text = plain(x)
  return Number.isInteger(x) ? `${text}.0` : text
}

export function floatDebug(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf'
  const abs = Math.abs(x)
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) return scientific(x)
  const text = plain(x)
  return Number.isInteger(x) ? `${text}.0` : text
}

function escape(s: string, quote: '"' | "'"): string {
  let out = ''
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += '\\' + quote
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\0') out += '\\0'
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`
    else out += ch
  }
  return out
}

function fnPtr(f: FnPtr): string {
  return `Fn(${f.name})`
}

function range(r: RRange): string {
  return `${r.start}${r.inclusive ? '..=' : '..'}${r.end}`
}

function container(v: Value[] | Map<string, Value>): string {
  if (Array.isArray(v)) return `[${v.map(debug).join(', ')}]`
  return `#{${sortedKeys(v).map((k) => `"${escape(k, '"')}": ${debug(v.get(k)!)}`).join(', ')}}`
}

export function display(v: Value): string {
  if (v === null) return ''
  switch (typeof v) {
    case 'string': return v
    case 'boolean': return v ? 'true' : 'false'
    case 'bigint': return v.toString()
    case 'number': return floatDisplay(v)
  }
  if (v instanceof RChar) return v.c
  if (v instanceof FnPtr) return fnPtr(v)
  if (v instanceof RRange) return range(v)
  return container(v)
}

export function debug(v: Value): string {
  if (v === null) return '()'
  switch (typeof v) {
    case 'string': return `"${escape(v, '"')}"`
    case 'boolean': return v ? 'true' : 'false'
    case 'bigint': return v.toString()
    case 'number': return floatDebug(v)
  }
  if (v instanceof RChar) return `'${escape(v.c, "'")}'`
  if (v instanceof FnPtr) return fnPtr(v)
  if (v instanceof RRange) return range(v)
  return container(v)
}
