/**
 * Nearest documents of a query vector in one embedder space, best first, each document once (its best vector):
 * - float spaces walk the HNSW graph, with the filter's documents (and the view's slots) accepted inside the walk
 *   by hnswlib's filter callback; when few documents pass the filter the graph is not used at all: an exact scan of
 *   those documents is both faster and exact;
 * - binary quantized spaces rank every candidate by Hamming distance to the quantized query, then rescore the best
 *   `rescoringDepth(k)` of them against the full-precision query.
 */
import type { Bitmap } from '../inverted/index.js'
import { cosine, cosineToBits, hamming, norm, quantize } from './distance.js'
import type { VectorSpace } from './space.js'

export interface Neighbour {
  docid: number
  /** Cosine similarity to the query. */
  similarity: number
}

export interface NearestOptions {
  /** HNSW search breadth (at least k). Default `DEFAULT_EF`. */
  ef?: number
  /** Candidates rescored after the Hamming pass of a quantized space, as a multiple of k. */
  rescoring?: number
}

/** Below this many filtered documents (or this share of the space) an exact scan replaces the graph walk. */
export const EXACT_SCAN_MAX = 4096
export const EXACT_SCAN_SHARE = 0.05
/** The HNSW search breadth used unless asked otherwise (measured in `npm run bench`: recall ≥ 0.95 at 384 dimensions). */
export const DEFAULT_EF = 200
/**
 * Rescoring depth of binary quantized search: this many times k candidates (at least `MIN_RESCORING`) taken by
 * Hamming distance are rescored against the full-precision query. At 384 dimensions the Hamming top 100 alone
 * reaches a recall@10 near 0.6; 50 × k (500 for k = 10) reaches about 0.9 (see `npm run bench`).
 */
export const DEFAULT_RESCORING = 50
const MIN_RESCORING = 200

export function nearest(space: VectorSpace, query: Float32Array, k: number, allowed: Bitmap | null, options: NearestOptions = {}): Neighbour[] {
  if (k <= 0 || space.entries.size === 0) return []
  if (space.quantized) return quantizedNearest(space, query, k, allowed, options.rescoring ?? DEFAULT_RESCORING)
  const graph = space.graph
  const few = allowed !== null && (allowed.size <= EXACT_SCAN_MAX || allowed.size <= space.entries.size * EXACT_SCAN_SHARE)
  if (!graph || few) return exactNearest(space, query, k, allowed)
  const ef = Math.max(options.ef ?? DEFAULT_EF, k)
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
      if (out.length < k && allowed !== null) return exactNearest(space, query, k, allowed)
      return out.slice(0, k)
    }
  }
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
    for (const v of e.vectors) best = Math.max(best, cosine(query, v, qn))
    out.push({ docid, similarity: best })
  }
  if (allowed === null) for (const docid of space.entries.keys()) visit(docid)
  else if (allowed.size < space.entries.size) for (const docid of allowed) visit(docid)
  else for (const docid of space.entries.keys()) if (allowed.has(docid)) visit(docid)
  return top(out, k)
}

function quantizedNearest(space: VectorSpace, query: Float32Array, k: number, allowed: Bitmap | null, rescoring: number): Neighbour[] {
  const q = quantize(query)
  const depth = Math.max(k * rescoring, MIN_RESCORING)
  const byHamming: { docid: number; distance: number }[] = []
  for (const [docid, e] of space.entries) {
    if (e.packed.length === 0 || (allowed !== null && !allowed.has(docid))) continue
    let best = Infinity
    for (const p of e.packed) best = Math.min(best, hamming(q, p))
    byHamming.push({ docid, distance: best })
  }
  byHamming.sort((a, b) => a.distance - b.distance || a.docid - b.docid)
  const qn = norm(query)
  const rescored = byHamming.slice(0, depth).map(({ docid }) => {
    let best = -Infinity
    for (const p of space.entries.get(docid)!.packed) best = Math.max(best, cosineToBits(query, p, qn))
    return { docid, similarity: best }
  })
  return top(rescored, k)
}

function top(hits: Neighbour[], k: number): Neighbour[] {
  return hits.sort((a, b) => b.similarity - a.similarity || a.docid - b.docid).slice(0, k)
}
