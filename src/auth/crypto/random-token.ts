/** Random identifiers: user ids, and the 40-hex-character tokens of verification and password reset. */
import { randomBytes } from 'node:crypto'

/** 20 random bytes as hex, as Payload makes reset and verification tokens. */
export function randomToken(): string {
  return randomBytes(20).toString('hex')
}

let counter = randomBytes(3).readUIntBE(0, 3)
const processPart = randomBytes(5)

/**
 * A 24-hex-character id shaped like a MongoDB ObjectId (Payload's default ids): seconds since the epoch, 5 random
 * bytes per process and a counter. Ids sort by creation time, so a scan of a collection is in creation order.
 */
export function newId(now = Date.now()): string {
  const b = Buffer.alloc(12)
  b.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0)
  processPart.copy(b, 4)
  counter = (counter + 1) & 0xffffff
  b.writeUIntBE(counter, 9, 3)
  return b.toString('hex')
}
