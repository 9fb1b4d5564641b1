/** Growing typed arrays (the engine's reusable scratch buffers and arenas). */
import { isShared, sharedCopy } from './shared.js'

type Growable = Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float64Array

/**
 * `array` itself when it holds `size` elements, else a new array of the same type, doubled in length until it
 * does, holding `array`'s elements (the first `keep` of them; all by default). An array in shared memory grows
 * into shared memory (see shared.ts).
 */
export function grown<T extends Growable>(array: T, size: number, keep = array.length): T {
  if (size <= array.length) return array
  let n = Math.max(1, array.length)
  while (n < size) n *= 2
  if (isShared(array)) return sharedCopy(array, n, keep)
  const out = new (array.constructor as new (length: number) => T)(n)
  out.set(keep === array.length ? array : array.subarray(0, keep))
  return out
}
