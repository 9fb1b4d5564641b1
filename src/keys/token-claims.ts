/**
 * The JSON parts of a tenant token, read as Meilisearch reads them (serde, through `jsonwebtoken`): the header must
 * name an algorithm; the claims are `searchRules` (a list of index patterns, or an object from pattern to `null`
 * or a rule `{filter}`), an optional integer `exp` and `apiKeyUid` (a UUID); other claims are ignored. A claim of
 * the wrong shape is refused with serde's message and position (`missing field \`searchRules\` at line 1 column
 * 16`), as a client of Meilisearch sees it.
 */
import { parseJsonText } from '../../engine/payload/json.js'
import { afterClosingAttempt, objectMembers, position, type Member } from './json-members.js'
import type { SearchRules } from './search-rules.js'
import { parseUuid } from './uuid.js'

/** A claim or header that serde would refuse; the message is the one after `JSON error: `. */
export class ClaimsError extends Error {}

export interface Claims {
  searchRules: SearchRules
  exp: number | null
  apiKeyUid: string
  /** An `aud` claim is present (see `hasAudience`). */
  audience: boolean
}

/** The algorithms `jsonwebtoken` knows, in its declaration order (its "unknown variant" message lists them so). */
const ALGORITHMS = ['HS256', 'HS384', 'HS512', 'ES256', 'ES384', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA']

function parse(bytes: Buffer): unknown {
  const text = bytes.toString('utf8')
  const parsed = parseJsonText(text)
  if (parsed.ok) return parsed.value
  throw new ClaimsError(parsed.empty ? `EOF while parsing a value at ${position(bytes, bytes.length)}` : parsed.message)
}

/** serde's name of a JSON value in "invalid type" messages, and whether serde reads it before complaining. */
function unexpected(raw: string, value: unknown): { text: string; consumed: boolean } {
  if (value === null) return { text: 'null', consumed: true }
  if (Array.isArray(value)) return { text: 'sequence', consumed: false }
  switch (typeof value) {
    case 'string': return { text: `string ${JSON.stringify(value)}`, consumed: true }
    case 'boolean': return { text: `boolean \`${value}\``, consumed: true }
    case 'number': {
      if (/^-?\d+$/.test(raw)) return { text: `integer \`${raw}\``, consumed: true }
      let shown = String(value)
      if (!/[.eE]/.test(shown)) shown += '.0'
      return { text: `floating point \`${shown}\``, consumed: true }
    }
    default: return { text: 'map', consumed: false }
  }
}

function fail(bytes: Buffer, message: string, offset: number): never {
  throw new ClaimsError(`${message} at ${position(bytes, offset)}`)
}

function valueOf(bytes: Buffer, m: Member): { raw: string; value: unknown } {
  const raw = bytes.subarray(m.start, m.end).toString('utf8')
  return { raw, value: JSON.parse(raw) }
}

function invalidType(bytes: Buffer, m: Member, raw: string, value: unknown, expected: string): never {
  const u = unexpected(raw, value)
  fail(bytes, `invalid type: ${u.text}, expected ${expected}`, u.consumed ? m.end : m.start)
}

/** The header's algorithm. */
export function readHeader(bytes: Buffer): { alg: string } {
  const whole = parse(bytes)
  const object = objectMembers(bytes)
  if (object === null) fail(bytes, `invalid type: ${unexpected(bytes.toString('utf8').trim(), whole).text}, expected struct Header`, bytes.length)
  let alg: string | undefined
  for (const m of object.members) {
    if (m.key !== 'alg') continue
    if (alg !== undefined) fail(bytes, 'duplicate field `alg`', afterClosingAttempt(bytes, m.keyEnd))
    const { raw, value } = valueOf(bytes, m)
    if (typeof value !== 'string') invalidType(bytes, m, raw, value, 'variant identifier')
    if (!ALGORITHMS.includes(value)) fail(bytes, `unknown variant \`${value}\`, expected one of ${ALGORITHMS.map((a) => `\`${a}\``).join(', ')}`, m.end)
    alg = value
  }
  if (alg === undefined) fail(bytes, 'missing field `alg`', object.end)
  return { alg }
}

/** `searchRules`, or null when it is neither form (serde's untagged enum then fails as a whole). */
function searchRulesOf(value: unknown): SearchRules | null {
  if (Array.isArray(value)) {
    if (!value.every((p) => typeof p === 'string')) return null
    return { rules: [...new Set(value as string[])].map((pattern) => ({ pattern, filter: undefined })) }
  }
  if (value === null || typeof value !== 'object') return null
  const rules: { pattern: string; filter: unknown }[] = []
  for (const [pattern, rule] of Object.entries(value)) {
    if (rule === null) rules.push({ pattern, filter: undefined })
    // A rule object: only `filter` counts; serde also reads a one-element array as the struct's one field.
    else if (Array.isArray(rule)) { if (rule.length !== 1) return null; rules.push({ pattern, filter: rule[0] ?? undefined }) }
    else if (typeof rule === 'object') rules.push({ pattern, filter: (rule as { filter?: unknown }).filter ?? undefined })
    else return null
  }
  return { rules }
}

function expOf(bytes: Buffer, m: Member): number | null {
  const { raw, value } = valueOf(bytes, m)
  if (value === null) return null
  if (typeof value === 'number' && /^-?\d+$/.test(raw)) {
    const n = BigInt(raw)
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return Number(n)
    if (n >= 0n && n < 2n ** 64n) fail(bytes, `invalid value: integer \`${raw}\`, expected i64`, m.end)
    // Beyond 64 bits serde_json reads the number as a float.
    invalidType(bytes, m, `${raw}.0`, Number(raw) + 0.5, 'i64')
  }
  invalidType(bytes, m, raw, value, 'i64')
}

