/**
 * Search behaviours the official client met that differed from Meilisearch (issue 21), each checked against the
 * Meilisearch test whose snapshot it reproduces (named in each subtest).
 */
import t from 'tap'
import { call, serverFor, seedIndex } from '../helpers/server.js'
import { err, MOVIES, NESTED } from '../helpers/meili.js'

const STAGE_VALUE = /^\d+\.\d{2}(ns|µs|ms|s)$/

t.test('search', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  const search = async (uid: string, body: Record<string, unknown>) => {
    const r = await call(`${url}/indexes/${uid}/search`, { method: 'POST', json: body })
    if (r.status !== 200) throw new Error(`${r.status} ${r.text}`)
    return r.body
  }
  const ids = (body: { hits: { id: unknown }[] }) => body.hits.map((h) => h.id)

  await t.test('showPerformanceDetails (search/performance_details.rs search, multi_search)', async (t) => {
    await seedIndex(url, 'movies', {}, MOVIES)
    const res = await client.index('movies').search('glass', { showPerformanceDetails: true })
    t.same(Object.keys(res), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'performanceDetails'])
    const details = res.performanceDetails as Record<string, string>
    t.same(Object.keys(details), ['search > tokenize', 'search > keyword search', 'search > format', 'search'], 'the stages run, the whole last')
    for (const v of Object.values(details)) t.match(v, STAGE_VALUE)
    t.notOk('performanceDetails' in (await client.index('movies').search('glass')), 'only when asked')
    const get = await call(`${url}/indexes/movies/search?q=glass&showPerformanceDetails=true&filter=id%20%3D%201`)
    t.equal(get.status, 400, 'id is not filterable')
    const viaGet = await call(`${url}/indexes/movies/search?q=glass&showPerformanceDetails=true`)
    t.ok(viaGet.body.performanceDetails['search > tokenize'], 'GET takes it too')
    const multi = await client.multiSearch({ queries: [{ indexUid: 'movies', q: 'glass', showPerformanceDetails: true }, { indexUid: 'movies', q: 'glass' }] })
    t.ok(multi.results[0]!.performanceDetails, 'per query')
    t.notOk('performanceDetails' in multi.results[1]!)
  })

  await t.test('sort: the second attribute breaks the ties of the first; strings as milli orders them', async (t) => {
    // Ties broken in order (documents/get_documents.rs get_document_sorted, the same criteria chain as search), and
    // strings compared as milli's facet keys: trimmed, NFKD, lowercased, diacritics kept as combining marks, byte order
    // (milli `normalize_facet`): `eb` < `emile` < `Eric` < `éa` < `Émile` < `zoe` < `Zoé`.
    await seedIndex(url, 'people', { sortableAttributes: ['name', 'age'], filterableAttributes: ['name', 'age'] }, [
      { id: 1, name: 'Émile', age: 20 }, { id: 2, name: 'emile', age: 20 }, { id: 3, name: 'Eric', age: 10 }, { id: 4, name: 'Zoé', age: 20 },
      { id: 5, name: 'zoe', age: 10 }, { id: 6, name: 'éa', age: 30 }, { id: 7, name: 'eb', age: 30 }, { id: 8, name: 'EMILE', age: 20 },
    ])
    t.same(ids(await search('people', { sort: ['name:asc'] })), [7, 2, 8, 3, 6, 1, 5, 4], 'case folded (2 and 8 tie, internal order), accents kept')
    t.same(ids(await search('people', { sort: ['age:asc', 'name:desc'] })), [5, 3, 4, 1, 2, 8, 6, 7])
    t.same(ids(await search('people', { sort: ['age:desc', 'name:asc'], limit: 3, offset: 2 })), [2, 8, 1], 'the window of the chain')
  })

  await t.test('distinct with page/hitsPerPage counts groups (search/distinct.rs)', async (t) => {
    const docs = [
      [1, 'Leather Jacket', '123456'], [2, 'Leather Jacket', '123456'], [3, 'Leather Jacket', '123456'], [4, 'T-Shirt', '789012'],
      [5, 'T-Shirt', '789012'], [6, 'Running Shoes', '456789'], [7, 'Running Shoes', '456789'], [8, 'Hoodie', '987654'],
      [9, 'Sweater', '234567'], [10, 'Sweater', '234567'], [11, 'Sweater', '234567'], [12, 'Jeans', '345678'], [13, 'Jeans', '345678'],
      [14, 'Jeans', '345678'],
    ].map(([id, description, product]) => ({ id, description, product_id: product }))
    await seedIndex(url, 'products', { distinctAttribute: 'product_id' }, docs)
    const products = (body: { hits: { product_id: string }[] }) => body.hits.map((h) => h.product_id)
    // distinct_search_with_pagination_no_ranking
    const pages: [number, number, string[]][] = [
      [0, 2, []], [1, 2, ['123456', '789012']], [2, 2, ['456789', '987654']], [3, 2, ['234567', '345678']], [4, 2, []],
      [2, 3, ['987654', '234567', '345678']],
    ]
    for (const [page, hitsPerPage, expected] of pages) {
      const r = await search('products', { page, hitsPerPage })
      t.same(products(r), expected, `page ${page} × ${hitsPerPage}`)
      t.equal(r.totalHits, 6)
      t.equal(r.totalPages, hitsPerPage === 2 ? 3 : 2)
    }
    // distinct_search_with_offset_no_ranking: the estimate shrinks as the window grows.
    const offsets: [number, string[], number][] = [
      [0, ['123456', '789012'], 11], [2, ['456789', '987654'], 10], [4, ['234567', '345678'], 6], [5, ['345678'], 6], [6, [], 6], [7, [], 6],
    ]
    for (const [offset, expected, estimated] of offsets) {
      const r = await search('products', { offset, limit: 2 })
      t.same(products(r), expected, `offset ${offset}`)
      t.equal(r.estimatedTotalHits, estimated, `offset ${offset}: estimatedTotalHits`)
    }
  })

  await t.test('filters: accents, STARTS WITH, numbers stored as strings (search/filters.rs; milli normalize_facet)', async (t) => {
    await seedIndex(url, 'films', { filterableAttributes: ['title', 'code'] }, [
      ...MOVIES.map((m) => ({ ...m, code: '1' })), { id: 'x', title: 'Crêpe', code: 1 }, { id: 'y', title: 'crème', code: '01' },
    ])
    await client.updateExperimentalFeatures({ containsFilter: true })
    // search_with_filter_string_notation: `title = Gläss` finds Gläss; an unaccented value is another value.
    t.same(ids(await search('films', { filter: 'title = Gläss' })), ['450465'])
    t.same(ids(await search('films', { filter: 'title = Glass' })), [])
    t.same(ids(await search('films', { filter: 'title STARTS WITH cr' })), ['x', 'y'])
    t.same(ids(await search('films', { filter: 'title STARTS WITH crê' })), ['x'], 'ê is not è')
    t.same(ids(await search('films', { filter: 'title STARTS WITH CRÈ' })), ['y'], 'case folded, accent kept')
    t.same(ids(await search('films', { filter: 'title STARTS WITH gla' })), ['450465'], 'Gläss is gla + U+0308 + ss: it starts with gla')
    t.same(ids(await search('films', { filter: 'title STARTS WITH glas' })), [], 'but not with glas')
    t.same(ids(await search('films', { filter: 'title STARTS WITH GLÄ' })), ['450465'])
    t.same((await search('films', { filter: 'code = 1' })).hits.length, 6, 'the string "1" and the number 1')
    t.same(ids(await search('films', { filter: 'code = 01' })), ['x', 'y'], 'the number 1 (parsed) and the string "01"; not the string "1"')
    t.same(ids(await search('films', { filter: 'code = "01"' })), ['x', 'y'])
    // The not-filterable message quotes the condition (search/errors.rs filter_invalid_attribute_array).
    const bad = await call(`${url}/indexes/films/search`, { method: 'POST', json: { filter: ['title = a', ['many = Glass']] } })
    t.same(bad.body, err('Index `films`: Attribute `many` is not filterable. Available filterable attribute patterns are: `code`, `title`.\n1:5 many = Glass', 'invalid_search_filter'))
    await client.updateExperimentalFeatures({ containsFilter: false })
  })

  await t.test('attributesToSearchOn with nested wildcards (search/restrict_searchable.rs)', async (t) => {
    await seedIndex(url, 'nested', {}, [
      { details: { title: 'Shazam!', desc: 'a Captain Marvel ersatz', weaknesses: ['magic', 'requires transformation'], outfit: { has_cape: true, colors: { primary: 'red', secondary: 'gold' } } }, id: '1' },
      { details: { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", blue_skin: true, outfit: { has_cape: false } }, id: '2' },
      { details: { title: 'Captain Marvel', desc: 'a Shazam ersatz', weaknesses: ['magic', 'power instability'], outfit: { has_cape: false } }, id: '3' },
    ])
    const count = async (body: Record<string, unknown>) => (await search('nested', body)).hits.length
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['*.title'] }), 2, 'nested_search_on_title_with_prefix_wildcard')
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['details.*'] }), 3, 'nested_search_with_suffix_wildcard')
    t.equal(await count({ q: 'gold', attributesToSearchOn: ['details.*'] }), 1)
    t.equal(await count({ q: 'true', attributesToSearchOn: ['details.*'] }), 2)
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['unknown.*', '*.unknown'] }), 0, 'nested_search_no_searchable_attribute_set_with_any_wildcard')
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['unknown.*', '*.unknown', '*.title'] }), 2)
    t.equal(await count({ q: 'Captain Mar', attributesToSearchOn: ['*.title'] }), 2, 'nested_prefix_search_on_title_with_prefix_wildcard')
    t.equal(await count({ q: 'mag', attributesToSearchOn: ['details.*'] }), 2, 'nested_prefix_search_on_weaknesses_with_suffix_wildcard')
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['*.title'], matchingStrategy: 'all' }), 1, 'nested_search_on_title_matching_strategy_all')
    t.same(ids(await search('nested', { q: 'Captain Marvel', attributesToSearchOn: ['*.desc', '*.title'], attributesToRetrieve: ['id'] })), ['3', '1', '2'], 'nested_attributes_ranking_rule_order_with_prefix_wildcard')
    t.same(ids(await search('nested', { q: 'Captain Marvel', attributesToSearchOn: ['details.*'], attributesToRetrieve: ['id'] })), ['3', '1', '2'])
    await client.index('nested').updateSearchableAttributes(['details.title']).waitTask()
    t.equal(await count({ q: 'Captain Marvel', attributesToSearchOn: ['details.*'] }), 2, 'nested_search_on_title_restricted_set_with_suffix_wildcard')
  })

  await t.test('attributesToHighlight ["*"] covers displayed attributes only (search/formatted.rs formatted_contain_wildcard)', async (t) => {
    await seedIndex(url, 'wildcard', { displayedAttributes: ['id', 'cattos'] }, NESTED)
    const hit = (await search('wildcard', { q: 'pésti', attributesToRetrieve: ['father', 'mother'], attributesToHighlight: ['father', 'mother', '*'], attributesToCrop: ['doggos'], showMatchesPosition: true })).hits[0]
    // `length: 5` for the 6-byte "pésti" is the snapshot's (a prefix match sized by the normalized query word).
    t.strictSame(hit, { _formatted: { id: '852', cattos: '<em>pésti</em>' }, _matchesPosition: { cattos: [{ start: 0, length: 5 }] } })
    const exact = (await search('wildcard', { q: 'pésti ', showMatchesPosition: true, attributesToRetrieve: ['id'] })).hits[0]
    t.strictSame(exact._matchesPosition, { cattos: [{ start: 0, length: 6 }] }, 'a whole-word match counts bytes')
  })

  await t.test('proximity (milli search/new/tests/proximity.rs test_proximity_simple)', async (t) => {
    const texts = [
      'the very quick dark brown and smart fox did jump over the terribly lazy and small dog', 'the. quick brown fox jumps over the lazy. dog',
      'the quick brown fox jumps over the lazy. dog', 'dog the quick brown fox jumps over the lazy', 'the quickbrown fox jumps over the lazy dog',
      'brown quick fox jumps over the lazy dog', 'the really quick brown fox jumps over the very lazy dog', 'the really quick brown fox jumps over the lazy dog',
      'the quick brown fox jumps over the lazy', 'the quack brown fox jumps over the lazy dog', 'the quick brown fox jumps over the lazy dog',
    ]
    for (const rules of [['words', 'proximity'], ['proximity']]) {
      const uid = `prox${rules.length}`
      await seedIndex(url, uid, { searchableAttributes: ['text'], rankingRules: rules }, texts.map((text, id) => ({ id, text })))
      const r = await search(uid, { q: 'the quick brown fox jumps over the lazy dog', matchingStrategy: 'all', attributesToRetrieve: ['id'] })
      t.same(ids(r), [9, 10, 4, 7, 6, 2, 3, 5, 1, 0], rules.join(','))
    }
  })

  await t.test('which errors carry the index prefix (search/errors.rs)', async (t) => {
    await seedIndex(url, 'errs', { sortableAttributes: ['id'] }, [{ id: 1, doggo: 'kefir', title: 'x' }])
    const error = async (body: Record<string, unknown>) => (await call(`${url}/indexes/errs/search`, { method: 'POST', json: body })).body
    t.same(await error({ sort: ['title'] }), err('Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.', 'invalid_search_sort'), 'sort_invalid_syntax')
    t.same(await error({ sort: ['_geo:asc'] }), err("`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.", 'invalid_search_sort'), 'sort_geo_reserved_attribute')
    t.same(await error({ sort: ['_geoDistance:asc'] }), err("`_geoDistance` is a reserved keyword and thus can't be used as a sort expression.", 'invalid_search_sort'), 'sort_reserved_attribute')
    t.same(await error({ sort: ['title:asc'] }), err('Index `errs`: Attribute `title` is not sortable. Available sortable attributes are: `id`.', 'invalid_search_sort'), 'sort_unsortable_attribute')
    t.same(await error({ facets: ['doggo'] }), err('Invalid facet distribution: Attribute `doggo` is not filterable. This index does not have configured filterable attributes.', 'invalid_search_facets'), 'multi/mod.rs: no prefix on facet errors')
    // search_with_contains_without_enabling_the_feature (the current wording of the feature gate).
    const gate = 'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763'
    t.same(await error({ filter: 'doggo CONTAINS kefir' }), err(`${gate}\n7:15 doggo CONTAINS kefir`, 'feature_not_enabled'))
    t.same(await error({ filter: 'doggo != echo AND doggo CONTAINS kefir' }), err(`${gate}\n25:33 doggo != echo AND doggo CONTAINS kefir`, 'feature_not_enabled'))
    t.same(await error({ filter: ['doggo != echo', ['doggo CONTAINS kefir']] }), err(`${gate}\n7:15 doggo CONTAINS kefir`, 'feature_not_enabled'))
    t.same(await error({ filter: 'doggo = kefir' }), err('Index `errs`: Attribute `doggo` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo = kefir', 'invalid_search_filter'), 'filter errors keep it')
  })
})

