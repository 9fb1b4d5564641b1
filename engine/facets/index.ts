/**
 * Facet indexes: what filters, sort, distinct, facet distributions and facet search read.
 *
 * For every faceted attribute path (filterable, sortable, the distinct attribute and the fields of custom
 * `attr:asc|desc` ranking rules; dot notation reaches nested fields, arrays are flattened), an index keeps:
 * - the documents holding the path at all (`exists`), holding `null` there, holding an empty value there;
 * - normalized string → documents (with an original spelling for display), number → documents.
 * `_geo` points are kept per document when `_geo` is filterable or sortable.
 *
 * The same facts as the document-at-a-time reference evaluator (`filter/evaluate.ts`), so a filter gives the same
 * documents either way (tested against each other on random documents and expressions).
 *
 * Views are immutable: a batch edits a `FacetDraft` (copy on write: each field, value bitmap and the geo map is
 * copied the first time the batch changes it) and `publish` swaps the view in one step, so a search sees the old
 * or the new facets, never a mix. Facets are derived from the stored documents: an index's view is built from
 * them when first needed (and when the faceted set of a settings change differs), then kept up to date by
 * batches, which take out a replaced or deleted document's old values and add the new ones.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { isObject, type JsonObject } from '../json/value.js'
import { addLeaf, compareCodePoints, geoPoint, isEmptyValue, isFacetedBy, matchingRule, normalizeRules, type FilterRule } from '../filter/index.js'
import type { Settings } from '../settings/index.js'

type Json = JsonObject

/** What decides which paths are faceted. */
export interface FacetConfig {
  rules: FilterRule[]
  sortable: string[]
  distinct: string | null
  /** Fields of custom `attr:asc|desc` ranking rules. */
  ruleFields: string[]
  geo: boolean
  /** Equal signatures: the same paths are faceted. */
  signature: string
}

const CUSTOM_RULE = /^(.+):(asc|desc)$/

/** The field and direction of a custom ranking rule (`price:asc`), or null for the other rules. */
export function customRule(rule: string): { field: string; ascending: boolean } | null {
  const m = CUSTOM_RULE.exec(rule)
  return m ? { field: m[1]!, ascending: m[2] === 'asc' } : null
}

/** Configs by settings object (settings are read once per published batch, and searches ask per query). */
const configs = new WeakMap<Settings, FacetConfig>()

export function facetConfig(settings: Settings): FacetConfig {
  let config = configs.get(settings)
  if (!config) configs.set(settings, (config = makeFacetConfig(settings)))
  return config
}

function makeFacetConfig(settings: Settings): FacetConfig {
  const rules = normalizeRules(settings.filterableAttributes)
  const sortable = [...settings.sortableAttributes]
  const ruleFields = settings.rankingRules.map(customRule).filter((r) => r !== null).map((r) => r.field)
  const distinct = settings.distinctAttribute
  const geo = sortable.includes('_geo') || matchingRule('_geo', rules) !== null
  return { rules, sortable, distinct, ruleFields, geo, signature: JSON.stringify([settings.filterableAttributes, sortable, distinct, ruleFields]) }
}

/** Whether anything is faceted at all. */
export function hasFacets(config: FacetConfig): boolean {
  return config.rules.length > 0 || config.sortable.length > 0 || config.distinct !== null || config.ruleFields.length > 0
}

/** Whether a path is faceted (cached per config). */
function facetedPaths(config: FacetConfig): (path: string) => boolean {
  const cache = new Map<string, boolean>()
  return (path) => {
    let yes = cache.get(path)
    if (yes === undefined) {
      yes = matchingRule(path, config.rules) !== null || config.sortable.some((s) => isFacetedBy(path, s)) ||
        (config.distinct !== null && isFacetedBy(path, config.distinct)) || config.ruleFields.some((s) => isFacetedBy(path, s))
      if (cache.size < 10_000) cache.set(path, yes)
    }
    return yes
  }
}


/**
 * Every (path, value) a document holds, as `attributeValues` reads them: each key path (keys joined by `.`),
 * through nested objects and the objects inside arrays.
 */
function walk(obj: Json, prefix: string, emit: (path: string, value: unknown) => void): void {
  for (const key of Object.keys(obj)) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    const value = obj[key]
    emit(path, value)
    descend(value, path, emit)
  }
}

function descend(value: unknown, path: string, emit: (path: string, value: unknown) => void): void {
  if (Array.isArray(value)) for (const el of value) descend(el, path, emit)
  else if (isObject(value)) walk(value, path, emit)
}

/** A draft's additions to one field not yet in its bitmaps (document ids ascending within a batch's order). */
interface PendingField {
  exists: number[]
  nulls: number[]
  empties: number[]
  numbers: Map<number, number[]>
  strings: Map<string, { ids: number[]; original: string }>
}

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

export interface SortRanks {
  /** By internal document id (ids beyond the array have no value). */
  ranks: Int32Array
  /** By rank. */
  values: (number | string)[]
}

/** The facets of one index (a published view). */
export class FacetIndex {
  constructor(
    readonly config: FacetConfig,
    readonly fields: Map<string, FieldFacets> = new Map(),
    readonly geo: Map<number, [number, number]> = new Map(),
  ) {}

  field(path: string): FieldFacets | undefined {
    return this.fields.get(path)
  }
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

/** What the facet store reads: the published documents of an index. */
export interface FacetSource {
  /** Every live document of the published state, with its internal id. */
  scan(indexId: number): AsyncIterable<[number, Json]>
  /** Changes whenever a batch publishes the index's documents. */
  version(indexId: number): unknown
}

/**
 * The facet views of the indexes, by internal index id (built when first needed). A build reads every document
 * of the published state; if a batch publishes the index meanwhile, the build starts over. So that a build
 * finishes under a steady stream of writes, the scheduler waits for the builds of an index (`settled`) before it
 * starts a batch on it: at most the batch already running when the build started can make it start over, once.
 */
export class FacetStore {
  private readonly views = new Map<number, Promise<FacetIndex>>()
  private readonly building = new Map<number, Promise<unknown>>()

  constructor(private readonly source: FacetSource) {}

  /** Resolves once no build of the index is under way (whether it succeeded or not). */
  async settled(indexId: number): Promise<void> {
    for (let build = this.building.get(indexId); build; build = this.building.get(indexId)) await build.catch(() => {})
  }

  /** The view of an index for the faceted set of its current settings. */
  async get(indexId: number, config: FacetConfig): Promise<FacetIndex> {
    const current = this.views.get(indexId)
    if (current) {
      const view = await current
      if (view.config.signature === config.signature) return view
    }
    const built = this.build(indexId, config)
    this.views.set(indexId, built)
    this.building.set(indexId, built)
    const settle = () => { if (this.building.get(indexId) === built) this.building.delete(indexId) }
    built.then(settle, () => { settle(); if (this.views.get(indexId) === built) this.views.delete(indexId) })
    return built
  }

  private async build(indexId: number, config: FacetConfig): Promise<FacetIndex> {
    if (!hasFacets(config)) return new FacetIndex(config)
    for (;;) {
      const version = this.source.version(indexId)
      const draft = new FacetDraft(new FacetIndex(config), config)
      for await (const [docid, doc] of this.source.scan(indexId)) draft.add(docid, doc)
      // A batch published while the documents were read: read them again.
      if (this.source.version(indexId) === version) return draft.result()
    }
  }

  /** Publish a committed draft's view. */
  publish(indexId: number, view: FacetIndex): void {
    this.views.set(indexId, Promise.resolve(view))
  }

  forget(indexId: number): void {
    this.views.delete(indexId)
  }
}
