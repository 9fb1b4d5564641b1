/**
 * Generated clustered vectors for vector-search benchmarks and recall tests: `clusters` random unit centres, each
 * point a centre plus Gaussian noise of its cluster's own spread (spreads from `minSpread` to `maxSpread`, so some
 * clusters are tight and others overlap: hard enough that a narrow HNSW search misses neighbours). Queries are
 * drawn the same way. Seeded: the same arguments give the same vectors everywhere.
 */
import { mulberry32 } from './random.js'

export interface ClusteredOptions {
  count: number
  dims: number
  clusters: number
  queries: number
  seed?: number
  minSpread?: number
  maxSpread?: number
}

export interface ClusteredVectors {
  vectors: Float32Array[]
  /** The cluster of each vector (for filtered queries: filter on the cluster). */
  cluster: number[]
  queries: Float32Array[]
}

export function clusteredVectors(o: ClusteredOptions): ClusteredVectors {
  const rand = mulberry32(o.seed ?? 42)
  const gauss = () => {
    const u = Math.max(rand(), 1e-12)
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand())
  }
  const centres: Float32Array[] = []
  const spreads: number[] = []
  const min = o.minSpread ?? 0.02
  const max = o.maxSpread ?? 0.12
  for (let c = 0; c < o.clusters; c++) {
    const v = Float32Array.from({ length: o.dims }, gauss)
    const n = Math.hypot(...v)
    centres.push(v.map((x) => x / n))
    spreads.push(min + (max - min) * (c / Math.max(1, o.clusters - 1)))
  }
  const point = (c: number) => Float32Array.from(centres[c]!, (x) => x + gauss() * spreads[c]!)
  const vectors: Float32Array[] = []
  const cluster: number[] = []
  for (let i = 0; i < o.count; i++) {
    const c = Math.floor(rand() * o.clusters)
    cluster.push(c)
    vectors.push(point(c))
  }
  const queries = Array.from({ length: o.queries }, () => point(Math.floor(rand() * o.clusters)))
  return { vectors, cluster, queries }
}

/** Recall@k of `found` against the exact `truth` (ids), averaged over queries. */
export function recallAt(k: number, found: number[][], truth: number[][]): number {
  let sum = 0
  for (let q = 0; q < truth.length; q++) {
    const t = new Set(truth[q]!.slice(0, k))
    sum += found[q]!.slice(0, k).filter((d) => t.has(d)).length / Math.max(1, Math.min(k, t.size))
  }
  return sum / truth.length
}