function apiKeyUidOf(bytes: Buffer, m: Member): string {
  const { raw, value } = valueOf(bytes, m)
  if (typeof value !== 'string') invalidType(bytes, m, raw, value, 'a UUID string')
  const parsed = parseUuid(value)
  if (!parsed.ok) fail(bytes, `UUID parsing failed: ${parsed.message}`, m.end)
  return parsed.uid
}

export function readClaims(bytes: Buffer): Claims {
  const whole = parse(bytes)
  const object = objectMembers(bytes)
  if (object === null) fail(bytes, `invalid type: ${unexpected(bytes.toString('utf8').trim(), whole).text}, expected struct Claims`, bytes.length)
  let searchRules: SearchRules | undefined
  let exp: number | null | undefined
  let apiKeyUid: string | undefined
  for (const m of object.members) {
    const duplicate = () => fail(bytes, `duplicate field \`${m.key}\``, afterClosingAttempt(bytes, m.keyEnd))
    if (m.key === 'searchRules') {
      if (searchRules !== undefined) duplicate()
      const rules = searchRulesOf(valueOf(bytes, m).value)
      if (rules === null) fail(bytes, 'data did not match any variant of untagged enum SearchRules', afterClosingAttempt(bytes, m.end))
      searchRules = rules
    } else if (m.key === 'exp') {
      if (exp !== undefined) duplicate()
      exp = expOf(bytes, m)
    } else if (m.key === 'apiKeyUid') {
      if (apiKeyUid !== undefined) duplicate()
      apiKeyUid = apiKeyUidOf(bytes, m)
    }
  }
  if (searchRules === undefined) fail(bytes, 'missing field `searchRules`', object.end)
  if (apiKeyUid === undefined) fail(bytes, 'missing field `apiKeyUid`', object.end)
  return { searchRules, exp: exp ?? null, apiKeyUid, audience: hasAudience(whole) }
}

/**
 * `jsonwebtoken` refuses any token with an `aud` claim (a string or a list of strings) when no audience is
 * expected, which Meilisearch never sets.
 */
function hasAudience(claims: unknown): boolean {
  if (claims === null || typeof claims !== 'object' || !('aud' in claims)) return false
  const aud = (claims as { aud: unknown }).aud
  return typeof aud === 'string' || (Array.isArray(aud) && aud.every((a) => typeof a === 'string'))
}
