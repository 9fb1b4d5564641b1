/**
 * Roaring bitmaps frozen in shared memory: serialized once in the frozen format into a 32-byte aligned
 * SharedArrayBuffer and read in place (`unsafeFrozenView`: no deserialization, no native copy), so any thread
 * handed the bytes reads the same bitmap. A frozen bitmap cannot be changed (clone it to edit) and keeps its bytes
 * alive. "Unsafe" in the binding's name is about bytes changed under a view: these never are once written.
 */
import roaring from './roaring.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

/** The binding's frozen format (the native layout of this platform; never stored or sent off the machine). */
export const FROZEN_FORMAT = 'unsafe_frozen_croaring'

/** The alignment the frozen format needs: each frozen bitmap in an arena starts at a multiple of it. */
export const FROZEN_ALIGNMENT = 32

/** `n` rounded up to the frozen format's alignment (where the next bitmap of an arena may start). */
export function frozenAligned(n: number): number {
  return (n + FROZEN_ALIGNMENT - 1) & ~(FROZEN_ALIGNMENT - 1)
}

/** A bitmap frozen in shared memory, and its bytes (what another thread is handed). */
export interface SharedBitmap {
  bitmap: Bitmap
  bytes: Uint8Array
}

/** A frozen copy of `bitmap` in shared memory. */
export function frozenShared(bitmap: Bitmap): SharedBitmap {
  const size = bitmap.getSerializationSizeInBytes(FROZEN_FORMAT)
  const bytes = roaring.bufferAlignedAllocShared(Math.max(1, size)).subarray(0, size)
  bitmap.serialize(FROZEN_FORMAT, bytes)
  return { bitmap: frozenView(bytes), bytes }
}

/** The bitmap over frozen bytes (32-byte aligned, as `frozenShared` and the postings arena write them). */
export function frozenView(bytes: Uint8Array): Bitmap {
  return RoaringBitmap32.unsafeFrozenView(bytes, FROZEN_FORMAT)
}
