/**
 * Facets handed to another thread (a search thread): each published field's bitmaps frozen into one 32-byte
 * aligned shared arena (read in place there, as the large postings are: see inverted/bitmap-arena.ts), its number
 * keys and its strings (normalized, then the spellings shown) in shared arrays. Published fields are immutable (a
 * batch copies a field before changing it, draft.ts), so a field's shared form is made once, when a thread first
 * needs it, and kept with the field: a publish that changed one field makes one field's form again, not the index's.
 *
 * The receiving thread rebuilds a field's value maps over the frozen bitmaps when a search first reads the field,
 * and keeps them while the field is published (by `serial`): a thread's maps hold views, never copies of bitmap
 * bytes.
 */
import roaring from '../util/roaring.js'
import { FROZEN_ALIGNMENT as ALIGN, FROZEN_FORMAT, frozenAligned as aligned, frozenView } from '../util/frozen-bitmap.js'
import { sharedArray } from '../util/shared.js'
import { straight, type Steps } from '../util/turns.js'
import type { FacetConfig } from './config.js'
import { FieldFacets } from './field-facets.js'
import { FacetIndex } from './view.js'

type Bitmap = InstanceType<typeof roaring.RoaringBitmap32>


/** One field's facets as another thread is handed them (arrays over SharedArrayBuffers, never changed). */
export interface FieldFacetsView {
  /** Unique per published field in this process: what a thread keeps its rebuilt field under. */
  serial: number
  /** Bitmap k is `bytes[at[k] .. at[k] + length[k])`: exists, nulls, empties, the numbers, then the strings. */
  bytes: Uint8Array
  at: Uint32Array
  length: Uint32Array
  /** The numbers, ascending (as `numberKeys()`). */
  numbers: Float64Array
  /**
   * The normalized strings in key order, then their spellings, end to end as UTF-16 units (as JavaScript holds them:
   * no encoding on either side, lone surrogates kept); `ends[k]`: where string k ends.
   */
  text: Uint16Array
  ends: Uint32Array
}

/** An index's facets as another thread is handed them. */
export interface FacetIndexView {
  config: FacetConfig
  fields: [string, FieldFacetsView][]
  /** `_geo` points: docid, lat, lng triples. */
  geo: Float64Array
}

let serials = 0
const fieldViews = new WeakMap<FieldFacets, FieldFacetsView>()
const geoViews = new WeakMap<Map<number, [number, number]>, Float64Array>()

/** Values a step of `fieldViewSteps` handles between two points where it may pause. */
const STEP = 512

/** The shared form of a published field (made on the first call, then kept with the field). */
export function fieldView(f: FieldFacets): FieldFacetsView {
  return straight(fieldViewSteps(f))
}

/**
 * `fieldView` as steps, for `inTurns` (the HTTP thread serves requests between them): safe because a published
 * field is never changed, whatever is published meanwhile.
 */
export function* fieldViewSteps(f: FieldFacets): Steps<FieldFacetsView> {
  let view = fieldViews.get(f)
  if (view) return view
  const numbers = f.numberKeys()
  const strings = f.stringKeys()
  const bitmaps: Bitmap[] = [f.exists, f.nulls, f.empties, ...Array.from(numbers, (n) => f.numbers.get(n)!), ...strings.map((k) => f.strings.get(k)!.docids)]
  const at = sharedArray(Uint32Array, bitmaps.length)
  const length = sharedArray(Uint32Array, bitmaps.length)
  let used = 0
  for (let k = 0; k < bitmaps.length; k++) {
    at[k] = used
    length[k] = bitmaps[k]!.getSerializationSizeInBytes(FROZEN_FORMAT)
    used += aligned(length[k]!)
    if (k % STEP === STEP - 1) yield
  }
  const bytes = roaring.bufferAlignedAllocShared(Math.max(ALIGN, used))
  for (let k = 0; k < bitmaps.length; k++) {
    bitmaps[k]!.serialize(FROZEN_FORMAT, bytes.subarray(at[k]!, at[k]! + length[k]!))
    if (k % STEP === STEP - 1) yield
  }
  // Another search may have made it meanwhile (both made it from the same immutable field): keep one.
  const made = fieldViews.get(f)
  if (made) return made
  const all = [...strings, ...strings.map((k) => f.strings.get(k)!.original)]
  const ends = sharedArray(Uint32Array, all.length)
  let end = 0
  all.forEach((s, k) => { end += s.length; ends[k] = end })
  const text = sharedArray(Uint16Array, end)
  end = 0
  for (const s of all) for (let i = 0; i < s.length; i++) text[end++] = s.charCodeAt(i)
  const keys = sharedArray(Float64Array, numbers.length)
  keys.set(numbers)
  view = { serial: ++serials, bytes, at, length, numbers: keys, text, ends }
  fieldViews.set(f, view)
  return view
}

