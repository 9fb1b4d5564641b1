/**
 * The in-process half of the vectors scenario: exact neighbours (the truth), `hnswlib-node` and `usearch` raw, and
 * Tessera's vector store (its draft → published space, searched by `nearest`) on the same generated vectors:
 * build rate, recall@10 (plain and filtered) and search p50 in the same process; for the float space built with its
 * graph on the indexing thread and in the pool, how long the indexing thread was busy.
 */
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { RoaringBitmap32 } from '../../../engine/inverted/index.js'
import { VectorDraft } from '../../../engine/vectors/draft.js'
import { exactNearest, nearest, vectorSearchTuning } from '../../../engine/vectors/search.js'
import { NO_VECTORS, type VectorSpace } from '../../../engine/vectors/space.js'
import type { GraphBuildInput } from '../../../engine/vectors/graph-build.js'
import { runJob } from '../../../engine/pool/jobs.js'
import type { WorkerPool } from '../../../engine/pool/index.js'
import { createWorkerPool } from '../../../workers/pool.js'
import { rescoringFigures } from './rescoring.js'

const require = createRequire(import.meta.url)

export interface EngineFigures {
  name: string
  buildVectorsPerSecond: number | null
  recall: number
  filteredRecall: number | null
  p50Ms: number
  /** Tessera's builds: how long the indexing thread was busy while the space was built. */
  mainThreadBusyMs?: number
  /** What the engine keeps on disk per vector (its index file or table directory), when measured. */
  bytesPerVector?: number
  note?: string
}

const K = 10
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const ids = (hits: { docid: number }[]) => hits.map((h) => h.docid)

/** The filter of the filtered queries: one cluster in ten (about a tenth of the documents). */
export const FILTER_CLUSTER_MODULO = 10
export const filterAllows = (cluster: number) => cluster % FILTER_CLUSTER_MODULO === 0

export async function inProcessFigures(data: ClusteredVectors, log: (s: string) => void, dataParent?: string): Promise<{ engines: EngineFigures[]; rescoring: EngineFigures[]; truth: number[][]; filteredTruth: number[][]; hardness: number }> {
  const dims = data.vectors[0]!.length
  const allowedIds = data.vectors.map((_, i) => i).filter((i) => filterAllows(data.cluster[i]!))
  const allowed = RoaringBitmap32.from(allowedIds)
  const engines: EngineFigures[] = []

  log('vectors: building Tessera float space (graph on this thread)')
  const float = await buildSpace(data.vectors, false)
  const truth = data.queries.map((q) => ids(exactNearest(float.space, q, K, null)))
  const filteredTruth = data.queries.map((q) => ids(exactNearest(float.space, q, K, allowed)))
  engines.push({ ...measure('Tessera store (float, HNSW, graph on the indexing thread)', float.rate, truth, filteredTruth, data, (q, f) => ids(nearest(float.space, q, K, f ? allowed : null))), mainThreadBusyMs: float.busyMs })
  log('vectors: building Tessera float space (graph in the pool)')
  const pool = createWorkerPool(1)
  try {
    const pooled = await buildSpace(data.vectors, false, pool)
    engines.push({ ...measure('Tessera store (float, HNSW, graph built in the pool)', pooled.rate, truth, filteredTruth, data, (q, f) => ids(nearest(pooled.space, q, K, f ? allowed : null))), mainThreadBusyMs: pooled.busyMs })
  } finally {
    await pool.close()
  }

  log('vectors: building Tessera quantized space')
  const bq = await buildSpace(data.vectors, true)
  for (const depth of [10, vectorSearchTuning.rescoring]) {
    engines.push(measure(`Tessera store (binary quantized, rescoring ${depth}×k)`, bq.rate, truth, filteredTruth, data, (q, f) => ids(nearest(bq.space, q, K, f ? allowed : null, { rescoring: depth }))))
  }
  const rescoring = dataParent === undefined ? [] : await rescoringFigures(data, bq.space, truth, dataParent, log)

  log('vectors: hnswlib-node raw')
  const hnswlib = require('hnswlib-node') as typeof import('hnswlib-node')
  const raw = new hnswlib.HierarchicalNSW('cosine', dims)
  raw.initIndex({ maxElements: data.vectors.length, m: 16, efConstruction: 200, randomSeed: 100 })
  let t0 = performance.now()
  data.vectors.forEach((v, i) => raw.addPoint(Array.from(v), i))
  const rawRate = data.vectors.length / ((performance.now() - t0) / 1000)
  raw.setEf(10)
  const hardness = recallAt(K, data.queries.map((q) => raw.searchKnn(Array.from(q), K).neighbors), truth)
  raw.setEf(vectorSearchTuning.ef)
  engines.push({ ...measure(`hnswlib-node raw (ef ${vectorSearchTuning.ef})`, rawRate, truth, filteredTruth, data, (q, f) => raw.searchKnn(Array.from(q), K, f ? (l: number) => allowed.has(l) : undefined).neighbors), bytesPerVector: savedBytes(raw, data.vectors.length, dataParent) })

  try {
    log('vectors: usearch raw')
    const { Index } = require('usearch') as { Index: new (c: object) => { add(k: BigUint64Array, v: Float32Array, threads?: number): void; search(v: Float32Array, k: number, threads: number): { keys: BigUint64Array } } }
    const index = new Index({ dimensions: dims, metric: 'cos', connectivity: 16, expansion_add: 200, expansion_search: vectorSearchTuning.ef })
    const flat = new Float32Array(data.vectors.length * dims)
    data.vectors.forEach((v, i) => flat.set(v, i * dims))
    t0 = performance.now()
    index.add(BigUint64Array.from(data.vectors.map((_, i) => BigInt(i))), flat, 1)
    const rate = data.vectors.length / ((performance.now() - t0) / 1000)
    // No filter callback in the JS binding: filtered queries post-filter a wider result.
    engines.push(measure('usearch raw (1 thread, post-filtered)', rate, truth, filteredTruth, data, (q, f) => {
      const keys = Array.from(index.search(q, f ? K * FILTER_CLUSTER_MODULO * 2 : K, 1).keys, Number)
      return (f ? keys.filter((k) => allowed.has(k)) : keys).slice(0, K)
    }))
  } catch (err) {
    log(`vectors: usearch unavailable (${(err as Error).message})`)
  }
  return { engines, rescoring, truth, filteredTruth, hardness }
}

