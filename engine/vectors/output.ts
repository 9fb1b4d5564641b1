/**
 * `_vectors` as documents and hits show it with `retrieveVectors`: every configured embedder as
 * `{embeddings: [[...]], regenerate}` from the store (a quantized space shows its vectors as -1/1 values), over the
 * document's own `_vectors` entries for names that are not embedders (kept as the document gave them, normalized).
 */
import type { EmbedderSettings } from '../settings/index.js'
import { embedderKind } from '../settings/index.js'
import type { IndexVectors, VectorSpace } from './space.js'
import type { VectorEntry } from './codec.js'

/**
 * The shortest decimal that reads back as the same 32-bit float (what Meilisearch's f32 serialization prints where
 * it serializes an f32 directly, as the response's `queryVector`).
 */
export function f32(x: number): number {
  const f = Math.fround(x)
  if (!Number.isFinite(f) || Number.isInteger(f)) return f
  for (let p = 1; p <= 9; p++) {
    const v = Number(f.toPrecision(p))
    if (Math.fround(v) === f) return v
  }
  return f
}

function unpack(bits: Uint8Array, dims: number): number[] {
  const out = new Array<number>(dims)
  for (let i = 0; i < dims; i++) out[i] = (bits[i >> 3]! >> (i & 7)) & 1 ? 1 : -1
  return out
}

export type VectorsView = Record<string, { embeddings: number[][]; regenerate: boolean }>

/** The store's vectors of one document for every configured embedder. */
export function storedVectors(spaces: IndexVectors, embedders: Record<string, EmbedderSettings>, docid: number): VectorsView {
  const out: VectorsView = {}
  for (const [name, settings] of Object.entries(embedders)) {
    const space = spaces.get(name)
    const entry = space?.entries.get(docid)
    if (!entry) {
      out[name] = { embeddings: [], regenerate: embedderKind(settings.source) !== 'userProvided' }
      continue
    }
    out[name] = { embeddings: shownEmbeddings(space!, entry), regenerate: entry.regenerate }
  }
  return out
}

/**
 * One document's vectors in a space as they are shown: each f32 widened to f64 (0.1 shows as 0.10000000149011612),
 * as Meilisearch shows them in documents and hits, which it builds as JSON values (serde_json widens an f32 into a
 * value's number; tests/similar/mod.rs snapshots it); a quantized space's as -1/1 values.
 */
export function shownEmbeddings(space: VectorSpace, entry: VectorEntry): number[][] {
  return space.quantized ? entry.packed.map((b) => unpack(b, space.dims)) : entry.vectors.map((v) => Array.from(v))
}

/** A shown document's `_vectors` (already normalized by `withVectors`) with the store's vectors laid over it. */
export function withStoredVectors(doc: Record<string, unknown>, stored: VectorsView): Record<string, unknown> {
  const own = (doc._vectors ?? {}) as Record<string, unknown>
  return { ...doc, _vectors: { ...own, ...stored } }
}
