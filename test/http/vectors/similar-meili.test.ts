/**
 * `/similar` against Meilisearch's own snapshots (tests/similar/mod.rs, `basic` and `ranking_score_threshold`):
 * the order, `_rankingScore` to the bit (arroy's f32 cosine), vectors shown widened from f32, and the total that
 * drops the documents under `rankingScoreThreshold`.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'

const DOCUMENTS = [
  { title: 'Shazam!', release_year: 2019, id: '287947', _vectors: { manual: [0.8, 0.4, -0.5] } },
  { title: 'Captain Marvel', release_year: 2019, id: '299537', _vectors: { manual: [0.6, 0.8, -0.2] } },
  { title: 'Escape Room', release_year: 2019, id: '522681', _vectors: { manual: [0.1, 0.6, 0.8] } },
  { title: 'How to Train Your Dragon: The Hidden World', release_year: 2019, id: '166428', _vectors: { manual: [0.7, 0.7, -0.4] } },
  { title: 'All Quiet on the Western Front', release_year: 1930, id: '143', _vectors: { manual: [-0.5, 0.3, 0.85] } },
]

t.test('similar documents as Meilisearch snapshots them', async (t) => {
  const { url } = await serverFor(t)
  const settings = await call(`${url}/indexes/test/settings`, { method: 'PATCH', json: { embedders: { manual: { source: 'userProvided', dimensions: 3 } }, filterableAttributes: ['title'] } })
  t.equal((await waitTask(url, settings.body.taskUid)).status, 'succeeded')
  const added = await call(`${url}/indexes/test/documents`, { method: 'POST', json: DOCUMENTS })
  t.equal((await waitTask(url, added.body.taskUid)).status, 'succeeded')
  const similar = (json: unknown) => call(`${url}/indexes/test/similar`, { method: 'POST', json })

  const basic = await similar({ id: 143, retrieveVectors: true, embedder: 'manual' })
  t.equal(basic.status, 200)
  t.same(basic.body.hits[0], {
    title: 'Escape Room', release_year: 2019, id: '522681',
    _vectors: { manual: { embeddings: [[0.10000000149011612, 0.6000000238418579, 0.800000011920929]], regenerate: false } },
  })
  t.same(basic.body.hits.map((h: { id: string }) => h.id), ['522681', '299537', '166428', '287947'])

  const scores = [0.890957772731781, 0.39060014486312866, 0.2819308042526245, 0.1662663221359253]
  for (const [threshold, count] of [[0, 4], [0.2, 3], [0.3, 2], [0.6, 1], [0.9, 0]] as const) {
    const r = await similar({ id: 143, showRankingScore: true, rankingScoreThreshold: threshold, retrieveVectors: true, embedder: 'manual' })
    t.equal(r.status, 200)
    t.same(r.body.hits.map((h: { _rankingScore: number }) => h._rankingScore), scores.slice(0, count), `threshold ${threshold}: scores`)
    if (count > 0) t.equal(r.body.estimatedTotalHits, count, `threshold ${threshold}: the total leaves out the documents under it`)
  }

  // performance_details: the stages' durations last, after the paging fields, on POST and GET.
  for (const r of [
    await similar({ id: 143, embedder: 'manual', showPerformanceDetails: true }),
    await call(`${url}/indexes/test/similar?id=143&embedder=manual&showPerformanceDetails=true`),
  ]) {
    t.equal(r.status, 200)
    t.same(Object.keys(r.body), ['hits', 'id', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'performanceDetails'])
    t.equal(typeof r.body.performanceDetails.similar, 'string', 'the whole request under `similar`')
    t.same(r.body.hits[0], { title: 'Escape Room', release_year: 2019, id: '522681' })
  }
  const bad = await call(`${url}/indexes/test/similar?id=143&embedder=manual&showPerformanceDetails=yes`)
  t.equal(bad.body.code, 'invalid_similar_show_performance_details')
})
