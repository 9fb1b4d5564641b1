/**
 * Graph building off the indexing thread: a batch of at least GRAPH_JOB_MIN vectors has its graph built by the
 * `buildGraph` job (here run by a real worker pool) from a copy of the published graph; the published view keeps
 * its graph untouched (old view or new view, never a mix); recall stays that of a graph built in place. A run of
 * large batches starts each build from the file the previous one wrote (not a new copy of the graph), and the worker
 * that wrote it extends the graph it kept in memory instead of reading it back.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clusteredVectors, recallAt } from '../../../bench/data/clustered-vectors.js'
import { VectorDraft } from '../../../engine/vectors/draft.js'
import { GRAPH_JOB_MIN, buildGraphFile, type GraphBuildInput, type GraphBuildOutput } from '../../../engine/vectors/graph-build.js'
import { exactNearest, nearest } from '../../../engine/vectors/search.js'
import { NO_VECTORS, type IndexVectors } from '../../../engine/vectors/space.js'
import { runJob } from '../../../engine/pool/jobs.js'
import { createWorkerPool } from '../../../workers/pool.js'

const SETTINGS = { e: { source: 'userProvided' as const, dimensions: 64 } }

t.test('graphs built in the pool', async (t) => {
  const pool = createWorkerPool(1)
  t.teardown(() => pool.close())
  let jobs = 0
  const inputs: GraphBuildInput[] = []
  const outputs: GraphBuildOutput[] = []
  const build = async (input: GraphBuildInput) => {
    jobs++
    inputs.push(input)
    const out = await runJob(pool, 'buildGraph', input)
    outputs.push(out)
    return out
  }
  const drafts: VectorDraft[] = []
  t.teardown(() => { for (const d of drafts) d.discardFiles() })
  const data = clusteredVectors({ count: 3000, dims: 64, clusters: 20, queries: 50, seed: 3 })
  const batch = async (base: IndexVectors, docs: [number, Float32Array][]) => {
    const draft = new VectorDraft(1, base, (_n, next) => next)
    drafts.push(draft)
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
  t.same(inputs[1]!.base, inputs[0]!.out, 'the second build starts from the file the first one wrote')
  t.equal(outputs[1]!.loaded, false, 'the worker extends the graph it kept instead of reading the file')
  const v2 = second.get('e')!
  t.same(v2.graph!.source, inputs[1]!.out, 'the new graph\'s file is the one the build wrote')
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
  t.equal(v2.graph!.source, null, 'an insertion leaves no file holding the graph')

  // The next large batch writes the graph out again, and the worker reads it (it kept another version).
  const fourth = await batch(third, data.vectors.slice(0, 600).map((v, i) => [6000 + i, v]))
  t.equal(jobs, 3)
  t.not(inputs[2]!.base!.id, inputs[1]!.out.id, 'a copy of the graph as it stands now')
  t.equal(outputs[2]!.loaded, true, 'read from the copy')
  const v4 = fourth.get('e')!
  t.equal(v4.graph!.size, 2400 + 1 + 600)
  t.same(ids(nearest(v4, data.vectors[0]!, 2, null)), [5000, 6000], 'the inline batch\'s vector and the new one')
  t.same(ids(nearest(v4, data.vectors[2000]!, 1, null)), [0], 'and the earlier ones')
})

t.test('a worker keeps only the graph it built last', async (t) => {
  const dims = 8
  const dir = mkdtempSync(join(tmpdir(), 'graph-build-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const vectors = (n: number, seed: number) => new Uint8Array(Float32Array.from({ length: n * dims }, (_, i) => Math.sin(i * 7.1 + seed)).buffer)
  const slots = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)
  const a = { file: join(dir, 'a.hnsw'), id: 'a' }
  const b = { file: join(dir, 'b.hnsw'), id: 'b' }
  const c = { file: join(dir, 'c.hnsw'), id: 'c' }
  t.same(buildGraphFile({ dims, base: null, out: a, slots: slots(0, 10), vectors: vectors(10, 1), removed: [] }), { size: 10, loaded: false })
  t.same(buildGraphFile({ dims, base: a, out: b, slots: slots(10, 5), vectors: vectors(5, 2), removed: [0] }), { size: 14, loaded: false }, 'kept')
  t.same(buildGraphFile({ dims, base: a, out: c, slots: slots(20, 5), vectors: vectors(5, 3), removed: [] }), { size: 15, loaded: true }, 'an older version is read from its file')
  t.same(buildGraphFile({ dims, base: c, out: a, slots: slots(40, 1), vectors: vectors(1, 5), removed: [] }), { size: 16, loaded: false }, 'the last one is kept')
  t.throws(() => buildGraphFile({ dims, base: { file: join(dir, 'missing.hnsw'), id: 'x' }, out: b, slots: slots(50, 1), vectors: vectors(1, 6), removed: [] }), 'a version neither kept nor on disk')
})
