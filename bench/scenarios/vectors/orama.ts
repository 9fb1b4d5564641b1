/**
 * Orama's vector search as a peer of the vectors scenario, in the same process on the same vectors: a `vector[N]`
 * property searched by cosine similarity (Orama scans every vector), filtered with a `where` on the cluster.
 */
import { performance } from 'node:perf_hooks'
import { create, insertMultiple, search } from '@orama/orama'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { FILTER_CLUSTER_MODULO, type EngineFigures } from './in-process.js'

const K = 10
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

export async function oramaFigures(data: ClusteredVectors, truth: number[][], filteredTruth: number[][], log: (s: string) => void): Promise<EngineFigures> {
  log('vectors: Orama')
  const dims = data.vectors[0]!.length
  const db = create({ schema: { id: 'string', cluster: 'enum', embedding: `vector[${dims}]` } as const })
  const t0 = performance.now()
  for (let from = 0; from < data.vectors.length; from += 1000) {
    await insertMultiple(db, data.vectors.slice(from, from + 1000).map((v, i) => ({ id: String(from + i), cluster: data.cluster[from + i]!, embedding: Array.from(v) })))
  }
  const rate = data.vectors.length / ((performance.now() - t0) / 1000)
  const clusters = Array.from({ length: Math.ceil(100 / FILTER_CLUSTER_MODULO) }, (_, i) => i * FILTER_CLUSTER_MODULO)
  const query = async (q: Float32Array, filtered: boolean) => {
    const r = await search(db, { mode: 'vector', vector: { value: Array.from(q), property: 'embedding' }, similarity: 0, limit: K, includeVectors: false, ...(filtered ? { where: { cluster: { in: clusters } } } : {}) } as never)
    return (r as { hits: { id: string }[] }).hits.map((h) => Number(h.id))
  }
  const times: number[] = []
  const found: number[][] = []
  for (const q of data.queries) { const t = performance.now(); found.push(await query(q, false)); times.push(performance.now() - t) }
  const filtered: number[][] = []
  for (const q of data.queries) filtered.push(await query(q, true))
  return { name: 'Orama (exact scan)', buildVectorsPerSecond: rate, recall: recallAt(K, found, truth), filteredRecall: recallAt(K, filtered, filteredTruth), p50Ms: p50(times) }
}
