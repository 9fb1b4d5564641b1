/**
 * Key uids: UUIDs parsed as Rust's `uuid` crate parses them (`Uuid::from_str`), so a bad `uid` gets the same
 * message: simple (32 hex digits), hyphenated, braced `{...}` or `urn:uuid:...` forms, any case; the canonical form
 * is lower-case and hyphenated. A failed parse explains itself the way the crate does (the first bad character,
 * else the length or the groups).
 */
import { createHash, randomUUID } from 'node:crypto'

export type UuidParse = { ok: true; uid: string } | { ok: false; message: string }

const HEX = /^[0-9a-fA-F]$/

export function parseUuid(text: string): UuidParse {
  const simple = /^[0-9a-fA-F]{32}$/.test(text) ? text : null
  const body = text.length === 38 && text.startsWith('{') && text.endsWith('}') ? text.slice(1, -1)
    : text.length === 45 && text.startsWith('urn:uuid:') ? text.slice(9)
    : text
  if (simple !== null) {
    const h = simple.toLowerCase()
    return { ok: true, uid: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` }
  }
  if (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(body)) return { ok: true, uid: body.toLowerCase() }
  return { ok: false, message: uuidError(text) }
}

/** The crate's explanation of why `text` is not a UUID. */
function uuidError(text: string): string {
  const [inner, offset, simpleShape] = text.startsWith('{') && text.endsWith('}') && text.length >= 2 ? [text.slice(1, -1), 1, false]
    : text.startsWith('urn:uuid:') ? [text.slice(9), 9, false]
    : [text, 0, true]
  const hyphens: number[] = []
  let index = 0
  for (const ch of inner) {
    if (ch === '-') hyphens.push(index)
    else if (!HEX.test(ch)) return `invalid character: found \`${ch}\` at ${index + offset}`
    index += ch.length
  }
  if (hyphens.length === 0 && simpleShape) return `invalid length: expected length 32 for simple format, found ${Buffer.byteLength(text)}`
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`
  const starts = [0, 9, 14, 19, 24]
  const expected = [8, 4, 4, 4, 12]
  for (let g = 0; g < 4; g++) {
    if (hyphens[g] !== starts[g + 1]! - 1) return `invalid group length in group ${g}: expected ${expected[g]}, found ${hyphens[g]! - starts[g]!}`
  }
  return `invalid group length in group 4: expected 12, found ${inner.length - 24}`
}

export function newUuid(): string {
  return randomUUID()
}

/** A name-based UUID (version 5 layout: the SHA-1 of `name`), the same wherever it is computed. */
export function namedUuid(name: string): string {
  const bytes = createHash('sha1').update(`tessera-key\u0000${name}`, 'utf8').digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const h = bytes.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
