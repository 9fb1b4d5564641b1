/**
 * Sorted document ids written straight into roaring's portable serialization, the bytes `RoaringBitmap32.serialize
 * ('portable')` gives for a bitmap built from them, without building the bitmap. Encoding a batch's postings spent
 * most of its time making, serializing and freeing one native bitmap per word, and natural text has hundreds of
 * thousands of words in a handful of documents (GCIDE: 330,000 of 345,000 in at most 16).
 *
 * Only the layout a bitmap built from ids has when every 65,536-id block holds at most 4,096 of them: array
 * containers, no run containers (a bitmap is run-optimized only when asked), so the no-run cookie with its offset
 * header (the format spec, github.com/RoaringBitmap/RoaringFormatSpec). Denser ids, which roaring keeps as bitset
 * containers, are left to roaring (`portableSize` says so).
 */

/** Cookie of a portable bitmap without run containers (an offset header follows the descriptive header). */
const NO_RUN_COOKIE = 12346
/** Most ids an array container holds; one more and roaring makes it a bitset. */
const ARRAY_MAX = 4096

/**
 * Bytes of `ids[from .. to)` (sorted ascending, distinct) in portable form, or -1 when a 65,536-id block holds more
 * than ARRAY_MAX of them (roaring would store a bitset container: encode those with roaring).
 */
export function portableSize(ids: Uint32Array, from: number, to: number): number {
  let containers = 0
  let k = from
  while (k < to) {
    const high = ids[k]! >>> 16
    const start = k
    while (k < to && ids[k]! >>> 16 === high) k++
    if (k - start > ARRAY_MAX) return -1
    containers++
  }
  return 8 + 8 * containers + 2 * (to - from)
}

/**
 * Write `ids[from .. to)` in portable form at `out[at ..]` (room for `portableSize` bytes, which must not be -1);
 * returns the offset after them.
 */
export function writePortable(ids: Uint32Array, from: number, to: number, out: Uint8Array, view: DataView, at: number): number {
  let containers = 0
  for (let k = from; k < to; containers++) {
    const high = ids[k]! >>> 16
    while (k < to && ids[k]! >>> 16 === high) k++
  }
  const start = at
  view.setUint32(at, NO_RUN_COOKIE, true)
  view.setUint32(at + 4, containers, true)
  let header = at + 8
  let offsets = header + 4 * containers
  // Offsets count from the start of the serialized bitmap.
  let data = offsets + 4 * containers
  for (let k = from; k < to;) {
    const high = ids[k]! >>> 16
    let end = k
    while (end < to && ids[end]! >>> 16 === high) end++
    view.setUint16(header, high, true)
    view.setUint16(header + 2, end - k - 1, true)
    header += 4
    view.setUint32(offsets, data - start, true)
    offsets += 4
    for (; k < end; k++) {
      const low = ids[k]! & 0xffff
      out[data] = low & 0xff
      out[data + 1] = low >>> 8
      data += 2
    }
  }
  return data
}
