/** Key encodings shared by the engine. Big-endian integers so that byte order is numeric order. */

export function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

export function readU32(b: Uint8Array, offset = 0): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).readUInt32BE(offset)
}

export function utf8(s: string): Buffer {
  return Buffer.from(s, 'utf8')
}

/** `prefix ‖ rest`, the form of every per-index key. */
export function indexKey(indexId: number, rest: Uint8Array | string = Buffer.alloc(0)): Buffer {
  const tail = typeof rest === 'string' ? Buffer.from(rest, 'utf8') : rest
  const b = Buffer.allocUnsafe(4 + tail.byteLength)
  b.writeUInt32BE(indexId >>> 0)
  b.set(tail, 4)
  return b
}

/** The `[gte, lt)` bounds covering every key of one index. */
export function indexRange(indexId: number): { gte: Buffer; lt: Buffer } {
  return { gte: u32(indexId), lt: indexId === 0xffffffff ? Buffer.alloc(5, 0xff) : u32(indexId + 1) }
}
