/** FNV-1a (32 bits) of bytes: a cheap, stable hash (not for adversarial keys). */
export function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193)
  return h >>> 0
}
