/**
 * Filters, sort, distinct, facet distributions and facet search over HTTP with the `meilisearch` client.
 * Expected orders are derived by hand from Meilisearch's semantics (reference §3, milli's sort/distinct/facet
 * code): numbers sort before strings in both directions and documents without a value come last; distinct keeps
 * the best document per value; facet values are counted over every matching document.
 */
import t from 'tap'
import { MeilisearchApiError } from 'meilisearch'
import { call, seedIndex, serverFor, updateSettings, waitTask } from '../helpers/server.js'

type Doc = Record<string, unknown>

/** One server for the tests that only need an index of their own (`books`, `movies`), started on first use. */
let shared: ReturnType<typeof serverFor> | null = null
const sharedServer = () => (shared ??= serverFor(t))

const BOOKS: Doc[] = [
  { id: 1, title: 'Alpha', genre: 'Fantasy', price: 10, year: 2001, tags: ['magic', 'dragons'], author: { name: 'Ann', born: 1950 }, _geo: { lat: 48.85, lng: 2.35 } },
  { id: 2, title: 'Beta', genre: 'fantasy', price: 5.5, year: 1999, tags: ['magic'], author: { name: 'Bob', born: 1960 }, _geo: { lat: 45.76, lng: 4.83 } },
  { id: 3, title: 'Gamma', genre: 'Science Fiction', price: 20, year: 2010, tags: ['space'], author: { name: 'Ann', born: 1950 }, _geo: { lat: 51.5, lng: -0.12 } },
  { id: 4, title: 'Delta', genre: 'Horror', price: '15', year: null, tags: [], author: { name: 'Cid' } },
  { id: 5, title: 'Epsilon', genre: 'Science Fiction', price: 'cheap', year: 2010, tags: ['space', 'robots'] },
  { id: 6, title: 'Zeta', genre: 'Épopée', year: 1800, tags: ['war'], author: { name: 'Bob', born: 1960 }, _geo: { lat: 43.3, lng: 5.37 } },
]

