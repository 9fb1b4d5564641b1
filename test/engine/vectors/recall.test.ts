/**
 * Recall of the vector store's search on generated clustered data, against an exact scan: the HNSW walk (plain and
 * filtered inside the walk), and binary quantization with rescoring. A space is built the way a batch builds it
 * (a draft's `finalOps`, then published).
 */
import t from 'tap'
import { clusteredVectors, recallAt } from '../../../bench/data/clustered-vectors.js'
import { RoaringBitmap32 } from '../../../engine/inverted/index.js'
import { VectorDraft } from '../../../engine/vectors/draft.js'
import { exactNearest, nearest } from '../../../engine/vectors/search.js'
import { NO_VECTORS, type VectorSpace } from '../../../engine/vectors/space.js'

async function space(vectors: Float32Array[], quantized: boolean): Promise<VectorSpace> {
  const draft = new VectorDraft(1, NO_VECTORS, (_n, next) => next)
  vectors.forEach((v, docid) => draft.set(docid, { e: { embeddings: [v], userProvided: true, regenerate: false } }))
  await draft.finalOps({ e: { source: 'userProvided', dimensions: vectors[0]!.length, binaryQuantized: quantized } }, () => {})
  return draft.result()!.spaces.get('e')!
}

t.test('recall@10 on clustered vectors', async (t) => {
  const data = clusteredVectors({ count: 6000, dims: 128, clusters: 40, queries: 100, seed: 7 })
  const float = await space(data.vectors, false)
  const ids = (hits: { docid: number }[]) => hits.map((h) => h.docid)
  const truth = data.queries.map((q) => ids(exactNearest(float, q, 10, null)))
  const found = data.queries.map((q) => ids(nearest(float, q, 10, null)))
  const recall = recallAt(10, found, truth)
  t.ok(recall >= 0.95, `HNSW recall@10 ${recall.toFixed(3)} ≥ 0.95`)

  // A filter keeping a quarter of the documents, applied inside the walk.
  const allowed = RoaringBitmap32.from(data.vectors.map((_, i) => i).filter((i) => data.cluster[i]! % 4 === 0))
  const filteredTruth = data.queries.map((q) => ids(exactNearest(float, q, 10, allowed)))
  const filtered = data.queries.map((q) => ids(nearest(float, q, 10, allowed)))
  t.ok(filtered.every((hits) => hits.every((d) => allowed.has(d))), 'filtered hits all pass the filter')
  const filteredRecall = recallAt(10, filtered, filteredTruth)
  t.ok(filteredRecall >= 0.95, `filtered recall@10 ${filteredRecall.toFixed(3)} ≥ 0.95`)

  // Few documents pass: exact scan, exact answer.
  const few = RoaringBitmap32.from([3, 30, 300, 3000])
  t.same(ids(nearest(float, data.queries[0]!, 10, few)), ids(exactNearest(float, data.queries[0]!, 10, few)))

})

t.test('binary quantized recall@10 after rescoring', async (t) => {
  // Wide clusters: sign bits alone confuse neighbours, the rescoring depth decides the recall.
  const data = clusteredVectors({ count: 6000, dims: 128, clusters: 40, queries: 100, seed: 7, maxSpread: 0.3 })
  const ids = (hits: { docid: number }[]) => hits.map((h) => h.docid)
  const float = await space(data.vectors, false)
  const truth = data.queries.map((q) => ids(exactNearest(float, q, 10, null)))
  const quantized = await space(data.vectors, true)
  const recall = (rescoring?: number) => recallAt(10, data.queries.map((q) => ids(nearest(quantized, q, 10, null, rescoring === undefined ? {} : { rescoring }))), truth)
  const deep = recall()
  t.ok(deep >= 0.85, `default depth: recall@10 ${deep.toFixed(3)} ≥ 0.85`)
  const shallow = recall(2)
  t.ok(shallow < deep, `depth 20: recall@10 ${shallow.toFixed(3)} < ${deep.toFixed(3)}`)
})
