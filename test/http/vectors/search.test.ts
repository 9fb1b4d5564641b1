/**
 * Semantic and hybrid search through the `meilisearch` client and fetch, with hand-made vectors whose neighbours
 * are known; expected hits and scores are Meilisearch's (tests/search/hybrid.rs snapshots).
 */
import t, { type Test } from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'

const DOCS = [
  { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1', _vectors: { default: [1.0, 3.0] } },
  { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2', _vectors: { default: [1.0, 2.0] } },
  { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3', _vectors: { default: [2.0, 3.0] } },
]

t.test('semantic and hybrid search', async (t) => {
  const { url, client } = await serverFor(t)
  const index = client.index('test')
  await client.tasks.waitForTask((await index.updateSettings({ embedders: { default: { source: 'userProvided', dimensions: 2 } } })).taskUid)
  const added = await client.tasks.waitForTask((await index.addDocuments(DOCS)).taskUid)
  t.equal(added.status, 'succeeded')
  const search = (json: Record<string, unknown>) => call(`${url}/indexes/test/search`, { method: 'POST', json })
  const ids = (r: { body: any }) => r.body.hits.map((h: any) => h.id)
  const scores = (r: { body: any }) => r.body.hits.map((h: any) => h._rankingScore)
  /** Scores equal to Meilisearch's up to the last bits of a double (its f32 → f64 steps differ from ours). */
  const close = (t: Test, actual: number[], expected: number[], within = 1e-12) => {
    t.equal(actual.length, expected.length)
    expected.forEach((e, i) => t.ok(Math.abs(actual[i]! - e) < within, `score ${i}: ${actual[i]} ≈ ${e}`))
  }

  await t.test('hybrid merges keyword and semantic hits by the ratio', async (t) => {
    let r = await search({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 0.2, embedder: 'default' }, retrieveVectors: true })
    t.same(ids(r), ['2', '3', '1'])
    t.equal(r.body.semanticHitCount, 0)
    t.same(r.body.hits[0]._vectors, { default: { embeddings: [[1, 2]], regenerate: false } })
    r = await search({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 0.5, embedder: 'default' }, showRankingScore: true })
    t.same(ids(r), ['3', '2', '1'])
    close(t, scores(r), [0.990290343761444, 0.9848484848484848, 0.9472135901451112])
    t.equal(r.body.semanticHitCount, 2)
    r = await search({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 0.8, embedder: 'default' }, showRankingScore: true })
    close(t, scores(r), [0.990290343761444, 0.974341630935669, 0.9472135901451112])
    t.equal(r.body.semanticHitCount, 3)
  })

  await t.test('limit and offset apply to the merged hits', async (t) => {
    let r = await search({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 0.2, embedder: 'default' }, offset: 1, limit: 1 })
    t.same(ids(r), ['3'])
    t.equal(r.body.semanticHitCount, 0)
    r = await search({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 0.9, embedder: 'default' }, offset: 1, limit: 1 })
    t.same(ids(r), ['2'])
    t.equal(r.body.semanticHitCount, 1)
  })

  await t.test('pure semantic search through the client, with a vector and no q', async (t) => {
    const r = await index.search(null, { vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, showRankingScore: true, showRankingScoreDetails: true })
    t.same(r.hits.map((h) => h.id), ['3', '2', '1'])
    t.equal((r as { semanticHitCount?: number }).semanticHitCount, 3)
    t.equal(r.estimatedTotalHits, 3)
    close(t, [(r.hits[0]!._rankingScoreDetails as any).vectorSort.similarity], [0.990290343761444])
    t.same(Object.keys(r.hits[0]!._rankingScoreDetails!), ['vectorSort'])
    t.notOk('queryVector' in r, 'queryVector only with retrieveVectors')
    const withVector = await index.search(null, { vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, retrieveVectors: true })
    t.same(withVector.queryVector, [1, 1])
  })

  await t.test('distribution shifts semantic scores', async (t) => {
    await waitTask(url, (await call(`${url}/indexes/test/settings`, { method: 'PATCH', json: { embedders: { default: { distribution: { mean: 0.998, sigma: 0.01 } } } } })).body.taskUid)
    const r = await search({ q: 'Captain', vector: [1, 1], showRankingScore: true, hybrid: { embedder: 'default', semanticRatio: 1.0 } })
    // Exactly Meilisearch's (tests/search/hybrid.rs distribution_shift): the shift runs milli's f32 operations in
    // milli's order; the older (score - mean) / sigma form gave 0.19161272048950195.
    t.same(scores(r), [0.19161224365234375, 1.1920928955078125e-7, 1.1920928955078125e-7])
    await waitTask(url, (await call(`${url}/indexes/test/settings`, { method: 'PATCH', json: { embedders: { default: { distribution: null } } } })).body.taskUid)
  })

  await t.test('errors', async (t) => {
    let r = await search({ q: 'Captain', hybrid: { semanticRatio: 1.0, embedder: 'default' } })
    t.equal(r.status, 400)
    t.same(r.body, err('Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`', 'vector_embedding_error'))
    r = await search({ q: 'Planet', hybrid: { semanticRatio: 0.99, embedder: 'default' }, showRankingScore: true })
    t.equal(r.status, 200, 'hybrid without a vector falls back to keyword hits')
    t.same(ids(r), ['2'])
    t.equal(r.body.semanticHitCount, 0)
    r = await search({ q: 'Captain', vector: [1, 0] })
    t.same(r.body, err('Invalid request: missing `hybrid` parameter when `vector` is present.', 'missing_search_hybrid'))
    r = await search({ vector: [1, 0, 0], hybrid: { embedder: 'default', semanticRatio: 1 } })
    t.equal(r.status, 400)
    t.same(r.body, err('Invalid vector dimensions: expected: `2`, found: `3`.', 'invalid_vector_dimensions'))
    r = await search({ vector: [1, 0], hybrid: { embedder: 'nope', semanticRatio: 1 } })
    t.same(r.body, err('Cannot find embedder with name `nope`.', 'invalid_search_embedder'))
    r = await search({ filter: '_vectors.other EXISTS' })
    t.same(r.body, err('Index `test`: The embedder `other` does not exist. Available embedders are: `default`.\n10:15 _vectors.other EXISTS', 'invalid_search_filter'))
  })

  await t.test('documents without vectors come last; _vectors filters', async (t) => {
    await client.tasks.waitForTask((await index.addDocuments([{ id: '4', title: 'No vectors', _vectors: { default: null } }, { id: '5', title: 'Generated', _vectors: { default: { embeddings: [1, 1], regenerate: true } } }])).taskUid)
    const r = await search({ vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, showRankingScore: true })
    t.same(ids(r), ['5', '3', '2', '1', '4'])
    t.equal(r.body.hits[4]._rankingScore, 0)
    const filter = async (f: string) => ids(await search({ filter: f }))
    t.same(await filter('_vectors EXISTS'), ['1', '2', '3', '5'])
    t.same(await filter('_vectors.default EXISTS'), ['1', '2', '3', '5'])
    t.same(await filter('_vectors.default.userProvided EXISTS'), ['1', '2', '3', '4'])
    t.same(await filter('_vectors.default.documentTemplate EXISTS'), ['5'])
    t.same(await filter('_vectors.default.regenerate EXISTS'), ['5'])
    t.same(await filter('NOT _vectors.default EXISTS'), ['4'])
  })

  await t.test('filters apply inside the vector search, and the threshold cuts', async (t) => {
    await client.tasks.waitForTask((await index.updateSettings({ filterableAttributes: ['title'] })).taskUid)
    let r = await search({ vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, filter: 'title = "Shazam!"' })
    t.same(ids(r), ['1'])
    t.equal(r.body.estimatedTotalHits, 1)
    r = await search({ vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, rankingScoreThreshold: 0.98, showRankingScore: true })
    t.same(ids(r), ['5', '3'])
  })

  await t.test('facet search with a semantic query counts every filtered document', async (t) => {
    const r = await call(`${url}/indexes/test/facet-search`, { method: 'POST', json: { facetName: 'title', vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 } } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    t.equal(r.body.facetHits.length, 5)
  })

  await t.test('multi-search and federation with hybrid queries', async (t) => {
    const q = { indexUid: 'test', vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 }, limit: 2 }
    let r = await call(`${url}/multi-search`, { method: 'POST', json: { queries: [q] } })
    t.same(r.body.results[0].hits.map((h: any) => h.id), ['5', '3'])
    t.equal(r.body.results[0].semanticHitCount, 2)
    r = await call(`${url}/multi-search`, { method: 'POST', json: { federation: { limit: 3 }, queries: [{ indexUid: 'test', vector: [1, 1], hybrid: { embedder: 'default', semanticRatio: 1 } }, { indexUid: 'test', q: 'Planet' }] } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    t.same(r.body.hits.map((h: any) => h.id), ['5', '3', '2'])
  })
})
