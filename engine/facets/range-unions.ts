/**
 * Unions of consecutive value bitmaps (a range filter's `a < x <= b`), precomputed in levels of FANOUT so that a
 * range costs a few unions whatever its width.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'

const FANOUT = 16

/**
 * The union of any run of consecutive bitmaps with few operations (what milli's facet levels do for ranges): level 0
 * is the bitmaps, each next level the unions of FANOUT consecutive bitmaps of the one below. A run is covered by at
 * most 2 × (FANOUT - 1) bitmaps per level, instead of one per value (a broad `price > 10` would otherwise OR tens
 * of thousands). Built when a view is first asked for a range, kept with the view (a few times the field's size).
 */
export class RangeUnions {
  private readonly levels: Bitmap[][]

  constructor(bitmaps: Bitmap[]) {
    this.levels = [bitmaps]
    for (let below = bitmaps; below.length > FANOUT;) {
      const level: Bitmap[] = []
      for (let i = 0; i < below.length; i += FANOUT) level.push(RoaringBitmap32.orMany(below.slice(i, i + FANOUT)))
      this.levels.push(level)
      below = level
    }
  }

  /** The first (or, `fromEnd`, the last) position whose bitmap intersects `c`, -1 if none: a descent of the levels. */
  find(c: Bitmap, fromEnd: boolean): number {
    let lo = 0
    let hi = this.levels[this.levels.length - 1]!.length
    for (let l = this.levels.length - 1; ; l--) {
      const level = this.levels[l]!
      let found = -1
      if (fromEnd) { for (let i = hi - 1; i >= lo; i--) if (level[i]!.intersects(c)) { found = i; break } }
      else { for (let i = lo; i < hi; i++) if (level[i]!.intersects(c)) { found = i; break } }
      if (found < 0 || l === 0) return found
      lo = found * FANOUT
      hi = Math.min(lo + FANOUT, this.levels[l - 1]!.length)
    }
  }

  /** The union of bitmaps `from .. to` (exclusive). */
  union(from: number, to: number): Bitmap {
    const parts: Bitmap[] = []
    let lo = Math.max(0, from)
    let hi = Math.min(this.levels[0]!.length, to)
    for (let l = 0; lo < hi; l++) {
      const level = this.levels[l]!
      if (l === this.levels.length - 1) {
        for (let i = lo; i < hi; i++) parts.push(level[i]!)
        break
      }
      // The ends that do not fill a whole group of the level above are taken here; the rest goes up.
      while (lo < hi && lo % FANOUT !== 0) parts.push(level[lo++]!)
      while (lo < hi && hi % FANOUT !== 0) parts.push(level[--hi]!)
      lo /= FANOUT
      hi /= FANOUT
    }
    return parts.length === 0 ? new RoaringBitmap32() : parts.length === 1 ? parts[0]! : RoaringBitmap32.orMany(parts)
  }
}
