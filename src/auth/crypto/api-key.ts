/**
 * API keys as Payload stores them: the key encrypted with AES-256-CTR (random IV, stored as `iv ‖ ciphertext`
 * in hex) under the derived secret, and found again through an HMAC-SHA256 of the key (the `apiKeyIndex`), so the
 * key itself is never stored in the clear nor needed to look a user up.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

export function encryptAPIKey(key: string, derivedSecret: string): string {
  const iv = randomBytes(16)
  const cipher = createCipheriv('aes-256-ctr', Buffer.from(derivedSecret, 'utf8'), iv)
  return iv.toString('hex') + Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]).toString('hex')
}

export function decryptAPIKey(stored: string, derivedSecret: string): string {
  const decipher = createDecipheriv('aes-256-ctr', Buffer.from(derivedSecret, 'utf8'), Buffer.from(stored.slice(0, 32), 'hex'))
  return Buffer.concat([decipher.update(Buffer.from(stored.slice(32), 'hex')), decipher.final()]).toString('utf8')
}

export function apiKeyIndex(key: string, derivedSecret: string): string {
  return createHmac('sha256', derivedSecret).update(key).digest('hex')
}
