/**
 * The reserved `_shard` filter attribute: a document's shard in the network (engine/network/sharding.ts), computed
 * from its primary key value and the network's shard names rather than stored, so it is never in the document
 * itself and a change of the shards takes effect at once. Filters read it as a facet holding one string per
 * document (`_shard = s1`, `_shard IN [s1, s2]`, `_shard != s1`; shard names compare as facet strings do).
 *
 * The facet is built from the documents the first time a filter names `_shard` (or after a change of the shard
 * names), reading every document of the index once; after a batch, the first such filter reads only the documents
 * the batch added (a document's internal id keeps its primary key, so its shard).
 */
import type { Engine } from '../engine.js'
import type { IndexMeta } from '../indexes/catalog.js'
import { FacetIndex, FieldFacets } from '../facets/index.js'
import { filterFields, normalizeFacet, type FilterExpression } from '../filter/index.js'
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { SHARD_FIELD, ShardSet } from '../network/index.js'

/** Documents read per storage call while the facet is built. */
const READ_CHUNK = 1000

interface Built {
  /** The shard names it was built with. */
  names: string
  live: Bitmap
  /** Documents by shard. */
  byShard: Map<string, Bitmap>
  field: FieldFacets
}

/**
 * The `_shard` facet of each index (by engine and internal id), for the live documents and shard names it was built
 * with. A
 * document's internal id keeps its primary key, so a new published view only reads the documents it added.
 */
const built = new WeakMap<Engine, Map<number, Built>>()

export function namesShard(expr: FilterExpression): boolean {
  return filterFields(expr).some((token) => token.value === SHARD_FIELD)
}

/** `facets` with the `_shard` facet of the index's live documents added. */
export function withShardFacet(engine: Engine, meta: IndexMeta, facets: FacetIndex, live: Bitmap): FacetIndex {
  const shards = new ShardSet(Object.keys(engine.network.current.shards))
  const names = JSON.stringify(shards.names)
  let ofEngine = built.get(engine)
  if (ofEngine === undefined) built.set(engine, (ofEngine = new Map()))
  let entry = ofEngine.get(meta.id)
  if (entry?.live !== live || entry.names !== names) {
    entry = update(engine, meta, live, shards, entry?.names === names ? entry : undefined)
    ofEngine.set(meta.id, entry)
  }
  return new FacetIndex(facets.config, new Map([...facets.fields, [SHARD_FIELD, entry.field]]), facets.geo)
}

/** The facet for `live`: from `known` (same shard names) when there is one, reading only the documents added since. */
function update(engine: Engine, meta: IndexMeta, live: Bitmap, shards: ShardSet, known: Built | undefined): Built {
  const byShard = new Map<string, Bitmap>()
  const added = known ? RoaringBitmap32.andNot(live, known.live) : live
  for (const name of shards.names) {
    const before = known?.byShard.get(name)
    byShard.set(name, before ? RoaringBitmap32.and(before, live) : new RoaringBitmap32())
  }
  const primaryKey = meta.primaryKey
  if (primaryKey !== null && shards.names.length > 0 && added.size > 0) {
    const ids = added.toArray()
    const found = new Map<string, number[]>()
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK)
      engine.documents.getMany(meta.id, chunk).forEach((doc, k) => {
        const id = doc?.[primaryKey]
        if (typeof id !== 'string' && typeof id !== 'number') return
        const shard = shards.shardOf(id)!
        const list = found.get(shard) ?? []
        list.push(chunk[k]!)
        found.set(shard, list)
      })
    }
    for (const [shard, docids] of found) byShard.set(shard, RoaringBitmap32.or(byShard.get(shard)!, RoaringBitmap32.from(docids)))
  }
  return { names: JSON.stringify(shards.names), live, byShard, field: facetOf(byShard) }
}

function facetOf(byShard: Map<string, Bitmap>): FieldFacets {
  const field = new FieldFacets()
  const all: Bitmap[] = []
  for (const [name, bitmap] of byShard) {
    if (bitmap.size === 0) continue
    all.push(bitmap)
    // Two names alike once normalized (`S1`, `s1`) are one facet value, as two spellings of a string are.
    const key = normalizeFacet(name)
    const known = field.strings.get(key)
    field.strings.set(key, known ? { docids: RoaringBitmap32.or(known.docids, bitmap), original: known.original } : { docids: bitmap, original: name })
  }
  field.exists = all.length === 0 ? new RoaringBitmap32() : RoaringBitmap32.orMany(all)
  return field
}
