/**
 * The reserved `_shard` filter attribute: a document's shard in the network (engine/network/sharding.ts), computed
 * from its primary key value and the network's shard names rather than stored, so it is never in the document
 * itself and a change of the shards takes effect at once. Filters read it as a facet holding one string per
 * document (`_shard = s1`, `_shard IN [s1, s2]`, `_shard != s1`; shard names compare as facet strings do).
 *
 * The facet is built from the documents the first time a filter names `_shard` after a batch (or a change of the
 * shard names), then kept with that published view: the first such filter reads every document of the index.
 */
import type { Engine } from '../engine.js'
import type { IndexMeta } from '../indexes/catalog.js'
import { FacetIndex, FieldFacets } from '../facets/index.js'
import { filterFields, normalizeFacet, type FilterExpression } from '../filter/index.js'
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { SHARD_FIELD, ShardSet } from '../network/index.js'

/** Documents read per storage call while the facet is built. */
const READ_CHUNK = 1000

/** The `_shard` facet of a published view (by its live documents), for the shard names it was built with. */
const built = new WeakMap<Bitmap, { names: string; field: FieldFacets }>()

export function namesShard(expr: FilterExpression): boolean {
  return filterFields(expr).some((token) => token.value === SHARD_FIELD)
}

/** `facets` with the `_shard` facet of the index's live documents added. */
export function withShardFacet(engine: Engine, meta: IndexMeta, facets: FacetIndex, live: Bitmap): FacetIndex {
  const shards = new ShardSet(Object.keys(engine.network.current.shards))
  const names = JSON.stringify(shards.names)
  let entry = built.get(live)
  if (entry?.names !== names) {
    entry = { names, field: shardFacet(engine, meta, live, shards) }
    built.set(live, entry)
  }
  return new FacetIndex(facets.config, new Map([...facets.fields, [SHARD_FIELD, entry.field]]), facets.geo)
}

function shardFacet(engine: Engine, meta: IndexMeta, live: Bitmap, shards: ShardSet): FieldFacets {
  const byShard = new Map<string, number[]>(shards.names.map((name) => [name, []]))
  const primaryKey = meta.primaryKey
  if (primaryKey !== null && shards.names.length > 0) {
    const ids = live.toArray()
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK)
      engine.documents.getMany(meta.id, chunk).forEach((doc, k) => {
        const id = doc?.[primaryKey]
        if (typeof id === 'string' || typeof id === 'number') byShard.get(shards.shardOf(id)!)!.push(chunk[k]!)
      })
    }
  }
  const field = new FieldFacets()
  const all: Bitmap[] = []
  for (const [name, docids] of byShard) {
    if (docids.length === 0) continue
    const bitmap = RoaringBitmap32.from(docids)
    all.push(bitmap)
    // Two names alike once normalized (`S1`, `s1`) are one facet value, as two spellings of a string are.
    const key = normalizeFacet(name)
    const known = field.strings.get(key)
    field.strings.set(key, known ? { docids: RoaringBitmap32.or(known.docids, bitmap), original: known.original } : { docids: bitmap, original: name })
  }
  field.exists = all.length === 0 ? new RoaringBitmap32() : RoaringBitmap32.orMany(all)
  return field
}