/**
 * One draft of every vector, published. With `pool`, the graph is built by the pool's `buildGraph` job as the
 * indexing does it for large batches. `busyMs`: the time this thread was busy meanwhile (event loop utilization).
 */
async function buildSpace(vectors: Float32Array[], quantized: boolean, pool?: WorkerPool): Promise<{ space: VectorSpace; rate: number; busyMs: number }> {
  const t0 = performance.now()
  const elu = performance.eventLoopUtilization()
  const draft = new VectorDraft(1, NO_VECTORS, (_n, next) => next)
  vectors.forEach((v, docid) => draft.set(docid, { e: { embeddings: [v], userProvided: true, regenerate: false } }))
  const build = pool ? (input: GraphBuildInput) => runJob(pool, 'buildGraph', input) : undefined
  await draft.finalOps({ e: { source: 'userProvided', dimensions: vectors[0]!.length, binaryQuantized: quantized } }, () => {}, { build })
  const space = draft.result()!.spaces.get('e')!
  const busyMs = performance.eventLoopUtilization(elu).active
  return { space, rate: vectors.length / ((performance.now() - t0) / 1000), busyMs }
}

/** The size of hnswlib's saved graph per vector (vectors included), measured in a scratch directory. */
function savedBytes(index: import('hnswlib-node').HierarchicalNSW, count: number, dataParent: string | undefined): number | undefined {
  if (dataParent === undefined) return undefined
  const dir = mkdtempSync(join(dataParent, 'hnswlib-'))
  try {
    index.writeIndexSync(join(dir, 'graph.hnsw'))
    return statSync(join(dir, 'graph.hnsw')).size / count
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function measure(name: string, rate: number | null, truth: number[][], filteredTruth: number[][], data: ClusteredVectors, search: (q: Float32Array, filtered: boolean) => number[]): EngineFigures {
  const times: number[] = []
  const found = data.queries.map((q) => { const t = performance.now(); const r = search(q, false); times.push(performance.now() - t); return r })
  const filtered = data.queries.map((q) => search(q, true))
  return { name, buildVectorsPerSecond: rate, recall: recallAt(K, found, truth), filteredRecall: recallAt(K, filtered, filteredTruth), p50Ms: p50(times) }
}
