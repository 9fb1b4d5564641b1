/**
 * What binary quantization's rescoring copy buys, measured in process: the Hamming candidates of each query are
 * rescored against the full-precision query either with the int8 copy kept in memory (what the store does, 1 byte
 * per dimension) or with the float vectors read from RocksDB for those candidates only (4 bytes per dimension on
 * disk, none in memory): recall@10 and search p50 at two depths.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { Store, keys, type WriteOp } from '../../../engine/storage/index.js'
import { cosine, norm } from '../../../engine/vectors/distance.js'
import { hammingCandidates, nearest } from '../../../engine/vectors/search.js'
import type { VectorSpace } from '../../../engine/vectors/space.js'
import type { EngineFigures } from './in-process.js'

const K = 10
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

export async function rescoringFigures(data: ClusteredVectors, quantized: VectorSpace, truth: number[][], dataParent: string, log: (s: string) => void): Promise<EngineFigures[]> {
  log('vectors: rescoring from RocksDB floats')
  const dir = mkdtempSync(join(dataParent, 'rescoring-'))
  const store = await Store.open(dir)
  try {
    for (let from = 0; from < data.vectors.length; from += 2000) {
      const ops: WriteOp[] = data.vectors.slice(from, from + 2000).map((v, i) => ({ column: 'vectors', key: keys.u32(from + i), value: Buffer.from(v.buffer, v.byteOffset, v.byteLength) }))
      await store.commit(ops)
    }
    const out: EngineFigures[] = []
    for (const depth of [10, 50]) {
      const inMemory: number[] = []
      const int8Found = data.queries.map((q) => { const t = performance.now(); const r = nearest(quantized, q, K, null, { rescoring: depth }).map((n) => n.docid); inMemory.push(performance.now() - t); return r })
      const fromDisk: number[] = []
      const floatFound = data.queries.map((q) => {
        const t = performance.now()
        const candidates = hammingCandidates(quantized, q, K * depth, null)
        const rows = store.getMany('vectors', candidates.map((d) => keys.u32(d)))
        const qn = norm(q)
        const scored = candidates.map((docid, i) => {
          const row = rows[i]!
          return { docid, similarity: cosine(q, new Float32Array(row.buffer.slice(row.byteOffset, row.byteOffset + row.byteLength)), qn) }
        })
        const r = scored.sort((a, b) => b.similarity - a.similarity || a.docid - b.docid).slice(0, K).map((n) => n.docid)
        fromDisk.push(performance.now() - t)
        return r
      })
      out.push({ name: `binary quantized, ${depth}×k rescored with the int8 copy (memory)`, buildVectorsPerSecond: null, recall: recallAt(K, int8Found, truth), filteredRecall: null, p50Ms: p50(inMemory) })
      out.push({ name: `binary quantized, ${depth}×k rescored with floats read from RocksDB`, buildVectorsPerSecond: null, recall: recallAt(K, floatFound, truth), filteredRecall: null, p50Ms: p50(fromDisk) })
    }
    return out
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
