/**
 * Password hashing as Payload's local strategy does it: a 32-byte random salt (hex), PBKDF2-SHA256 over the
 * salt's hex string with 25,000 iterations and a 512-byte key, stored as hex; compared in constant time.
 * `pbkdf2` runs on libuv's thread pool, so hashing never blocks the event loop.
 */
import { createHash, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const pbkdf2Async = promisify(pbkdf2)
const randomBytesAsync = promisify(randomBytes)

export const PASSWORD_ITERATIONS = 25000
export const PASSWORD_KEY_LENGTH = 512

/** Hashes Payload writes from 3.x releases that embed their parameters: `pbkdf2-sha256-v2-i<iter>-l<len>:<hex>`. */
const EMBEDDED_PARAMETERS = /^pbkdf2-sha256-v2-i(\d+)-l(\d+):([0-9a-f]+)$/

/**
 * Derivations in progress, by a digest of their inputs: identical concurrent checks (a burst of logins with the
 * same guessed password) share one PBKDF2 run instead of each costing ~0.25 s of CPU. Entries live only while
 * the derivation runs, and the key is a digest, never the password.
 */
const inFlight = new Map<string, Promise<Buffer>>()

function derive(password: string, salt: string, iterations: number, keyLength: number): Promise<Buffer> {
  const key = createHash('sha256').update(`${iterations}\0${keyLength}\0${salt}\0`).update(password).digest('hex')
  let running = inFlight.get(key)
  if (!running) {
    running = pbkdf2Async(password, salt, iterations, keyLength, 'sha256').finally(() => inFlight.delete(key))
    inFlight.set(key, running)
  }
  return running
}

export async function hashPassword(password: string): Promise<{ salt: string; hash: string }> {
  const salt = (await randomBytesAsync(32)).toString('hex')
  const hash = (await pbkdf2Async(password, salt, PASSWORD_ITERATIONS, PASSWORD_KEY_LENGTH, 'sha256')).toString('hex')
  return { salt, hash }
}

/** Whether `password` matches a stored salt and hash; false for anything malformed. */
export async function verifyPassword(password: string, salt: unknown, hash: unknown): Promise<boolean> {
  if (typeof salt !== 'string' || typeof hash !== 'string') return false
  // Users imported from a newer Payload keep working: their hash says how it was made.
  const embedded = EMBEDDED_PARAMETERS.exec(hash)
  const iterations = embedded ? Number(embedded[1]) : PASSWORD_ITERATIONS
  const keyLength = embedded ? Number(embedded[2]) : PASSWORD_KEY_LENGTH
  const stored = Buffer.from(embedded ? embedded[3]! : hash, 'hex')
  if (stored.length !== keyLength || iterations < 1 || iterations > 10_000_000) return false
  const derived = await derive(password, salt, iterations, keyLength)
  return timingSafeEqual(derived, stored)
}