/** The shared form of a published facet index (each field's made once, see `fieldView`). */
export function facetIndexView(index: FacetIndex): FacetIndexView {
  return straight(facetIndexViewSteps(index))
}

/** `facetIndexView` as steps (see `fieldViewSteps`). */
export function* facetIndexViewSteps(index: FacetIndex): Steps<FacetIndexView> {
  let geo = geoViews.get(index.geo)
  if (!geo) {
    geo = sharedArray(Float64Array, index.geo.size * 3)
    let k = 0
    for (const [docid, [lat, lng]] of index.geo) { geo[k++] = docid; geo[k++] = lat; geo[k++] = lng }
    geoViews.set(index.geo, geo)
  }
  const fields: [string, FieldFacetsView][] = []
  for (const [path, f] of index.fields) fields.push([path, yield* fieldViewSteps(f)])
  return { config: index.config, fields, geo }
}

/** UTF-16 units as one string, in chunks (an argument list has a bound). */
function unitsToString(units: Uint16Array): string {
  const CHUNK = 8192
  let out = ''
  for (let at = 0; at < units.length; at += CHUNK) out += String.fromCharCode.apply(null, units.subarray(at, at + CHUNK) as unknown as number[])
  return out
}

/** A field rebuilt over its shared form: maps of frozen views (no bitmap bytes copied). */
export function fieldFromView(view: FieldFacetsView): FieldFacets {
  const bitmap = (k: number) => frozenView(view.bytes.subarray(view.at[k]!, view.at[k]! + view.length[k]!))
  const text = unitsToString(view.text)
  const string = (k: number) => text.slice(k === 0 ? 0 : view.ends[k - 1]!, view.ends[k]!)
  const f = new FieldFacets()
  f.exists = bitmap(0)
  f.nulls = bitmap(1)
  f.empties = bitmap(2)
  const numbers = Float64Array.from(view.numbers)
  numbers.forEach((n, i) => f.numbers.set(n, bitmap(3 + i)))
  const count = view.ends.length / 2
  const strings: string[] = []
  for (let i = 0; i < count; i++) {
    const key = string(i)
    strings.push(key)
    f.strings.set(key, { docids: bitmap(3 + numbers.length + i), original: string(count + i) })
  }
  f.presorted(numbers, strings)
  return f
}

/**
 * A facet index over its shared form: a field's maps are rebuilt when a search first reads the field (a thread
 * never pays for the fields its searches do not touch). `kept`: this thread's fields rebuilt from earlier views, by
 * serial (read and updated: a field still published is not rebuilt, one no longer published is dropped).
 */
export function facetIndexFromView(view: FacetIndexView, kept: Map<number, FieldFacets> = new Map()): FacetIndex {
  const views = new Map(view.fields)
  const serials = new Set(view.fields.map(([, fv]) => fv.serial))
  for (const serial of kept.keys()) if (!serials.has(serial)) kept.delete(serial)
  const geo = new Map<number, [number, number]>()
  for (let k = 0; k < view.geo.length; k += 3) geo.set(view.geo[k]!, [view.geo[k + 1]!, view.geo[k + 2]!])
  return new SharedFacetIndex(view.config, views, kept, geo)
}

/** A facet index whose fields are rebuilt from their shared form on first read (see `facetIndexFromView`). */
class SharedFacetIndex extends FacetIndex {
  constructor(config: FacetConfig, private readonly views: Map<string, FieldFacetsView>, private readonly kept: Map<number, FieldFacets>, geo: Map<number, [number, number]>) {
    super(config, new Map(), geo)
  }

  override field(path: string): FieldFacets | undefined {
    const known = this.fields.get(path)
    if (known) return known
    const view = this.views.get(path)
    if (!view) return undefined
    let f = this.kept.get(view.serial)
    if (!f) {
      f = fieldFromView(view)
      this.kept.set(view.serial, f)
    }
    this.fields.set(path, f)
    return f
  }

  override paths(): Iterable<string> {
    return this.views.keys()
  }
}
