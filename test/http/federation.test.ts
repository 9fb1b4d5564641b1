/**
 * Federated multi-search (issue 21) through the official client: `federation.facetsByIndex`, `mergeFacets`,
 * `distinct` and `showPerformanceDetails`, with Meilisearch's shapes (`search/federated/types.rs`
 * `FederatedFacets::merge`) and errors (search/performance_details.rs invalid_federated_search, federated_search).
 */
import t from 'tap'
import { call, serverFor, seedIndex } from '../helpers/server.js'
import { err, MOVIES } from '../helpers/meili.js'

t.test('federation', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  await seedIndex(url, 'movies', { filterableAttributes: ['color', 'year'] }, MOVIES.map((m, i) => ({ ...m, year: 2000 + i })))
  await seedIndex(url, 'shirts', { filterableAttributes: ['color', 'size'], faceting: { sortFacetValuesBy: { '*': 'count' } } }, [
    { id: 1, name: 'red shirt', color: 'red', size: 3 }, { id: 2, name: 'blue shirt', color: 'blue', size: 1 },
    { id: 3, name: 'blue tee', color: 'blue', size: 2 }, { id: 4, name: 'green tee', color: 'green', size: 9 },
  ])
  const multi = (body: Record<string, unknown>) => call(`${url}/multi-search`, { method: 'POST', json: body })

  await t.test('facetsByIndex: per index, over the documents its queries matched', async (t) => {
    const res = await client.multiSearch({
      federation: { facetsByIndex: { movies: ['color', 'year'], shirts: ['color'] } },
      queries: [{ indexUid: 'movies', q: '', filter: 'color = blue' }, { indexUid: 'shirts', q: 'shirt' }],
    })
    t.same(Object.keys(res), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetsByIndex'])
    t.strictSame(res.facetsByIndex, {
      movies: { distribution: { color: { blue: 3, green: 1, red: 1, yellow: 1 }, year: { 2000: 1, 2001: 1, 2004: 1 } }, stats: { year: { min: 2000, max: 2004 } } },
      shirts: { distribution: { color: { blue: 1, red: 1 } }, stats: {} },
    })
    // Two queries of one index: the union of what they matched.
    const both = await client.multiSearch({
      federation: { facetsByIndex: { shirts: ['color'] } },
      queries: [{ indexUid: 'shirts', q: 'red' }, { indexUid: 'shirts', q: 'tee' }],
    })
    t.strictSame(both.facetsByIndex, { shirts: { distribution: { color: { blue: 1, green: 1, red: 1 } }, stats: {} } }, 'the index\'s own order: by count')
  })

  await t.test('mergeFacets: one distribution, counts summed, stats widened, cut at maxValuesPerFacet', async (t) => {
    const res = await client.multiSearch({
      federation: { facetsByIndex: { movies: ['color'], shirts: ['color', 'size'] }, mergeFacets: { maxValuesPerFacet: 3 } },
      queries: [{ indexUid: 'movies', q: '' }, { indexUid: 'shirts', q: '' }],
    })
    t.same(Object.keys(res), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution', 'facetStats'])
    // color: movies orders alpha (the first index naming it decides); 3 values kept.
    t.strictSame(res.facetDistribution, { color: { blue: 5, green: 3, red: 4 }, size: { 1: 1, 2: 1, 3: 1 } })
    t.strictSame(res.facetStats, { size: { min: 1, max: 9 } })
    const unlimited = await client.multiSearch({ federation: { facetsByIndex: { movies: ['color'], shirts: ['color'] }, mergeFacets: {} }, queries: [{ indexUid: 'movies', q: '' }, { indexUid: 'shirts', q: '' }] })
    t.strictSame(unlimited.facetDistribution, { color: { blue: 5, green: 3, red: 4, yellow: 2 } })
  })

  await t.test('facet errors name where they come from', async (t) => {
    const bad = await multi({ federation: { facetsByIndex: { shirts: ['name'] } }, queries: [{ indexUid: 'movies', q: '' }, { indexUid: 'shirts', q: '' }] })
    t.equal(bad.status, 400)
    t.same(bad.body, err('Inside `.federation.facetsByIndex.shirts`: Invalid facet distribution: Attribute `name` is not filterable. Available filterable attributes patterns are: `color, size`.\n - Note: index `shirts` used in `.queries[1]`', 'invalid_multi_search_facets'))
    const unused = await multi({ federation: { facetsByIndex: { shirts: ['name'] } }, queries: [{ indexUid: 'movies', q: '' }] })
    t.equal(unused.body.message, 'Inside `.federation.facetsByIndex.shirts`: Invalid facet distribution: Attribute `name` is not filterable. Available filterable attributes patterns are: `color, size`.\n - Note: index `shirts` is not used in queries')
  })

  await t.test('distinct: one hit per value across the merged indexes', async (t) => {
    const all = await client.multiSearch({ federation: {}, queries: [{ indexUid: 'movies', q: '' }, { indexUid: 'shirts', q: '' }] })
    t.equal(all.hits.length, 9)
    const res = await client.multiSearch({ federation: { distinct: 'color' }, queries: [{ indexUid: 'shirts', q: '' }, { indexUid: 'movies', q: '' }] })
    const seen = res.hits.map((h) => h.color)
    // shirts: red, blue, green (the blue tee shares blue); movies: Shazam [green, blue] and Escape Room [yellow, red]
    // are distinct within movies, but each has a value the shirts took first.
    t.same(seen, ['red', 'blue', 'green'], 'each index distinct on color, and a value taken once across them')
    const moviesFirst = await client.multiSearch({ federation: { distinct: 'color' }, queries: [{ indexUid: 'movies', q: '' }, { indexUid: 'shirts', q: '' }] })
    t.same(moviesFirst.hits.map((h) => h.id), ['287947', '522681'], 'Shazam and Escape Room take every color the shirts have')
    const typed = await multi({ federation: { distinct: 1 }, queries: [] })
    t.same(typed.body, err('Invalid value type at `.federation.distinct`: expected a string, but found a positive integer: `1`', 'invalid_multi_search_distinct'))
    const notFilterable = await multi({ federation: { distinct: 'name' }, queries: [{ indexUid: 'shirts', q: '' }] })
    t.equal(notFilterable.body.code, 'invalid_search_distinct')
  })

  await t.test('showPerformanceDetails (search/performance_details.rs federated_search, invalid_federated_search)', async (t) => {
    const res = await client.multiSearch({ federation: { showPerformanceDetails: true }, queries: [{ indexUid: 'movies', q: 'glass' }] })
    t.same(Object.keys(res), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'performanceDetails'])
    const details = res.performanceDetails as Record<string, string>
    t.same(Object.keys(details), ['federated search > queries', 'federated search > facets', 'federated search > merge', 'federated search'])
    for (const v of Object.values(details)) t.match(v, /^\d+\.\d{2}(ns|µs|ms|s)$/)
    const perQuery = await multi({ federation: {}, queries: [{ indexUid: 'movies', q: 'glass', showPerformanceDetails: true }] })
    t.same(perQuery.body, err('Inside `.queries[0]`: Using `.showPerformanceDetails` is not allowed in federated queries.\n - Hint: remove `showPerformanceDetails` from query #0 or remove `federation` from the request', 'invalid_multi_search_query_show_performance_details'))
    const typed = await multi({ federation: { showPerformanceDetails: 'true' }, queries: [{ indexUid: 'movies', q: 'glass' }] })
    t.same(typed.body, err('Invalid value type at `.federation.showPerformanceDetails`: expected a boolean, but found a string: `"true"`', 'invalid_multi_search_query_show_performance_details'))
  })
})