t.test('filters, sort, distinct and facets', async (t) => {
  const server = await serverFor(t)
  const { url, client } = server
  await seedIndex(url, 'books', {
    filterableAttributes: ['genre', 'price', 'year', 'tags', 'author', '_geo'],
    sortableAttributes: ['price', 'year', 'title', 'author.born', '_geo'],
  }, BOOKS)
  const index = client.index('books')
  const ids = (hits: Doc[]) => hits.map((h) => h.id)

  await t.test('filters over the facet index', async (t) => {
    const cases: [string | (string | string[])[], number[]][] = [
      ['genre = fantasy', [1, 2]],
      ['genre = "science fiction"', [3, 5]],
      // milli's normalize_facet: case folded, diacritics kept.
      ['genre = épopée', [6]],
      ['genre = epopee', []],
      ['genre != fantasy', [3, 4, 5, 6]],
      // Strings are compared too, with the raw bound: "cheap" > "9" in code point order; the string "15" is a string
      // (milli extracts no number from it), and "15" < "9".
      ['price > 9', [1, 3, 5]],
      ['price 5 TO 15', [1, 2]],
      // A bound that is no number compares strings only.
      ['price < cheaq', [4, 5]],
      ['year IS NULL', [4]],
      ['year NOT EXISTS', []],
      ['author.born EXISTS', [1, 2, 3, 6]],
      ['author.born NOT EXISTS', [4, 5]],
      ['tags IS EMPTY', [4]],
      ['tags IN [space, war]', [3, 5, 6]],
      ['tags NOT IN [magic]', [3, 4, 5, 6]],
      ['author.name = ann AND year > 2005', [3]],
      ['(genre = horror OR tags = robots) AND NOT price = 15', [5]],
      [['genre = fantasy', ['price = 10', 'price = 20']], [1]],
      ['genre STARTS WITH sci', [3, 5]],
      ['_geoRadius(48.85, 2.35, 1000)', [1]],
      ['_geoBoundingBox([52, 5], [45, -1])', [1, 2, 3]],
    ]
    for (const [filter, expected] of cases) {
      const r = await index.search('', { filter, limit: 10 })
      t.same(ids(r.hits), expected, JSON.stringify(filter))
      t.equal(r.estimatedTotalHits, expected.length)
    }
    // A keyword search narrowed by a filter.
    const r = await index.search('gamma', { filter: 'genre = "science fiction"' })
    t.same(ids(r.hits), [3])
  })

  await t.test('sort: numbers before strings, missing last, ties broken by the next rules then insertion order', async (t) => {
    let r = await index.search('', { sort: ['price:asc'] })
    // 5.5, 10, 20, then the strings "15" and "cheap" (a string is no number to milli), then no price.
    t.same(ids(r.hits), [2, 1, 3, 4, 5, 6])
    r = await index.search('', { sort: ['price:desc'] })
    t.same(ids(r.hits), [3, 1, 2, 5, 4, 6])
    r = await index.search('', { sort: ['year:desc', 'title:desc'] })
    // 2010 (Gamma, Epsilon by title desc), 2001, 1999, 1800, then null year (no value).
    t.same(ids(r.hits), [3, 5, 1, 2, 6, 4])
    r = await index.search('', { sort: ['author.born:asc'] })
    t.same(ids(r.hits), [1, 3, 2, 6, 4, 5])
    r = await index.search('', { sort: ['title:asc'], offset: 2, limit: 2 })
    t.same(ids(r.hits), [4, 5], 'Alpha, Beta, [Delta, Epsilon], Gamma, Zeta')
    // Keyword search: the sort rule sits after attributeRank in the default rules.
    r = await index.search('a', { sort: ['price:desc'], showRankingScoreDetails: true })
    t.ok(r.hits.length > 0)
    const details = r.hits[0]!._rankingScoreDetails as Record<string, any>
    t.ok(details['price:desc'], 'the sort rule is in the details')
    t.equal(typeof details['price:desc'].order, 'number')
    t.notOk('score' in details['price:desc'], 'a sort rule has no score')
    // Placeholder search with the details of the sort.
    r = await index.search('', { sort: ['price:asc'], limit: 1, showRankingScore: true, showRankingScoreDetails: true })
    t.same(r.hits[0]!._rankingScoreDetails, { 'price:asc': { order: 0, value: 5.5 } })
    t.equal(r.hits[0]!._rankingScore, 1)
  })

  await t.test('geo sort adds _geoDistance', async (t) => {
    const r = await index.search('', { sort: ['_geoPoint(48.85, 2.35):asc'] })
    t.same(ids(r.hits), [1, 3, 2, 6, 4, 5])
    t.equal(r.hits[0]!._geoDistance, 0)
    t.ok((r.hits[1]!._geoDistance as number) > 300_000 && (r.hits[1]!._geoDistance as number) < 400_000, 'Paris to London')
    t.notOk('_geoDistance' in r.hits[4]!, 'no _geo, no distance')
  })

  await t.test('custom ranking rules', async (t) => {
    await updateSettings(url, 'books', { rankingRules: ['year:asc', 'words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] })
    let r = await index.search('')
    t.same(ids(r.hits), [6, 2, 1, 3, 5, 4])
    r = await index.search('', { sort: ['title:asc'] })
    t.same(ids(r.hits), [6, 2, 1, 5, 3, 4], 'year first, then the sort parameter (Epsilon before Gamma)')
    await updateSettings(url, 'books', { rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'] })
  })

  await t.test('sort errors', async (t) => {
    const fails = async (body: Doc, message: string) => {
      const r = await call(`${url}/indexes/books/search`, { method: 'POST', json: body })
      t.equal(r.status, 400, JSON.stringify(body))
      t.same(r.body, { message, code: 'invalid_search_sort', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_search_sort' })
    }
    await fails({ sort: ['genre:asc'] }, 'Index `books`: Attribute `genre` is not sortable. Available sortable attributes are: `_geo, author.born, price, title, year`.')
    // Syntax errors are the request's: no index prefix (search/errors.rs sort_invalid_syntax, sort_geo_reserved_attribute).
    await fails({ sort: ['price'] }, 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `price`.')
    await fails({ sort: ['_geoPoint(200, 0):asc'] }, 'Bad latitude `200`. Latitude must be contained between -90 and 90 degrees. ')
    await fails({ sort: ['_geo:asc'] }, '`_geo` is a reserved keyword and thus can\'t be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.')
    await fails({ sort: ['_geoDistance:asc'] }, '`_geoDistance` is a reserved keyword and thus can\'t be used as a sort expression.')
    await fails({ sort: ['_geoPoint(1):asc'] }, 'Invalid syntax for the geo parameter: expected expression formated like `_geoPoint(latitude, longitude)` and ending by `:asc` or `:desc`, found `_geoPoint(1)`.')
    await updateSettings(url, 'books', { rankingRules: ['words', 'typo'] })
    await fails({ sort: ['price:asc'] }, 'Index `books`: You must specify where `sort` is listed in the rankingRules setting to use the sort parameter at search time.')
    await updateSettings(url, 'books', { rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'] })
    await t.rejects(index.search('', { sort: ['genre:asc'] }), MeilisearchApiError)
  })

  await t.test('facets follow document changes and settings changes', async (t) => {
    await index.addDocuments([{ id: 2, title: 'Beta', genre: 'Horror', price: 7 }]).waitTask()
    t.same(ids((await index.search('', { filter: 'genre = fantasy' })).hits), [1], 'replaced: old value gone')
    t.same(ids((await index.search('', { filter: 'genre = horror' })).hits), [2, 4])
    await index.updateDocuments([{ id: 1, price: 30 }]).waitTask()
    t.same(ids((await index.search('', { filter: 'price = 30' })).hits), [1], 'updated (merged)')
    t.same(ids((await index.search('', { filter: 'genre = fantasy' })).hits), [1], 'fields kept by the merge stay')
    await index.deleteDocuments([1]).waitTask()
    t.same(ids((await index.search('', { filter: 'genre = fantasy' })).hits), [], 'deleted')
    await index.deleteDocuments({ filter: 'genre = horror' }).waitTask()
    t.same(ids((await index.search('', { filter: 'tags EXISTS' })).hits), [3, 5, 6], 'deleted by filter')
    // A new filterable attribute is indexed from the stored documents.
    await updateSettings(url, 'books', { filterableAttributes: ['title'] })
    t.same(ids((await index.search('', { filter: 'title = zeta' })).hits), [6])
    const r = await call(`${url}/indexes/books/search`, { method: 'POST', json: { filter: 'genre = horror' } })
    t.equal(r.status, 400, 'genre is no longer filterable')
  })

  await t.test('facets survive a restart (rebuilt from the stored documents)', async (t) => {
    await server.stop()
    const again = await serverFor(t, { dbPath: server.dbPath })
    const r = await call(`${again.url}/indexes/books/search`, { method: 'POST', json: { filter: 'title = zeta OR title = gamma', sort: ['year:asc'] } })
    t.equal(r.status, 200, r.text)
    t.same(ids(r.body.hits), [6, 3])
    const task = await call(`${again.url}/indexes/books/documents`, { method: 'POST', json: [{ id: 9, title: 'Zeta' }] })
    await waitTask(again.url, task.body.taskUid)
    const after = await call(`${again.url}/indexes/books/search`, { method: 'POST', json: { filter: 'title = zeta' } })
    t.same(ids(after.body.hits), [6, 9])
  })
})

const MOVIE_GENRES: Doc[] = [
  { title: 'Shazam!', genres: ['Action', 'Adventure'], id: '287947' },
  { title: 'Captain Marvel', genres: ['Action', 'Adventure'], id: '299537' },
  { title: 'Escape Room', genres: ['Horror', 'Thriller', 'Multiple Words'], id: '522681' },
  { title: 'How to Train Your Dragon: The Hidden World', genres: ['Action', 'Comedy'], id: '166428' },
  { title: 'Gläss', genres: ['Thriller'], id: '450465' },
]

t.test('facet distribution, stats and distinct', async (t) => {
  const { url, client } = await sharedServer()
  await seedIndex(url, 'books', { filterableAttributes: ['genre', 'price', 'year', 'tags', 'author'], sortableAttributes: ['year'] }, BOOKS)
  const index = client.index('books')

  let r = await index.search('', { facets: ['genre', 'year', 'author'] })
  t.same(r.facetDistribution, {
    'author.born': { 1950: 2, 1960: 2 },
    'author.name': { Ann: 2, Bob: 2, Cid: 1 },
    genre: { Épopée: 1, Fantasy: 2, Horror: 1, 'Science Fiction': 2 },
    year: { 1800: 1, 1999: 1, 2001: 1, 2010: 2 },
  })
  t.same(Object.keys(r.facetDistribution!.genre!), ['Épopée', 'Fantasy', 'Horror', 'Science Fiction'], 'normalized value order, first spelling shown')
  t.same(r.facetStats, { 'author.born': { min: 1950, max: 1960 }, year: { min: 1800, max: 2010 } })
  r = await index.search('', { facets: ['price'], filter: 'genre = fantasy' })
  t.same(r.facetDistribution, { price: { 5.5: 1, 10: 1 } }, 'over the matching documents only')
  t.same(r.facetStats, { price: { min: 5.5, max: 10 } })
  r = await index.search('', { facets: ['*'] })
  t.same(Object.keys(r.facetDistribution!), ['author.born', 'author.name', 'genre', 'price', 'tags', 'year'])
  t.same(r.facetDistribution!.price, { 5.5: 1, 10: 1, 15: 1, 20: 1, cheap: 1 }, 'the string "15" is a string value')

  await updateSettings(url, 'books', { faceting: { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'alpha', genre: 'count' } } })
  r = await index.search('', { facets: ['genre', 'tags'] })
  t.same(r.facetDistribution, { genre: { Fantasy: 2, 'Science Fiction': 2 }, tags: { dragons: 1, magic: 2 } })
  t.same(Object.keys(r.facetDistribution!.genre!), ['Fantasy', 'Science Fiction'])
  await updateSettings(url, 'books', { faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } } })

  const bad = await call(`${url}/indexes/books/search`, { method: 'POST', json: { facets: ['title'] } })
  t.equal(bad.status, 400)
  t.same(bad.body.code, 'invalid_search_facets')
  t.equal(bad.body.message, 'Invalid facet distribution: Attribute `title` is not filterable. Available filterable attributes patterns are: `author, genre, price, tags, year`.')

  // distinct: one document per value (the best ranked), documents without a value all kept.
  r = await index.search('', { distinct: 'genre' })
  t.same(r.hits.map((h) => h.id), [1, 3, 4, 6])
  t.equal(r.estimatedTotalHits, 4)
  r = await index.search('', { distinct: 'genre', sort: ['year:desc'] })
  t.same(r.hits.map((h) => h.id), [3, 1, 6, 4], 'Science Fiction (2010, id 3 first), Fantasy (2001), Épopée (1800), Horror (no year)')
  r = await index.search('', { distinct: 'author.name', limit: 2, offset: 1 })
  t.same(r.hits.map((h) => h.id), [2, 4], 'pages of distinct hits')
  const paged = await index.search('', { distinct: 'author.name', hitsPerPage: 2, page: 2 })
  t.same(paged.hits.map((h) => h.id), [4, 5], 'Ann, Bob | Cid, then the document without an author')
  t.equal(paged.totalHits, 4)
  await updateSettings(url, 'books', { distinctAttribute: 'genre' })
  r = await index.search('science')
  t.same(r.hits.map((h) => h.id), [3], 'the setting applies to keyword search')
  const notFilterable = await call(`${url}/indexes/books/search`, { method: 'POST', json: { distinct: 'title' } })
  t.equal(notFilterable.status, 400)
  t.same(notFilterable.body.message, 'Index `books`: Attribute `title` is not filterable and thus, cannot be used as distinct attribute. Available filterable attributes patterns are: `author, genre, price, tags, year`.')
  t.equal(notFilterable.body.code, 'invalid_search_distinct')
})

t.test('facet search (Meilisearch facet_search.rs cases)', async (t) => {
  const { url, client } = await sharedServer()
  await seedIndex(url, 'movies', { filterableAttributes: ['genres'] }, MOVIE_GENRES)
  const index = client.index('movies')
  let r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'a' })
  t.same(r.facetHits, [{ value: 'Action', count: 3 }, { value: 'Adventure', count: 2 }])
  t.equal(r.facetQuery, 'a')
  t.equal(typeof r.processingTimeMs, 'number')
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'adventure' })
  t.same(r.facetHits, [{ value: 'Adventure', count: 2 }])
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'adventre' })
  t.same(r.facetHits, [{ value: 'Adventure', count: 2 }], 'one typo at 8 letters')
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'words' })
  t.same(r.facetHits, [], 'values match from their start')
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: '' })
  t.same(r.facetHits.map((h) => h.value), ['Action', 'Adventure', 'Comedy', 'Horror', 'Multiple Words', 'Thriller'])
  r = await index.searchForFacetValues({ facetName: 'genres', q: 'escape' })
  t.same(r.facetHits, [{ value: 'Horror', count: 1 }, { value: 'Multiple Words', count: 1 }, { value: 'Thriller', count: 1 }], 'counted over the matching documents')
  t.equal(r.facetQuery, null)
  r = await index.searchForFacetValues({ facetName: 'genres', filter: 'genres = thriller' })
  t.same(r.facetHits.map((h) => h.value), ['Horror', 'Multiple Words', 'Thriller'])

  await updateSettings(url, 'movies', { typoTolerance: { enabled: false } })
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'adventre' })
  t.same(r.facetHits, [], 'no typo when typo tolerance is off')
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'àdventure' })
  t.same(r.facetHits.length, 1, 'normalized query')
  await updateSettings(url, 'movies', { typoTolerance: { enabled: true, disableOnWords: ['adventre'] } })
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'adventre' })
  t.same(r.facetHits, [], 'disableOnWords')

  await updateSettings(url, 'movies', { faceting: { sortFacetValuesBy: { '*': 'count' } } })
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'a' })
  t.same(r.facetHits, [{ value: 'Action', count: 3 }, { value: 'Adventure', count: 2 }])
  await updateSettings(url, 'movies', { faceting: { maxValuesPerFacet: 1 } })
  r = await index.searchForFacetValues({ facetName: 'genres', facetQuery: '' })
  t.same(r.facetHits, [{ value: 'Action', count: 3 }], 'by count, bounded by maxValuesPerFacet')

  const post = (json: unknown) => call(`${url}/indexes/movies/facet-search`, { method: 'POST', json })
  let e = await post({ facetQuery: 'a' })
  t.same([e.status, e.body.code, e.body.message], [400, 'missing_facet_search_facet_name', 'Missing field `facetName`'])
  e = await post({ facetName: 'title' })
  t.same([e.status, e.body.code], [400, 'invalid_facet_search_facet_name'])
  t.equal(e.body.message, 'Attribute `title` is not facet-searchable. Available facet-searchable attributes patterns are: `genres`. To make it facet-searchable add it to the `filterableAttributes` index settings.')
  e = await post({ facetName: 'genres', facetQuery: 1 })
  t.same([e.status, e.body.code, e.body.message], [400, 'invalid_facet_search_query', 'Invalid value type at `.facetQuery`: expected a string, but found a positive integer: `1`'])
  e = await post({ facetName: 'genres', limit: 1 })
  t.same([e.status, e.body.code], [400, 'bad_request'])
  await updateSettings(url, 'movies', { facetSearch: false })
  e = await post({ facetName: 'genres', facetQuery: 'a' })
  t.same(e.body, { message: 'The facet search is disabled for this index', code: 'facet_search_disabled', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#facet_search_disabled' })
  await updateSettings(url, 'movies', { facetSearch: true, filterableAttributes: [{ attributePatterns: ['genres'], features: { facetSearch: false, filter: { equality: true } } }] })
  e = await post({ facetName: 'genres', facetQuery: 'a' })
  t.equal(e.body.code, 'invalid_facet_search_facet_name')
  t.match(e.body.message, /matches rule #0 in filterableAttributes, but this rule does not enable facetSearch/)
})
