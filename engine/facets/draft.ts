/**
 * A batch's edit of a facet index, copy on write: each field, value bitmap and the geo map is copied the first time
 * the batch changes it, and additions are gathered per field and settled into the bitmaps in one pass.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import type { JsonObject } from '../json/value.js'
import { addLeaf, geoPoint, isEmptyValue } from '../filter/index.js'
import { facetedPaths, walk, type FacetConfig } from './config.js'
import { FieldFacets } from './field-facets.js'
import { FacetIndex } from './view.js'

type Json = JsonObject

/** A draft's additions to one field not yet in its bitmaps (document ids ascending within a batch's order). */
interface PendingField {
  exists: number[]
  nulls: number[]
  empties: number[]
  numbers: Map<number, number[]>
  strings: Map<string, { ids: number[]; original: string }>
}

/** A batch's edit of a facet index (copy on write; see the module comment). */
export class FacetDraft {
  private readonly fields: Map<string, FieldFacets>
  private geo: Map<number, [number, number]>
  private readonly ownedFields = new Set<FieldFacets>()
  private readonly ownedBitmaps = new Set<Bitmap>()
  private ownsGeo = false
  private readonly faceted: (path: string) => boolean

  constructor(base: FacetIndex, readonly config: FacetConfig = base.config) {
    const rebuild = config.signature !== base.config.signature
    this.fields = rebuild ? new Map() : new Map(base.fields)
    this.geo = rebuild ? new Map() : base.geo
    this.ownsGeo = rebuild
    this.faceted = facetedPaths(config)
  }

  private fieldFor(path: string, create: boolean): FieldFacets | undefined {
    let f = this.fields.get(path)
    if (f && this.ownedFields.has(f)) return f
    if (!f && !create) return undefined
    f = f ? f.copy() : new FieldFacets()
    this.ownedFields.add(f)
    this.fields.set(path, f)
    return f
  }

  /** A bitmap this draft may change: `bitmap` itself when the draft made it, else a copy. */
  private own(bitmap: Bitmap | undefined): Bitmap {
    if (bitmap && this.ownedBitmaps.has(bitmap)) return bitmap
    const b = bitmap ? new RoaringBitmap32(bitmap) : new RoaringBitmap32()
    this.ownedBitmaps.add(b)
    return b
  }

  /**
   * Additions wait here, per field and value, and reach the bitmaps in one `addMany` each (a bitmap insert per
   * value and document was most of the cost of indexing facets and of building them at a start). Removals and
   * views apply them first, so that edits keep their order.
   */
  private pending = new Map<FieldFacets, PendingField>()

  private pendingFor(f: FieldFacets): PendingField {
    let p = this.pending.get(f)
    if (!p) {
      p = { exists: [], nulls: [], empties: [], numbers: new Map(), strings: new Map() }
      this.pending.set(f, p)
    }
    return p
  }

  private settle(): void {
    if (this.pending.size === 0) return
    const grow = (b: Bitmap | undefined, ids: number[]): Bitmap => {
      const owned = this.own(b)
      owned.addMany(ids)
      return owned
    }
    for (const [f, p] of this.pending) {
      if (p.exists.length > 0) f.exists = grow(f.exists, p.exists)
      if (p.nulls.length > 0) f.nulls = grow(f.nulls, p.nulls)
      if (p.empties.length > 0) f.empties = grow(f.empties, p.empties)
      for (const [n, ids] of p.numbers) f.numbers.set(n, grow(f.numbers.get(n), ids))
      for (const [key, added] of p.strings) {
        const entry = f.strings.get(key)
        f.strings.set(key, { docids: grow(entry?.docids, added.ids), original: entry?.original ?? added.original })
      }
    }
    this.pending.clear()
  }

  private edit(docid: number, doc: Json, adding: boolean): void {
    if (!adding) this.settle()
    const scratch = { numbers: [] as number[], strings: [] as string[], originals: [] as string[] }
    walk(doc, '', (path, value) => {
      if (!this.faceted(path)) return
      const f = this.fieldFor(path, adding)
      if (!f) return
      scratch.numbers.length = 0
      scratch.strings.length = 0
      scratch.originals.length = 0
      addLeaf(value, scratch)
      if (adding) {
        const p = this.pendingFor(f)
        p.exists.push(docid)
        if (value === null) p.nulls.push(docid)
        if (isEmptyValue(value)) p.empties.push(docid)
        for (const n of scratch.numbers) {
          const ids = p.numbers.get(n)
          if (ids) { if (ids[ids.length - 1] !== docid) ids.push(docid) } else p.numbers.set(n, [docid])
        }
        scratch.strings.forEach((key, i) => {
          const added = p.strings.get(key)
          if (added) { if (added.ids[added.ids.length - 1] !== docid) added.ids.push(docid) } else p.strings.set(key, { ids: [docid], original: scratch.originals[i]! })
        })
        return
      }
      const change = (b: Bitmap | undefined): Bitmap => {
        const owned = this.own(b)
        owned.remove(docid)
        return owned
      }
      f.exists = change(f.exists)
      if (value === null) f.nulls = change(f.nulls)
      if (isEmptyValue(value)) f.empties = change(f.empties)
      for (const n of scratch.numbers) {
        const b = change(f.numbers.get(n))
        if (b.isEmpty) f.numbers.delete(n)
        else f.numbers.set(n, b)
      }
      for (const key of scratch.strings) {
        const entry = f.strings.get(key)
        const b = change(entry?.docids)
        if (b.isEmpty) f.strings.delete(key)
        else f.strings.set(key, { docids: b, original: entry!.original })
      }
    })
    if (this.config.geo) {
      const point = geoPoint(doc)
      if (point && (adding || this.geo.has(docid))) {
        if (!this.ownsGeo) { this.geo = new Map(this.geo); this.ownsGeo = true }
        if (adding) this.geo.set(docid, point)
        else this.geo.delete(docid)
      }
    }
  }

  add(docid: number, doc: Json): void {
    this.edit(docid, doc, true)
  }

  remove(docid: number, doc: Json): void {
    this.edit(docid, doc, false)
  }

  /** The new view. */
  result(): FacetIndex {
    this.settle()
    for (const [path, f] of this.fields) if (this.ownedFields.has(f) && f.exists.isEmpty) this.fields.delete(path)
    return new FacetIndex(this.config, new Map(this.fields), this.geo)
  }

  /**
   * A view of the draft as it stands, to evaluate a filter in the middle of a batch. Everything in it is frozen:
   * the draft's later edits copy what they change (a view caches sorted keys that an edit in place would stale).
   */
  snapshot(): FacetIndex {
    const view = this.result()
    this.ownedFields.clear()
    this.ownedBitmaps.clear()
    this.ownsGeo = false
    return view
  }
}
