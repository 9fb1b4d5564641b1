/**
 * Validation of JSON bodies and query strings with the messages Meilisearch's deserializer (deserr) gives, so
 * clients see the same text: `Invalid value type at \`.uid\`: expected a string, but found a boolean: \`true\``,
 * `Unknown field \`foo\`: expected one of \`a\`, \`b\``, `Missing field \`uid\``, and the query-string forms.
 */
import { TesseraError, type ErrorCode } from '../../engine/errors/index.js'
import { editDistance } from '../../engine/errors/edit-distance.js'
import type { JsonObject } from '../../engine/json/value.js'

/** A location in a JSON body: `.uid`, `[0].indexes`, ... (empty at the root). */
export type Path = string

export const at = (path: Path, key: string | number): Path => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`)

const where = (path: Path, word = ' at') => (path === '' ? '' : `${word} \`${path}\``)

/** How deserr names the kind of a JSON value. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'boolean': return 'a boolean'
    case 'string': return 'a string'
    case 'number': return Number.isInteger(value) ? (value >= 0 ? 'a positive integer' : 'a negative integer') : 'a number'
    case 'object': return 'an object'
    default: return typeof value
  }
}

export function invalidType(code: ErrorCode, path: Path, expected: string, value: unknown): TesseraError {
  // deserr names null without quoting it: `... but found null`.
  const found = value === null ? 'null' : `${kindOf(value)}: \`${JSON.stringify(value)}\``
  return new TesseraError(code, `Invalid value type${where(path)}: expected ${expected}, but found ${found}`)
}

export function invalidValue(code: ErrorCode, path: Path, message: string): TesseraError {
  return new TesseraError(code, `Invalid value${where(path)}: ${message}`)
}

export function missingField(code: ErrorCode, path: Path, field: string): TesseraError {
  return new TesseraError(code, `Missing field \`${field}\`${where(path, ' inside')}`)
}

function didYouMean(unknown: string, accepted: readonly string[]): string {
  const n = unknown.length
  const allowed = n <= 3 ? 0 : n <= 7 ? 1 : n <= 12 ? 2 : n <= 17 ? 3 : n <= 24 ? 4 : 5
  if (allowed === 0) return ''
  let best: string | null = null
  let bestDistance = Infinity
  for (const candidate of accepted) {
    const dist = editDistance(unknown, candidate)
    if (dist <= allowed && dist < bestDistance) { best = candidate; bestDistance = dist }
  }
  return best === null ? '' : `did you mean \`${best}\`? `
}

const list = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ')

/** Unknown fields are a `bad_request` at the top level, and the enclosing field's own code when nested. */
export function unknownField(path: Path, field: string, accepted: readonly string[], code: ErrorCode = 'bad_request'): TesseraError {
  return new TesseraError(code, `Unknown field \`${field}\`${where(path, ' inside')}: ${didYouMean(field, accepted)}expected one of ${list(accepted)}`)
}

export function unknownParameter(param: string, accepted: readonly string[]): TesseraError {
  return new TesseraError('bad_request', `Unknown parameter \`${param}\`: ${didYouMean(param, accepted)}expected one of ${list(accepted)}`)
}

export function invalidParameter(code: ErrorCode, param: string, message: string): TesseraError {
  return new TesseraError(code, `Invalid value in parameter \`${param}\`: ${message}`)
}

// ---- JSON body helpers -----------------------------------------------------------------------------------


/** The value as an object whose keys are all in `accepted` (unknown keys are rejected, deserr's deny_unknown). */
export function expectObject(value: unknown, path: Path, accepted: readonly string[], code: ErrorCode = 'bad_request', unknownCode: ErrorCode = 'bad_request'): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidType(code, path, 'an object', value)
  for (const key of Object.keys(value)) if (!accepted.includes(key)) throw unknownField(path, key, accepted, unknownCode)
  return value as JsonObject
}

// ---- query strings -----------------------------------------------------------------------------------------

/** Parse a raw query string into name → value, rejecting names not in `accepted`. */
export function parseQuery(raw: string, accepted: readonly string[]): Map<string, string> {
  const params = new Map<string, string>()
  let search: URLSearchParams
  try {
    search = new URLSearchParams(raw)
  } catch {
    throw new TesseraError('bad_request', 'The query string could not be parsed.')
  }
  for (const [name, value] of search) {
    if (!accepted.includes(name)) throw unknownParameter(name, accepted)
    params.set(name, value)
  }
  return params
}

/** The largest values of Rust's `u32` and `u64` (`usize`), the integer types Meilisearch's parameters have. */
export const U32_MAX = 0xffffffffn
export const U64_MAX = 0xffffffffffffffffn

/** A query-string integer as Rust's `from_str` reads it: optional `+`, ASCII digits, at most `max` (`u32` by default). */
export function positiveIntegerParam(code: ErrorCode, param: string, text: string, max = U32_MAX): number {
  if (!/^\+?[0-9]+$/.test(text) || BigInt(text) > max) throw invalidParameter(code, param, `could not parse \`${text}\` as a positive integer`)
  return Number(text)
}

export function booleanParam(code: ErrorCode, param: string, text: string): boolean {
  if (text === 'true') return true
  if (text === 'false') return false
  throw invalidParameter(code, param, `could not parse \`${text}\` as a boolean, expected either \`true\` or \`false\``)
}

// ---- typed values of JSON bodies ----------------------------------------------------------------------------------

export function expectString(value: unknown, path: Path, code: ErrorCode): string {
  if (typeof value !== 'string') throw invalidType(code, path, 'a string', value)
  return value
}

export function expectBoolean(value: unknown, path: Path, code: ErrorCode): boolean {
  if (typeof value !== 'boolean') throw invalidType(code, path, 'a boolean', value)
  return value
}

/** A JSON integer of Rust's `usize` (u64): non-negative, at most `u64::MAX`. */
export function expectUsize(value: unknown, path: Path, code: ErrorCode): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > Number(U64_MAX)) throw invalidType(code, path, 'a positive integer', value)
  return value
}

export function expectNumber(value: unknown, path: Path, code: ErrorCode): number {
  if (typeof value !== 'number') throw invalidType(code, path, 'a number', value)
  return value
}

export function expectStringList(value: unknown, path: Path, code: ErrorCode): string[] {
  if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value)
  return value.map((item, i) => expectString(item, at(path, i), code))
}

/** deserr's "Unknown value" for enums, with its "did you mean" hint. */
export function unknownValue(code: ErrorCode, path: Path, value: string, accepted: readonly string[]): TesseraError {
  const hinted = unknownField('', value, accepted, code).message.slice(`Unknown field \`${value}\`: `.length)
  return new TesseraError(code, `Unknown value \`${value}\`${path === '' ? '' : ` at \`${path}\``}: ${hinted}`)
}

export function expectEnum<T extends string>(value: unknown, path: Path, code: ErrorCode, accepted: readonly T[]): T {
  const s = expectString(value, path, code)
  if (!(accepted as readonly string[]).includes(s)) throw unknownValue(code, path, s, accepted)
  return s as T
}
