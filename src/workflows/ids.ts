/**
 * Identifiers as n8n makes them: workflow, tag and project ids are 16 characters of [0-9A-Za-z] (n8n's
 * `nanoid` format, checked by its API validator as /^[A-Za-z0-9]{16}$/); version ids are uuids.
 */
import { randomBytes, randomUUID } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
export const ID_LENGTH = 16
/** The largest multiple of 62 below 256: bytes at or above it are redrawn, so every character is equally likely. */
const UNBIASED_BELOW = 248

/** Random bytes drawn ahead in one call: a call per id costs more than the id (bulk creation makes many). */
let pool: Buffer = Buffer.alloc(0)
let used = 0

function randomByte(): number {
  if (used === pool.length) {
    pool = randomBytes(4096)
    used = 0
  }
  return pool[used++]!
}

export function newId(): string {
  let id = ''
  while (id.length < ID_LENGTH) {
    const byte = randomByte()
    if (byte < UNBIASED_BELOW) id += ALPHABET[byte % 62]
  }
  return id
}

export function newVersionId(): string {
  return randomUUID()
}
