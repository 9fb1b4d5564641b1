/**
 * Nearest documents of a query vector in one embedder space, best first, each document once (its best vector):
 * - float spaces walk the HNSW graph, with the filter's documents (and the view's slots) accepted inside the walk
 *   by hnswlib's filter callback; when few documents pass the filter the graph is not used at all: an exact scan of
 *   those documents is both faster and exact;
 * - binary quantized spaces rank every candidate by Hamming distance to the quantized query, then rescore the best
 *   `k × rescoring` of them: the full-precision query against each one's int8 copy.
 */
import type { Bitmap } from '../inverted/index.js'
import { cosine, cosineToInt8, f32Cosine, norm, quantize, storedNorm } from './distance.js'
import type { VectorSpace } from './space.js'

export interface Neighbour {
  docid: number
  /** Cosine similarity to the query. */
  similarity: number
}

export interface NearestOptions {
  /** HNSW search breadth (at least k). Default `vectorSearchTuning.ef`. */
  ef?: number
  /** Candidates rescored after the Hamming pass of a quantized space, as a multiple of k. Default `vectorSearchTuning.rescoring`. */
  rescoring?: number
}

/**
 * Below this many filtered documents (or this share of the space) an exact scan replaces the graph walk. A walk with
 * a selective filter visits many documents it cannot return (and asks the filter callback about each across the
 * native boundary): on 50,000 clustered 384-dimension vectors with 4,926 allowed, the walk at ef 200 took 13.6 ms of
 * CPU per query for recall@10 0.930 (0.976 at ef 400, 19.4 ms), the exact scan 4.7 ms for 1.000 (loaded machine).
 */
export const EXACT_SCAN_MAX = 16_384
export const EXACT_SCAN_SHARE = 0.05
/**
 * Tuning of vector search, set once at start-up (`TESSERA_VECTOR_EF`, `TESSERA_VECTOR_RESCORING`):
 * - `ef`: the HNSW search breadth (at least k);
 * - `rescoring`: the rescoring depth of binary quantized search, as a multiple of k: the best `k × rescoring`
 *   documents by Hamming distance are rescored against the full-precision query (their int8 copies). On hard
 *   clustered 384-dimension data a depth of 100 reaches a recall@10 near 0.8, and 500 (the default for k = 10)
 *   about 0.9; a deeper search costs more time (see `npm run bench`).
 */
export const vectorSearchTuning = { ef: 200, rescoring: 50 }

export function nearest(space: VectorSpace, query: Float32Array, k: number, allowed: Bitmap | null, options: NearestOptions = {}): Neighbour[] {
  if (k <= 0 || space.entries.size === 0) return []
  if (space.quantized) return quantizedNearest(space, query, k, allowed, options.rescoring ?? vectorSearchTuning.rescoring)
  const graph = space.graph
  const few = allowed !== null && (allowed.size <= EXACT_SCAN_MAX || allowed.size <= space.entries.size * EXACT_SCAN_SHARE)
  if (!graph || few) return inF32(space, query, exactNearest(space, query, k, allowed))
  const ef = Math.max(options.ef ?? vectorSearchTuning.ef, k)
  // Slots of a batch not yet published are in the graph but not in the view: accepted only through the view.
  const slotDoc = space.slotDoc
  const accept = allowed === null
    ? (graph.size === slotDoc.size ? undefined : (slot: number) => slotDoc.has(slot))
    : (slot: number) => { const d = slotDoc.get(slot); return d !== undefined && allowed.has(d) }
  // Documents with several vectors take several results: ask for more until k documents are found.
  for (let want = k; ; want *= 2) {
    const found = graph.search(query, want, Math.max(ef, want), accept)
    const out = collapse(found.slots.map((s, i) => ({ docid: slotDoc.get(s)!, similarity: 1 - found.distances[i]! })))
    if (out.length >= k || found.slots.length < want || want >= slotDoc.size) {
      if (out.length < k && allowed !== null) return inF32(space, query, exactNearest(space, query, k, allowed))
      return inF32(space, query, out.slice(0, k))
    }
  }
}

