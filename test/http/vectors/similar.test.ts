/** `POST`/`GET /indexes/{uid}/similar`: nearest documents to a document, filters, paging and Meilisearch's errors. */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'

t.test('similar documents', async (t) => {
  const { url } = await serverFor(t)
  const patch = (json: unknown) => call(`${url}/indexes/test/settings`, { method: 'PATCH', json }).then((r) => waitTask(url, r.body.taskUid))
  await patch({ embedders: { manual: { source: 'userProvided', dimensions: 3 } }, filterableAttributes: ['color'] })
  const docs = [
    { id: 1, color: 'red', _vectors: { manual: [1, 0, 0] } },
    { id: 2, color: 'red', _vectors: { manual: [0.9, 0.1, 0] } },
    { id: 3, color: 'blue', _vectors: { manual: [0.7, 0.7, 0] } },
    { id: 4, color: 'blue', _vectors: { manual: [0, 1, 0] } },
    { id: 5, color: 'red', _vectors: { manual: [0, 0, 1] } },
    { id: 6, color: 'red', _vectors: { manual: null } },
  ]
  t.equal((await waitTask(url, (await call(`${url}/indexes/test/documents`, { method: 'POST', json: docs })).body.taskUid)).status, 'succeeded')
  const post = (json: unknown) => call(`${url}/indexes/test/similar`, { method: 'POST', json })
  const ids = (r: { body: any }) => r.body.hits.map((h: any) => h.id)

  await t.test('nearest first, the document itself left out', async (t) => {
    const r = await post({ id: 1, embedder: 'manual' })
    t.equal(r.status, 200)
    t.same(ids(r), [2, 3, 4, 5])
    t.same(Object.keys(r.body), ['hits', 'id', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits'])
    t.equal(r.body.id, '1')
    const get = await call(`${url}/indexes/test/similar?id=1&embedder=manual&limit=2&offset=1&showRankingScore=true`)
    t.same(ids(get), [3, 4])
    t.ok(get.body.hits[0]._rankingScore > get.body.hits[1]._rankingScore)
  })

  await t.test('filter and threshold', async (t) => {
    t.same(ids(await post({ id: 1, embedder: 'manual', filter: 'color = red' })), [2, 5])
    t.same(ids(await post({ id: 1, embedder: 'manual', rankingScoreThreshold: 0.8 })), [2, 3])
    const r = await post({ id: 1, embedder: 'manual', retrieveVectors: true, limit: 1, attributesToRetrieve: ['id'] })
    t.same(r.body.hits, [{ id: 2, _vectors: { manual: { embeddings: [[0.8999999761581421, 0.10000000149011612, 0]], regenerate: false } } }], 'f32 values widened')
  })

  await t.test('errors', async (t) => {
    t.same((await post({ id: 'definitely-doesnt-exist', embedder: 'manual' })).body, err('Document `definitely-doesnt-exist` not found.', 'not_found_similar_id'))
    t.same((await post({ id: 1, embedder: 'auto' })).body, err('Cannot find embedder with name `auto`.', 'invalid_similar_embedder'))
    t.same((await post({ id: ['doggo'] })).body, err('Invalid value at `.id`: the value of `id` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.', 'invalid_similar_id'))
    t.same((await post({ id: 1 })).body, err('Missing field `embedder`', 'bad_request'))
    t.same((await call(`${url}/indexes/test/similar?id=1`)).body, err('Missing parameter `embedder`', 'bad_request'))
    t.same((await post({ id: 1, offset: 'doggo', embedder: 'manual' })).body, err('Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`', 'invalid_similar_offset'))
    t.same((await call(`${url}/indexes/test/similar?id=1&limit=doggo&embedder=manual`)).body, err('Invalid value in parameter `limit`: could not parse `doggo` as a positive integer', 'invalid_similar_limit'))
    t.same((await post({ rankingScoreThreshold: 42 })).body, err('Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.', 'invalid_similar_ranking_score_threshold'))
    t.same((await post({ id: 1, filter: 'many = Glass', embedder: 'manual' })).body, err('Attribute `many` is not filterable. Available filterable attribute patterns are: `color`.\n1:5 many = Glass', 'invalid_similar_filter'))
    const missing = await call(`${url}/indexes/nope/similar`, { method: 'POST', json: { id: 1, embedder: 'manual' } })
    t.equal(missing.status, 404)
    t.same(missing.body, err('Index `nope` not found.', 'index_not_found'))
  })
})
