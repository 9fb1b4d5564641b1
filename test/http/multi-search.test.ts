/**
 * `POST /multi-search`, with and without `federation`. Expectations come from Meilisearch's
 * `crates/meilisearch/tests/search/multi/mod.rs` snapshots (same fixtures: `DOCUMENTS`, `NESTED_DOCUMENTS`,
 * `SCORE_DOCUMENTS`); scores are compared with the single-index search's `_rankingScore` rather than hard-coded.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../helpers/server.js'
import { err, MOVIES, NESTED } from '../helpers/meili.js'

type Doc = Record<string, unknown>

/** tests/search/mod.rs `SCORE_DOCUMENTS`. */
const SCORE: Doc[] = [
  { title: 'Batman the dark knight returns: Part 1', id: 'A' },
  { title: 'Batman the dark knight returns: Part 2', id: 'B' },
  { title: 'Batman Returns', id: 'C' },
  { title: 'Batman', id: 'D' },
  { title: 'Badman', id: 'E' },
]

t.test('multi-search', async (t) => {
  const { url, client } = await serverFor(t)
  for (const [uid, docs] of [['movies', MOVIES], ['nested', NESTED], ['batman', SCORE]] as const) {
    const r = await call(`${url}/indexes/${uid}/documents?primaryKey=id`, { method: 'POST', json: docs })
    t.equal((await waitTask(url, r.body.taskUid)).status, 'succeeded')
  }
  const multi = (json: unknown) => call(`${url}/multi-search`, { method: 'POST', json })
  const search = async (uid: string, json: Doc) => (await call(`${url}/indexes/${uid}/search`, { method: 'POST', json })).body
  const withoutTime = ({ processingTimeMs, ...rest }: Doc) => {
    t.type(processingTimeMs, 'number')
    return rest
  }
  /** `_rankingScore` of each hit of a single-index search, by id. */
  const scores = async (uid: string, q: string) => {
    const res = await search(uid, { q, showRankingScore: true })
    return new Map<unknown, number>(res.hits.map((h: Doc) => [h.id, h._rankingScore as number]))
  }

  t.test('without federation: one search response per query, in query order', async (t) => {
    const res = await client.multiSearch({ queries: [
      { indexUid: 'movies', q: 'glass' },
      { indexUid: 'nested', q: 'pésti', attributesToRetrieve: ['id'] },
      { indexUid: 'movies', q: 'captain', limit: 1, offset: 0 },
    ] })
    t.equal(res.results.length, 3)
    t.same(res.results.map((r) => r.indexUid), ['movies', 'nested', 'movies'])
    t.same(Object.keys(res.results[0]!), ['indexUid', 'hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits'])
    t.same(withoutTime(res.results[0] as Doc), { indexUid: 'movies', hits: [{ title: 'Gläss', id: '450465', color: ['blue', 'red'] }], query: 'glass', limit: 20, offset: 0, estimatedTotalHits: 1 })
    t.same(withoutTime(res.results[1] as Doc), { indexUid: 'nested', hits: [{ id: 852 }, { id: 654 }], query: 'pésti', limit: 20, offset: 0, estimatedTotalHits: 2 })
    const single = await search('movies', { q: 'captain', limit: 1 })
    t.same(withoutTime(res.results[2] as Doc), { indexUid: 'movies', ...withoutTime(single) }, 'the same response as the single-index search')

    t.same((await multi({ queries: [] })).body, { results: [] })
    const page = await multi({ queries: [{ indexUid: 'movies', page: 2, hitsPerPage: 2, offset: null, limit: null }] })
    t.equal(page.status, 200)
    t.same(withoutTime(page.body.results[0]), { indexUid: 'movies', ...withoutTime(await search('movies', { page: 2, hitsPerPage: 2 })) }, '`offset`/`limit` null are absent')
  })

  t.test('federated: hits merged by weighted score, with _federation', async (t) => {
    const empty = await multi({ federation: {}, queries: [] })
    t.equal(empty.status, 200)
    t.same(withoutTime(empty.body), { hits: [], limit: 20, offset: 0, estimatedTotalHits: 0 })

    const pesti = await scores('nested', 'pésti')
    const res = await client.multiSearch({ federation: {}, queries: [{ indexUid: 'movies', q: 'glass' }, { indexUid: 'nested', q: 'pésti' }] })
    t.same(Object.keys(res), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits'])
    t.same(withoutTime(res as unknown as Doc), {
      hits: [
        { ...MOVIES[4], _federation: { indexUid: 'movies', queriesPosition: 0, weightedRankingScore: 1 } },
        { ...NESTED[0], _federation: { indexUid: 'nested', queriesPosition: 1, weightedRankingScore: 1 } },
        { ...NESTED[1], _federation: { indexUid: 'nested', queriesPosition: 1, weightedRankingScore: pesti.get(654) } },
      ],
      limit: 20, offset: 0, estimatedTotalHits: 3,
    }, 'equal scores go to the lower query position; estimatedTotalHits sums the queries')
    t.same(Object.keys(res.hits[1]!), ['id', 'father', 'mother', 'doggos', 'cattos', '_federation'], '_federation after the document')

    // Meilisearch's federation_multiple_search_single_index snapshot: the same order.
    const batman = await multi({ federation: {}, queries: [
      { indexUid: 'batman', q: 'the bat' }, { indexUid: 'batman', q: 'badman returns' },
      { indexUid: 'batman', q: 'batman' }, { indexUid: 'batman', q: 'batman returns' },
    ] })
    t.same(batman.body.hits.map((h: Doc) => [h.id, (h._federation as Doc).queriesPosition]), [['D', 2], ['C', 3], ['A', 2], ['B', 2], ['E', 1]],
      'a document found by several queries of an index appears once, from its best query')
    t.equal(batman.body.estimatedTotalHits, 5, 'the candidates of an index are counted once')
    for (let i = 1; i < batman.body.hits.length; i++) {
      t.ok(batman.body.hits[i - 1]._federation.weightedRankingScore >= batman.body.hits[i]._federation.weightedRankingScore)
    }
  })

  t.test('federated: weights, _rankingScore and formatting', async (t) => {
    const glass = await scores('movies', 'glass')
    const pesti = await scores('nested', 'pésti')
    const res = await multi({ federation: {}, queries: [
      { indexUid: 'movies', q: 'glass', federationOptions: { weight: 0.5 }, showRankingScore: true, attributesToHighlight: ['title'], attributesToRetrieve: ['title'] },
      { indexUid: 'nested', q: 'pésti', attributesToRetrieve: ['id'], federationOptions: { weight: 1 } },
    ] })
    t.equal(res.status, 200)
    t.same(res.body.hits, [
      { id: 852, _federation: { indexUid: 'nested', queriesPosition: 1, weightedRankingScore: pesti.get(852) } },
      { id: 654, _federation: { indexUid: 'nested', queriesPosition: 1, weightedRankingScore: pesti.get(654) } },
      {
        title: 'Gläss',
        _federation: { indexUid: 'movies', queriesPosition: 0, weightedRankingScore: glass.get('450465')! * 0.5 },
        _formatted: { title: '<em>Gläss</em>' },
        _rankingScore: glass.get('450465'),
      },
    ], 'weightedRankingScore = _rankingScore × weight; _rankingScore only where asked, after _federation and _formatted')
    t.same(Object.keys(res.body.hits[2]), ['title', '_federation', '_formatted', '_rankingScore'])

    const zero = await multi({ federation: {}, queries: [
      { indexUid: 'movies', q: 'glass', federationOptions: { weight: 0 } },
      { indexUid: 'nested', q: 'pésti' },
    ] })
    t.same(zero.body.hits.map((h: Doc) => h.id), [852, 654, '450465'], 'a weight of 0 ranks last')
    t.equal(zero.body.hits[2]._federation.weightedRankingScore, 0)
  })

  t.test('federated pagination', async (t) => {
    const queries = [{ indexUid: 'movies', q: 'glass' }, { indexUid: 'nested', q: 'pésti' }, { indexUid: 'batman', q: 'batman' }]
    const all = (await multi({ federation: {}, queries })).body
    const ids = all.hits.map((h: Doc) => h.id)
    t.equal(all.estimatedTotalHits, 8)

    const sliced = await multi({ federation: { offset: 2, limit: 3 }, queries })
    t.same(withoutTime(sliced.body), { hits: all.hits.slice(2, 5), limit: 3, offset: 2, estimatedTotalHits: 8 })
    const beyond = await multi({ federation: { offset: 8 }, queries })
    t.same(withoutTime(beyond.body), { hits: [], limit: 20, offset: 8, estimatedTotalHits: 8 })

    const page = await client.multiSearch({ federation: { page: 2, hitsPerPage: 3 }, queries })
    t.same(Object.keys(page), ['hits', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits'])
    t.same(withoutTime(page as unknown as Doc), { hits: all.hits.slice(3, 6), hitsPerPage: 3, page: 2, totalPages: 3, totalHits: 8 })
    t.same((page as unknown as { hits: Doc[] }).hits.map((h) => h.id), ids.slice(3, 6))
    const page0 = await multi({ federation: { page: 0 }, queries })
    t.same(withoutTime(page0.body), { hits: [], hitsPerPage: 20, page: 0, totalPages: 1, totalHits: 8 })
    const perPage = await multi({ federation: { hitsPerPage: 2 }, queries })
    t.same(withoutTime(perPage.body), { hits: all.hits.slice(0, 2), hitsPerPage: 2, page: 1, totalPages: 4, totalHits: 8 })
    const zero = await multi({ federation: { hitsPerPage: 0 }, queries })
    t.same(withoutTime(zero.body), { hits: [], hitsPerPage: 0, page: 1, totalPages: 0, totalHits: 8 })

    const count = (await search('batman', { q: 'batman' })).estimatedTotalHits
    t.ok(count > 2)
    const maxed = await call(`${url}/indexes/batman/settings/pagination`, { method: 'PATCH', json: { maxTotalHits: 2 } })
    await waitTask(url, maxed.body.taskUid)
    const bounded = await multi({ federation: {}, queries: [{ indexUid: 'batman', q: 'batman' }] })
    t.equal(bounded.body.hits.length, 2, 'each query is bounded by its index maxTotalHits')
    t.equal(bounded.body.estimatedTotalHits, count, 'but its candidates are all counted')
  })

  t.test('validation errors', async (t) => {
    const expect = async (body: unknown, status: number, expected: ReturnType<typeof err>, what: string) => {
      const res = await multi(body)
      t.equal(res.status, status, what)
      t.same(res.body, expected, what)
    }
    await expect({}, 400, err('Missing field `queries`', 'bad_request'), 'no queries')
    await expect({ federation: {} }, 400, err('Missing field `queries`', 'bad_request'), 'federation without queries')
    await expect([], 400, err('Invalid value type: expected an object, but found an array: `[]`', 'bad_request'), 'not an object')
    await expect({ queries: {} }, 400, err('Invalid value type at `.queries`: expected an array, but found an object: `{}`', 'bad_request'), 'queries not an array')
    await expect({ queries: [], foo: 1 }, 400, err('Unknown field `foo`: expected one of `queries`, `federation`', 'bad_request'), 'unknown top-level field')
    await expect({ queries: [{ q: 'glass' }] }, 400, err('Missing field `indexUid` inside `.queries[0]`', 'missing_index_uid'), 'missing indexUid')
    await expect({ federation: {}, queries: [{ q: 'glass' }] }, 400, err('Missing field `indexUid` inside `.queries[0]`', 'missing_index_uid'), 'missing indexUid, federated')
    await expect({ queries: [{ indexUid: 'hé', q: 'glass' }] }, 400, err('Invalid value at `.queries[0].indexUid`: `hé` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.', 'invalid_index_uid'), 'illegal indexUid')
    await expect({ queries: [{ indexUid: 'movies', q: 1 }] }, 400, err('Invalid value type at `.queries[0].q`: expected a string, but found a positive integer: `1`', 'invalid_search_q'), 'a search parameter, located in its query')
    await expect({ queries: [{ indexUid: 'movies', limit: -1 }] }, 400, err('Invalid value type at `.queries[0].limit`: expected a positive integer, but found a negative integer: `-1`', 'invalid_search_limit'), 'limit')
    const unknown = await multi({ queries: [{ indexUid: 'movies', foo: 1 }] })
    t.equal(unknown.body.code, 'bad_request')
    t.match(unknown.body.message, /^Unknown field `foo` inside `\.queries\[0\]`: expected one of `indexUid`, `q`, .*`showPerformanceDetails`, `federationOptions`$/)
    await expect({ federation: { foo: 1 }, queries: [] }, 400, err('Unknown field `foo` inside `.federation`: expected one of `limit`, `offset`, `page`, `hitsPerPage`, `facetsByIndex`, `mergeFacets`, `distinct`, `showPerformanceDetails`', 'bad_request'), 'unknown federation field')
    await expect({ federation: { limit: 'x' }, queries: [] }, 400, err('Invalid value type at `.federation.limit`: expected a positive integer, but found a string: `"x"`', 'invalid_search_limit'), 'federation.limit')
    await expect({ federation: {}, queries: [{ indexUid: 'movies', federationOptions: { foo: 1 } }] }, 400, err('Unknown field `foo` inside `.queries[0].federationOptions`: expected one of `weight`, `remote`, `queryPosition`', 'bad_request'), 'unknown federationOptions field')

    // Index not found: 400, located at the query (federated: the first missing index in uid order).
    await expect({ queries: [{ indexUid: 'movies', q: 'glass' }, { indexUid: 'nope', q: 'pésti' }] }, 400, err('Inside `.queries[1]`: Index `nope` not found.', 'index_not_found'), 'missing index')
    await expect({ federation: {}, queries: [{ indexUid: 'movies', q: 'glass' }, { indexUid: 'nope', q: 'pésti' }] }, 400, err('Inside `.queries[1]`: Index `nope` not found.', 'index_not_found'), 'missing index, federated')
    await expect({ queries: [{ indexUid: 'test' }, { indexUid: 'nope' }] }, 400, err('Inside `.queries[0]`: Index `test` not found.', 'index_not_found'), 'the first missing index in query order')
    await expect({ federation: {}, queries: [{ indexUid: 'test' }, { indexUid: 'nope' }, { indexUid: 'nope' }] }, 400, err('Inside `.queries[1]`: Index `nope` not found.', 'index_not_found'), 'federated: the first in uid order, at its first query')
    await expect({ federation: { facetsByIndex: { zorglub: ['title'] } }, queries: [{ indexUid: 'movies' }] }, 400, err('Inside `.federation.facetsByIndex.zorglub`: Index `zorglub` not found.\n - Note: index `zorglub` is not used in queries', 'index_not_found'), 'facetsByIndex names a missing index')

    const restricted = await call(`${url}/indexes/restricted/settings`, { method: 'PATCH', json: { searchableAttributes: ['title'] } })
    await waitTask(url, restricted.body.taskUid)
    const searchOn = await multi({ queries: [{ indexUid: 'movies', q: 'glass' }, { indexUid: 'restricted', q: 'glass', attributesToSearchOn: ['nope'] }] })
    t.equal(searchOn.status, 400)
    t.equal(searchOn.body.code, 'invalid_search_attributes_to_search_on')
    t.match(searchOn.body.message, /^Inside `\.queries\[1\]`: Index `restricted`: Attribute `nope` is not searchable/, 'errors of a search are located at their query')

    for (const [field, value] of [['limit', 5], ['offset', 5], ['page', 2], ['hitsPerPage', 5]] as const) {
      await expect({ federation: {}, queries: [{ indexUid: 'movies', q: 'apple red' }, { indexUid: 'movies', q: 'apple red', [field]: value }] }, 400,
        err(`Inside \`.queries[1]\`: Using pagination options is not allowed in federated queries.\n - Hint: remove \`${field}\` from query #1 or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`, 'invalid_multi_search_query_pagination'),
        `${field} in a federated query`)
    }
    await expect({ federation: {}, queries: [{ indexUid: 'movies', q: 'apple red' }, { indexUid: 'movies', q: 'apple red', facets: ['BOOSTED'] }] }, 400,
      err('Inside `.queries[1]`: Using facet options is not allowed in federated queries.\n - Hint: remove `facets` from query #1 or remove `federation` from the request\n - Hint: pass `federation.facetsByIndex.movies: ["BOOSTED"]` for facets in federated search', 'invalid_multi_search_query_facets'),
      'facets in a federated query')
    t.equal((await multi({ federation: {}, queries: [{ indexUid: 'movies', q: 'glass', facets: [] }] })).status, 200, 'empty facets are allowed')

    await expect({ federation: {}, queries: [{ indexUid: 'movies', q: 'glass', federationOptions: { weight: 3.0 } }, { indexUid: 'movies', q: 'glass', federationOptions: { weight: -12 } }] }, 400,
      err('Invalid value at `.queries[1].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).', 'invalid_multi_search_weight'), 'negative weight')
    await expect({ federation: {}, queries: [{ indexUid: 'movies', federationOptions: { weight: 'x' } }] }, 400,
      err('Invalid value type at `.queries[0].federationOptions.weight`: expected a number, but found a string: `"x"`', 'invalid_multi_search_weight'), 'weight not a number')
    await expect({ queries: [{ indexUid: 'movies', q: 'apple red' }, { indexUid: 'movies', q: 'apple red', federationOptions: {} }] }, 400,
      err('Inside `.queries[1]`: Using `federationOptions` is not allowed in a non-federated search.\n - Hint: remove `federationOptions` from query #1 or add `federation` to the request.', 'invalid_multi_search_federation_options'),
      'federationOptions without federation')
    await expect({ federation: {}, queries: [{ indexUid: 'movies', federationOptions: { queryPosition: 3 } }] }, 400,
      err('Using `federationOptions.queryPosition` requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805', 'feature_not_enabled'),
      'queryPosition needs the network feature')
  })
})