t.test('pagination.maxTotalHits of 0 or less is refused (deserr NonZeroUsize)', async (t) => {
  const server = await serverFor(t)
  const { url, client } = server
  await client.createIndex('p').waitTask()
  const zero = await call(`${url}/indexes/p/settings/pagination`, { method: 'PATCH', json: { maxTotalHits: 0 } })
  t.equal(zero.status, 400)
  t.same(zero.body, err('Invalid value at `.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero', 'invalid_settings_pagination'))
  const negative = await call(`${url}/indexes/p/settings`, { method: 'PATCH', json: { pagination: { maxTotalHits: -1 } } })
  t.same(negative.body, err('Invalid value type at `.pagination.maxTotalHits`: expected a positive integer, but found a negative integer: `-1`', 'invalid_settings_pagination'))
  const inSettings = await call(`${url}/indexes/p/settings`, { method: 'PATCH', json: { pagination: { maxTotalHits: 0 } } })
  t.equal(inSettings.body.message, 'Invalid value at `.pagination.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero')
  await t.rejects(client.index('p').updatePagination({ maxTotalHits: 0 }), { cause: { code: 'invalid_settings_pagination' } })
  t.equal((await client.index('p').updatePagination({ maxTotalHits: 1 }).waitTask()).status, 'succeeded')
  t.same((await client.tasks.getTasks({ types: ['settingsUpdate'] })).results.length, 1, 'refused updates register nothing')
})