/**
 * The found documents' similarities computed again in f32 (f32Cosine), best first: the graph's and the exact
 * scan's f64 cosines can differ from Meilisearch's in the last f32 bits, which `_rankingScore` shows. Only the k
 * returned documents are recomputed, so the cost is k vectors, not the scan.
 */
function inF32(space: VectorSpace, query: Float32Array, hits: Neighbour[]): Neighbour[] {
  for (const h of hits) {
    let best = -Infinity
    for (const v of space.entries.get(h.docid)?.vectors ?? []) best = Math.max(best, f32Cosine(query, v))
    if (best !== -Infinity) h.similarity = best
  }
  return hits.sort((a, b) => b.similarity - a.similarity || a.docid - b.docid)
}

/** Each document once, at its best similarity, best first. */
function collapse(hits: Neighbour[]): Neighbour[] {
  const best = new Map<number, number>()
  for (const h of hits) if (h.docid !== undefined && (best.get(h.docid) ?? -Infinity) < h.similarity) best.set(h.docid, h.similarity)
  return [...best].map(([docid, similarity]) => ({ docid, similarity })).sort((a, b) => b.similarity - a.similarity || a.docid - b.docid)
}

export function exactNearest(space: VectorSpace, query: Float32Array, k: number, allowed: Bitmap | null): Neighbour[] {
  const qn = norm(query)
  const out: Neighbour[] = []
  const visit = (docid: number) => {
    const e = space.entries.get(docid)
    if (!e || e.vectors.length === 0) return
    let best = -Infinity
    for (const v of e.vectors) best = Math.max(best, cosine(query, v, qn, storedNorm(v)))
    out.push({ docid, similarity: best })
  }
  if (allowed === null) for (const docid of space.entries.keys()) visit(docid)
  else if (allowed.size < space.entries.size) for (const docid of allowed.toUint32Array()) visit(docid)
  else for (const docid of space.entries.keys()) if (allowed.has(docid)) visit(docid)
  return top(out, k)
}

function quantizedNearest(space: VectorSpace, query: Float32Array, k: number, allowed: Bitmap | null, rescoring: number): Neighbour[] {
  const qn = norm(query)
  const best: Neighbour[] = []
  for (const docid of hammingCandidates(space, query, k * Math.max(1, rescoring), allowed)) {
    let similarity = -Infinity
    for (const v of space.entries.get(docid)!.int8) similarity = Math.max(similarity, cosineToInt8(query, v, qn))
    best.push({ docid, similarity })
  }
  return top(best, k)
}

/**
 * The documents of a quantized space nearest to `query` by Hamming distance over the sign bits: at least `depth`
 * of them (all those at the cut-off distance), each once, in no particular order.
 */
export function hammingCandidates(space: VectorSpace, query: Float32Array, depth: number, allowed: Bitmap | null): number[] {
  const { words, bits, docids } = space.packed()
  const q = new Uint32Array(words)
  new Uint8Array(q.buffer).set(quantize(query))
  const n = docids.length
  const distances = new Uint16Array(n)
  // Counting by distance (at most dims + 1 values) finds the cut-off of the best `depth` without sorting them all.
  const counts = new Uint32Array(words * 32 + 2)
  for (let i = 0; i < n; i++) {
    if (allowed !== null && !allowed.has(docids[i]!)) { distances[i] = 0xffff; continue }
    let d = 0
    for (let w = 0, at = i * words; w < words; w++) d += popcount(q[w]! ^ bits[at + w]!)
    distances[i] = d
    counts[d]!++
  }
  let cut = 0
  for (let seen = 0; cut < counts.length && seen < depth; cut++) seen += counts[cut]!
  const out = new Set<number>()
  for (let i = 0; i < n; i++) if (distances[i]! < cut) out.add(docids[i]!)
  return [...out]
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

function top(hits: Neighbour[], k: number): Neighbour[] {
  return hits.sort((a, b) => b.similarity - a.similarity || a.docid - b.docid).slice(0, k)
}
