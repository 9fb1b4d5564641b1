/**
 * Rhai's operators on values: its built-in operator table (`func/builtin.rs`) and the operator functions of
 * its standard packages, with the same results and the same errors. INT arithmetic is checked i64 (overflow
 * and division by zero are errors, never silent floats); INT mixed with FLOAT computes in FLOAT; values of
 * different types compare unequal (and `<`, `>` ... are false); a pair with no operator is "Function not found".
 * Errors carry no position: the interpreter gives them the operator's.
 */
import { runtime, runtimeError, type RhaiRuntimeError } from './errors.js'
import { display } from './format.js'
import { INT_MAX, INT_MIN, RChar, RRange, compareCodePoints, isMap, own, signatureType, typeName, valuesEqual, type Value } from './values.js'

const arithmetic = (message: string) => runtimeError(message)

export function notFound(name: string, args: Value[]): RhaiRuntimeError {
  return runtimeError(runtime.functionNotFound(`${name} (${args.map(signatureType).join(', ')})`))
}

function checked(r: bigint, message: string): bigint {
  if (r > INT_MAX || r < INT_MIN) throw arithmetic(message)
  return r
}

function intPower(x: bigint, y: bigint): bigint {
  const message = `Exponential overflow: ${x} ** ${y}`
  if (y > 0xffffffffn) throw arithmetic(message)
  if (y < 0n) throw arithmetic(`Integer raised to a negative power: ${x} ** ${y}`)
  if (x === 0n || x === 1n) return y === 0n ? 1n : x
  if (x === -1n) return y % 2n === 0n ? 1n : -1n
  if (y >= 64n) throw arithmetic(message)
  return checked(x ** y, message)
}

function shiftLeft(x: bigint, y: bigint): bigint {
  if (y > 0xffffffffn) return 0n
  if (y < 0n) return shiftRight(x, y === INT_MIN ? INT_MAX : -y)
  if (y >= 64n) return 0n
  return BigInt.asIntN(64, x << y)
}

function shiftRight(x: bigint, y: bigint): bigint {
  if (y > 0xffffffffn) return x >> 63n
  if (y < 0n) return shiftLeft(x, y === INT_MIN ? INT_MAX : -y)
  if (y >= 64n) return x >> 63n
  return x >> y
}

function intOp(op: string, x: bigint, y: bigint): Value | undefined {
  switch (op) {
    case '+': return checked(x + y, `Addition overflow: ${x} + ${y}`)
    case '-': return checked(x - y, `Subtraction overflow: ${x} - ${y}`)
    case '*': return checked(x * y, `Multiplication overflow: ${x} * ${y}`)
    case '/':
      if (y === 0n) throw arithmetic(`Division by zero: ${x} / ${y}`)
      return checked(x / y, `Division overflow: ${x} / ${y}`)
    case '%':
      if (y === 0n || (x === INT_MIN && y === -1n)) throw arithmetic(`Modulo division by zero or overflow: ${x} % ${y}`)
      return x % y
    case '**': return intPower(x, y)
    case '<<': return shiftLeft(x, y)
    case '>>': return shiftRight(x, y)
    case '&': return x & y
    case '|': return x | y
    case '^': return x ^ y
    case '..': return new RRange(x, y, false)
    case '..=': return new RRange(x, y, true)
    default: return compare(op, x < y ? -1 : x > y ? 1 : 0)
  }
}

function floatOp(op: string, x: number, y: number): Value | undefined {
  switch (op) {
    case '+': return x + y
    case '-': return x - y
    case '*': return x * y
    case '/': return x / y
    case '%': return x % y
    case '**': return Math.pow(x, y)
    case '==': return x === y
    case '!=': return x !== y
    case '<': return x < y
    case '<=': return x <= y
    case '>': return x > y
    case '>=': return x >= y
    default: return undefined
  }
}

function compare(op: string, order: number): boolean | undefined {
  switch (op) {
    case '==': return order === 0
    case '!=': return order !== 0
    case '<': return order < 0
    case '<=': return order <= 0
    case '>': return order > 0
    case '>=': return order >= 0
    default: return undefined
  }
}

