/**
 * Secrets: a key's value is never stored, it is derived from the master key (lower-case hex HMAC-SHA256 of the
 * key's uid, lower-case and hyphenated, keyed by the master key: `generate_key_as_hexa` in
 * `meilisearch-auth/src/store.rs`), so changing the master key changes every key's value.
 *
 * Every comparison of a presented secret with a real one goes through `sameSecret`: both sides are hashed to
 * SHA-256 first (equal lengths, whatever was sent) and compared with `crypto.timingSafeEqual`, so the time taken
 * says nothing of how much of a guess was right. It is called through the `crypto` namespace object on purpose:
 * the unit test checks that the comparison really is the timing-safe one.
 */
import crypto from 'node:crypto'

export function deriveKeyValue(masterKey: string, uid: string): string {
  return crypto.createHmac('sha256', masterKey).update(uid).digest('hex')
}

/** SHA-256 of a secret: what lookups by secret are keyed on (a map look-up then leaks nothing of the secret). */
export function secretDigest(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret).digest()
}

/** Constant-time equality of two secrets. */
export function sameSecret(presented: string, expected: string): boolean {
  return sameDigest(secretDigest(presented), secretDigest(expected))
}

/** Constant-time equality of two SHA-256 digests (`secretDigest`): what the per-request checks compare. */
export function sameDigest(presented: Buffer, expected: Buffer): boolean {
  return crypto.timingSafeEqual(presented, expected)
}

/** Constant-time equality of two byte strings of any lengths (signatures). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  return crypto.timingSafeEqual(a, b)
}
