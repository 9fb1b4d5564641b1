/**
 * UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, then random bits, so versions sort by creation
 * time, as Meilisearch's `Uuid::now_v7()` network versions do.
 */
import { randomBytes } from 'node:crypto'

export function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16)
  let ms = now
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