/** Rhai compares a char with a string by their first two characters. */
function charStringOrder(a: string, b: string): number {
  const x = [...a].slice(0, 2)
  const y = [...b].slice(0, 2)
  while (x.length < 2) x.push('\0')
  while (y.length < 2) y.push('\0')
  return compareCodePoints(x.join(''), y.join(''))
}

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>='])

/** `a op b`. Throws "Function not found" when Rhai has no such operator for these types. */
export function binary(op: string, a: Value, b: Value): Value {
  const result = builtin(op, a, b)
  if (result !== undefined) return result
  throw notFound(op, [a, b])
}

function builtin(op: string, a: Value, b: Value): Value | undefined {
  const ta = typeof a
  const tb = typeof b
  if (ta === 'bigint' && tb === 'bigint') return intOp(op, a as bigint, b as bigint)
  if ((ta === 'number' || ta === 'bigint') && (tb === 'number' || tb === 'bigint')) return floatOp(op, Number(a), Number(b))
  if (ta === 'string' && tb === 'string') {
    if (op === '+') return (a as string) + (b as string)
    if (op === '-') return (a as string).split(b as string).join('')
    return compare(op, compareCodePoints(a as string, b as string))
  }
  if (ta === 'boolean' && tb === 'boolean') {
    const x = a as boolean
    const y = b as boolean
    if (op === '&') return x && y
    if (op === '|') return x || y
    if (op === '^') return x !== y
    return compare(op, Number(x) - Number(y))
  }
  if (a instanceof RChar && b instanceof RChar) {
    if (op === '+') return a.c + b.c
    return compare(op, compareCodePoints(a.c, b.c))
  }
  if (a instanceof RChar && tb === 'string') {
    if (op === '+') return a.c + (b as string)
    return compare(op, charStringOrder(a.c, b as string))
  }
  if (ta === 'string' && b instanceof RChar) {
    if (op === '+') return (a as string) + b.c
    if (op === '-') return (a as string).split(b.c).join('')
    return compare(op, charStringOrder(a as string, b.c))
  }
  if (a === null && b === null) return COMPARISONS.has(op) ? op === '==' : undefined
  if ((a === null && tb === 'string') || (ta === 'string' && b === null)) {
    if (op === '+') return a === null ? b : a
    return COMPARISONS.has(op) ? op === '!=' : undefined
  }
  if (a instanceof RRange && b instanceof RRange) {
    if (op === '==') return valuesEqual(a, b)
    if (op === '!=') return !valuesEqual(a, b)
    return undefined
  }
  // Operator functions of the standard packages.
  if (op === '+') {
    if (ta === 'string') return (a as string) + display(b)
    if (tb === 'string') return display(a) + (b as string)
    if (Array.isArray(a) && Array.isArray(b)) return [...a.map(own), ...b.map(own)]
    if (isMap(a) && isMap(b)) {
      const merged = own(a) as Map<string, Value>
      for (const [k, v] of b) merged.set(k, own(v))
      return merged
    }
  }
  const same = typeName(a) === typeName(b)
  if (same && (Array.isArray(a) || isMap(a)) && (op === '==' || op === '!=')) return (op === '==') === valuesEqual(a, b)
  if (!same && COMPARISONS.has(op)) return op === '!='
  return undefined
}

/** `-x`, `+x`, `!x`. */
export function unary(op: '-' | '+' | '!', a: Value): Value {
  if (op === '!' && typeof a === 'boolean') return !a
  if (op === '-' && typeof a === 'bigint') {
    if (a === INT_MIN) throw arithmetic(`Negation overflow: -${a}`)
    return -a
  }
  if (op === '-' && typeof a === 'number') return -a
  if (op === '+' && (typeof a === 'bigint' || typeof a === 'number')) return a
  throw notFound(op, [a])
}

/** `a op= b`: as `a = a op b`, except that `array += item` pushes (or appends an array). */
export function compound(op: string, a: Value, b: Value): Value {
  if (op === '+' && Array.isArray(a)) {
    if (Array.isArray(b)) a.push(...b.map(own))
    else a.push(own(b))
    return a
  }
  return binary(op, a, b)
}
