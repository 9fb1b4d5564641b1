/**
 * Graph building off the indexing thread: a batch of at least GRAPH_JOB_MIN vectors has its graph built by the
 * `buildGraph` job (here run by a real worker pool) from a copy of the published graph; the published view keeps
 * its graph untouched (old view or new view, never a mix); recall stays that of a graph built in place.
 */
import t from 'tap'
import { clusteredVectors, recallAt } from '../../../bench/data/clustered-vectors.js'
import { VectorDraft } from '../../../engine/vectors/draft.js'
import { GRAPH_JOB_MIN, type GraphBuildInput } from '../../../engine/vectors/graph-build.js'
import { exactNearest, nearest } from '../../../engine/vectors/search.js'
import { NO_VECTORS, type IndexVectors } from '../../../engine/vectors/space.js'
import { runJob } from '../../../engine/pool/jobs.js'
import { createWorkerPool } from '../../../workers/pool.js'

const SETTINGS = { e: { source: 'userProvided' as const, dimensions: 64 } }

t.test('graphs built in the pool', async (t) => {
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  let jobs = 0
  const build = (input: GraphBuildInput) => { jobs++; return runJob(pool, 'buildGraph', input) }
  const data = clusteredVectors({ count: 3000, dims: 64, clusters: 20, queries: 50, seed: 3 })
  const batch = async (base: IndexVectors, docs: [number, Float32Array][]) => {
    const draft = new VectorDraft(1, base, (_n, next) => next)
    for (const [docid, v] of docs) draft.set(docid, { e: { embeddings: [v], userProvided: true, regenerate: false } })
    await draft.finalOps(SETTINGS, () => {}, { build })
    return draft.result()!.spaces
  }
  const ids = (hits: { docid: number }[]) => hits.map((h) => h.docid)

  // A first batch of 2,000 documents, then one replacing 600 of them (other vectors) and adding 400.
  const first = await batch(NO_VECTORS, data.vectors.slice(0, 2000).map((v, i) => [i, v]))
  t.equal(jobs, 1, 'built in the pool')
  const v1 = first.get('e')!
  t.equal(v1.graph!.size, 2000)
  const replaced: [number, Float32Array][] = data.vectors.slice(2000, 2600).map((v, i) => [i, v])
  const added: [number, Float32Array][] = data.vectors.slice(2600).map((v, i) => [2000 + i, v])
  const second = await batch(first, [...replaced, ...added])
  t.equal(jobs, 2)
  const v2 = second.get('e')!
  t.not(v2.graph, v1.graph, 'the new view has a graph of its own')
  t.equal(v1.graph!.size, 2000, 'the published view\'s graph is untouched')
  t.equal(v2.graph!.size, 2400, 'replaced vectors are out of the new graph (2,000 + 1,000 new − 600 replaced)')
  for (const q of data.queries.slice(0, 10)) {
    t.ok(ids(nearest(v1, q, 10, null)).every((d) => d < 2000), 'the old view finds only its documents')
  }
  // Recall of the new view against an exact scan of it.
  const truth = data.queries.map((q) => ids(exactNearest(v2, q, 10, null)))
  const recall = recallAt(10, data.queries.map((q) => ids(nearest(v2, q, 10, null))), truth)
  t.ok(recall >= 0.95, `recall@10 ${recall.toFixed(3)} ≥ 0.95`)
  // A replaced document is found by its new vector.
  t.same(ids(nearest(v2, data.vectors[2000]!, 1, null)), [0])

  // Small batches stay on the indexing thread, in the shared graph.
  const third = await batch(second, [[5000, data.vectors[0]!]])
  t.equal(jobs, 2, `fewer than ${GRAPH_JOB_MIN} vectors: no job`)
  t.equal(third.get('e')!.graph, v2.graph, 'the shared graph, with the batch under a fresh slot')
  t.same(ids(nearest(third.get('e')!, data.vectors[0]!, 1, null)), [5000])
})
