/**
 * LanceDB as a peer of the vectors scenario, in the same process on the same vectors: a table of `id`, `cluster`
 * and a 384-float `vector` column on disk, indexed with IVF_HNSW_SQ (one partition, cosine, M 16, efConstruction
 * 200: the parameters of the HNSW graphs beside it), searched at the same `ef`, filtered queries pre-filtered with
 * a `where` on the cluster (LanceDB's default). The build rate counts writing the table and building the index
 * (LanceDB builds on every core); bytes per vector are the table directory (vectors, index and the other columns).
 *
 * `@lancedb/lancedb` is pinned at 0.31.0 with `apache-arrow` 18.1.0 (see ../shared/reference/dependencies.md);
 * arrow is loaded through its CommonJS build, the one LanceDB itself loads: arrow tables built from the ES module
 * build are other classes to LanceDB, which rejects them.
 */
import { createRequire } from 'node:module'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { vectorSearchTuning } from '../../../engine/vectors/search.js'
import { FILTER_CLUSTER_MODULO, type EngineFigures } from './in-process.js'

const require = createRequire(import.meta.url)

const K = 10
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

export async function lancedbFigures(data: ClusteredVectors, truth: number[][], filteredTruth: number[][], dataParent: string, log: (s: string) => void): Promise<EngineFigures> {
  log('vectors: LanceDB')
  const arrow = require('apache-arrow') as typeof import('apache-arrow')
  const lancedb = require('@lancedb/lancedb') as typeof import('@lancedb/lancedb')
  const dims = data.vectors[0]!.length
  const n = data.vectors.length
  const flat = new Float32Array(n * dims)
  data.vectors.forEach((v, i) => flat.set(v, i * dims))
  const floats = arrow.makeData({ type: new arrow.Float32(), length: n * dims, data: flat })
  const listType = new arrow.FixedSizeList(dims, new arrow.Field('item', new arrow.Float32(), true))
  const table = new arrow.Table({
    id: arrow.makeVector(Int32Array.from({ length: n }, (_, i) => i)),
    cluster: arrow.makeVector(Int32Array.from(data.cluster)),
    vector: arrow.makeVector(arrow.makeData({ type: listType, length: n, nullCount: 0, child: floats })),
  })
  const dir = mkdtempSync(join(dataParent, 'lancedb-'))
  try {
    const db = await lancedb.connect(dir)
    const t0 = performance.now()
    const lance = await db.createTable('v', table)
    await lance.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: 1, m: 16, efConstruction: 200 }) })
    const rate = n / ((performance.now() - t0) / 1000)
    const where = `cluster IN (${Array.from({ length: Math.ceil(100 / FILTER_CLUSTER_MODULO) }, (_, i) => i * FILTER_CLUSTER_MODULO).join(', ')})`
    const query = async (q: Float32Array, filtered: boolean) => {
      let search = lance.vectorSearch(q).distanceType('cosine').ef(vectorSearchTuning.ef).limit(K).select(['id', '_distance'])
      if (filtered) search = search.where(where)
      return ((await search.toArray()) as { id: number }[]).map((r) => r.id)
    }
    const times: number[] = []
    const found: number[][] = []
    for (const q of data.queries) { const t = performance.now(); found.push(await query(q, false)); times.push(performance.now() - t) }
    const filtered: number[][] = []
    for (const q of data.queries) filtered.push(await query(q, true))
    lance.close()
    db.close()
    return {
      name: `LanceDB (IVF_HNSW_SQ, ef ${vectorSearchTuning.ef}, pre-filtered, builds on every core)`,
      buildVectorsPerSecond: rate, recall: recallAt(K, found, truth), filteredRecall: recallAt(K, filtered, filteredTruth), p50Ms: p50(times),
      bytesPerVector: directoryBytes(dir) / n,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function directoryBytes(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size
  }
  return total
}
