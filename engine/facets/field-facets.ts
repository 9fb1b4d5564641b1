/**
 * The facets of one attribute path: the documents holding it at all, holding `null`, holding an empty value, and
 * value → documents for strings (normalized, with an original spelling) and numbers; with the sorted keys, range
 * unions, value ordinals and sort ranks that filters, facet distributions and sort read, built on demand.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { compareCodePoints } from '../filter/index.js'
import { RangeUnions } from './range-unions.js'

export interface StringFacet {
  docids: Bitmap
  /** The spelling shown in facet distributions and facet search (the first document's). */
  original: string
}

/** The facets of one attribute path. */
export class FieldFacets {
  exists: Bitmap = new RoaringBitmap32()
  nulls: Bitmap = new RoaringBitmap32()
  empties: Bitmap = new RoaringBitmap32()
  strings = new Map<string, StringFacet>()
  numbers = new Map<number, Bitmap>()
  private sortedNumbers: Float64Array | null = null
  private sortedStrings: string[] | null = null
  private readonly ranks = new Map<boolean, SortRanks>()
  private numberUnions: RangeUnions | null = null
  private stringUnions: RangeUnions | null = null
  private ordinals: ValueOrdinals | null = null

  copy(): FieldFacets {
    const f = new FieldFacets()
    f.exists = this.exists
    f.nulls = this.nulls
    f.empties = this.empties
    f.strings = new Map(this.strings)
    f.numbers = new Map(this.numbers)
    return f
  }

  /** Seed the sorted keys of a field rebuilt from a shared view (its keys came in order: see shared.ts). */
  presorted(numbers: Float64Array, strings: string[]): void {
    this.sortedNumbers = numbers
    this.sortedStrings = strings
  }

  /** The numbers, ascending. */
  numberKeys(): Float64Array {
    return (this.sortedNumbers ??= Float64Array.from(this.numbers.keys()).sort())
  }

  /** The normalized strings, in code point order. */
  stringKeys(): string[] {
    return (this.sortedStrings ??= [...this.strings.keys()].sort(compareCodePoints))
  }

  private numberRanges(): RangeUnions {
    return (this.numberUnions ??= new RangeUnions(Array.from(this.numberKeys(), (n) => this.numbers.get(n)!)))
  }

  /** The documents of the numbers `numberKeys()[from .. to)`. */
  numbersIn(from: number, to: number): Bitmap {
    return this.numberRanges().union(from, to)
  }

  /** The positions in `numberKeys()` of the smallest and largest numbers the candidates hold; null if none. */
  numberBounds(candidates: Bitmap): [number, number] | null {
    const ranges = this.numberRanges()
    const first = ranges.find(candidates, false)
    return first < 0 ? null : [first, ranges.find(candidates, true)]
  }

  /** The documents of the strings `stringKeys()[from .. to)`. */
  stringsIn(from: number, to: number): Bitmap {
    this.stringUnions ??= new RangeUnions(this.stringKeys().map((k) => this.strings.get(k)!.docids))
    return this.stringUnions.union(from, to)
  }

  /**
   * Each document's values as ordinals: `0 .. numbers-1` the numbers ascending, then the strings in key order
   * (what facet distributions over few documents read, instead of intersecting every value's bitmap).
   */
  valueOrdinals(): ValueOrdinals {
    if (this.ordinals) return this.ordinals
    const size = this.exists.isEmpty ? 0 : this.exists.maximum() + 1
    const bitmaps = [...Array.from(this.numberKeys(), (n) => this.numbers.get(n)!), ...this.stringKeys().map((k) => this.strings.get(k)!.docids)]
    const offsets = new Uint32Array(size + 1)
    for (const b of bitmaps) for (const docid of b) offsets[docid + 1]!++
    for (let d = 0; d < size; d++) offsets[d + 1]! += offsets[d]!
    const ordinals = new Uint32Array(offsets[size]!)
    const next = offsets.slice(0, size)
    bitmaps.forEach((b, ordinal) => { for (const docid of b) ordinals[next[docid]!++] = ordinal })
    this.ordinals = { offsets, ordinals }
    return this.ordinals
  }

  /**
   * Each document's rank for sorting on this attribute (lower first; documents without a value get MISSING_RANK)
   * and each rank's value: numbers before strings in both directions, as milli's sort chains them; a document
   * with several values ranks by the first met (its smallest ascending, its largest descending).
   */
  sortRanks(ascending: boolean): SortRanks {
    let r = this.ranks.get(ascending)
    if (r) return r
    const size = this.exists.isEmpty ? 0 : this.exists.maximum() + 1
    const ranks = new Int32Array(size).fill(MISSING_RANK)
    const values: (number | string)[] = []
    const assign = (docids: Bitmap, value: number | string) => {
      const rank = values.length
      let used = false
      for (const docid of docids) if (ranks[docid] === MISSING_RANK) { ranks[docid] = rank; used = true }
      if (used) values.push(value)
    }
    const numbers = this.numberKeys()
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[ascending ? i : numbers.length - 1 - i]!
      assign(this.numbers.get(n)!, n)
    }
    const strings = this.stringKeys()
    for (let i = 0; i < strings.length; i++) {
      const entry = this.strings.get(strings[ascending ? i : strings.length - 1 - i]!)!
      assign(entry.docids, entry.original)
    }
    r = { ranks, values }
    this.ranks.set(ascending, r)
    return r
  }
}

export const MISSING_RANK = 0x7fffffff

/** Documents' values, compressed rows: document `d`'s ordinals are `ordinals[offsets[d] .. offsets[d+1])`. */
export interface ValueOrdinals {
  offsets: Uint32Array
  ordinals: Uint32Array
}

export interface SortRanks {
  /** By internal document id (ids beyond the array have no value). */
  ranks: Int32Array
  /** By rank. */
  values: (number | string)[]
}
