/**
 * The exact scan (filtered searches over few documents, and the truth of the recall tests): the same neighbours
 * and similarities as cosine computed from scratch, with stored vectors' norms computed once and reused; and above
 * its threshold, the graph walk with the filter inside.
 */
import t from 'tap'
import { RoaringBitmap32 } from '../../../engine/inverted/index.js'
import { cosine, norm, storedNorm } from '../../../engine/vectors/distance.js'
import { EXACT_SCAN_MAX, EXACT_SCAN_SHARE, exactNearest, nearest } from '../../../engine/vectors/search.js'
import { VectorDraft } from '../../../engine/vectors/draft.js'
import { NO_VECTORS } from '../../../engine/vectors/space.js'
import { clusteredVectors, recallAt } from '../../../bench/data/clustered-vectors.js'
import { VectorSpace } from '../../../engine/vectors/space.js'
import type { VectorEntry } from '../../../engine/vectors/codec.js'

t.test('exact scan against cosine from scratch', async (t) => {
  let seed = 7
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5
  const dims = 16
  const entries = new Map<number, VectorEntry>()
  for (let d = 0; d < 300; d++) {
    // Some documents carry two vectors, one carries an all-zero vector (similarity 0).
    const vectors = [Float32Array.from({ length: dims }, rand)]
    if (d % 7 === 0) vectors.push(Float32Array.from({ length: dims }, rand))
    if (d === 5) vectors[0] = new Float32Array(dims)
    entries.set(d * 3, { vectors, packed: [], int8: [], userProvided: true, regenerate: false, slots: vectors.map((_, k) => d * 2 + k) })
  }
  const slotDoc = new Map<number, number>()
  for (const [docid, e] of entries) for (const s of e.slots) slotDoc.set(s, docid)
  const space = new VectorSpace('e', { dims, quantized: false, generation: 1, nextSlot: 600 }, entries, slotDoc, null)
  const allowed = RoaringBitmap32.from([...entries.keys()].filter((d) => d % 2 === 0).concat([1, 4]))
  for (let q = 0; q < 20; q++) {
    const query = Float32Array.from({ length: dims }, rand)
    for (const filter of [null, allowed]) {
      const expected = [...entries]
        .filter(([docid]) => filter === null || filter.has(docid))
        .map(([docid, e]) => ({ docid, similarity: Math.max(...e.vectors.map((v) => cosine(query, v))) }))
        .sort((a, b) => b.similarity - a.similarity || a.docid - b.docid)
        .slice(0, 25)
      t.same(exactNearest(space, query, 25, filter), expected)
    }
  }
  const zero = entries.get(15)!.vectors[0]!
  t.equal(storedNorm(zero), 0)
  const v = entries.get(3)!.vectors[0]!
  t.equal(storedNorm(v), norm(v), 'the stored norm is the norm')
  t.equal(cosine(v, v, norm(v), storedNorm(v)), cosine(v, v))
})

t.test('above EXACT_SCAN_MAX filtered documents the walk takes the filter inside', async (t) => {
  const data = clusteredVectors({ count: EXACT_SCAN_MAX + 8000, dims: 8, clusters: 20, queries: 40, seed: 5 })
  const draft = new VectorDraft(1, NO_VECTORS, (_n, next) => next)
  data.vectors.forEach((v, docid) => draft.set(docid, { e: { embeddings: [v], userProvided: true, regenerate: false } }))
  await draft.finalOps({ e: { source: 'userProvided', dimensions: 8 } }, () => {})
  const space = draft.result()!.spaces.get('e')!
  // Every cluster but one in five: more documents than the exact scan takes, fewer than all.
  const allowed = RoaringBitmap32.from(data.vectors.map((_, i) => i).filter((i) => data.cluster[i]! % 5 !== 0))
  t.ok(allowed.size > EXACT_SCAN_MAX && allowed.size > space.entries.size * EXACT_SCAN_SHARE, `${allowed.size} documents pass`)
  const ids = (hits: { docid: number }[]) => hits.map((h) => h.docid)
  const found = data.queries.map((q) => ids(nearest(space, q, 10, allowed)))
  t.ok(found.every((hits) => hits.length === 10 && hits.every((d) => allowed.has(d))), 'only documents that pass')
  const recall = recallAt(10, found, data.queries.map((q) => ids(exactNearest(space, q, 10, allowed))))
  t.ok(recall >= 0.95, `recall@10 ${recall.toFixed(3)} ≥ 0.95`)
})
