/**
 * Typed arrays over SharedArrayBuffer: the published index views that other threads read in place (a thread is
 * handed the buffers, never a copy of their bytes; see inverted/forward.ts for the rule that keeps them readable).
 * Element reads cost the same as over an ArrayBuffer (measured: a sum over 4M u32, within noise).
 */

export type SharedTyped = Uint8Array | Int8Array | Uint16Array | Int32Array | Uint32Array | Float64Array

type TypedConstructor<T> = { new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number }

/** A zeroed array of `length` elements over a new SharedArrayBuffer. */
export function sharedArray<T extends SharedTyped>(type: TypedConstructor<T>, length: number): T {
  return new type(new SharedArrayBuffer(Math.max(0, length) * type.BYTES_PER_ELEMENT))
}

/** Whether an array's bytes are in shared memory. */
export function isShared(array: ArrayBufferView): boolean {
  return array.buffer instanceof SharedArrayBuffer
}

/**
 * A copy of `array`'s first `keep` elements in a new shared array of `length` elements (a typed array's own
 * `slice` would give an unshared one).
 */
export function sharedCopy<T extends SharedTyped>(array: T, length: number, keep = Math.min(array.length, length)): T {
  const out = sharedArray(array.constructor as TypedConstructor<T>, length)
  out.set(keep === array.length ? array : array.subarray(0, keep) as T)
  return out
}

/** Elements copied (or filled) between two points where `sharedCopySteps` and `fillSteps` may pause. */
const STEP_ELEMENTS = 1 << 20

/** `sharedCopy` as steps that may pause every million elements (a large index's arrays take tens of ms to copy). */
export function* sharedCopySteps<T extends SharedTyped>(array: T, length: number, keep = Math.min(array.length, length)): Generator<undefined, T, unknown> {
  const out = sharedArray(array.constructor as TypedConstructor<T>, length)
  for (let from = 0; from < keep; from += STEP_ELEMENTS) {
    out.set(array.subarray(from, Math.min(keep, from + STEP_ELEMENTS)) as T, from)
    yield
  }
  return out
}

/** `array.fill(value)` as steps that may pause every million elements. */
export function* fillSteps(array: SharedTyped | Int32Array, value: number): Generator<undefined, void, unknown> {
  for (let from = 0; from < array.length; from += STEP_ELEMENTS) {
    array.fill(value, from, Math.min(array.length, from + STEP_ELEMENTS))
    yield
  }
}
