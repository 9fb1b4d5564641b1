/**
 * Semantic and hybrid search with `sort` and `searchCutoffMs`, through the `meilisearch` client, as milli ranks
 * them: the vector sort takes the place of the first relevancy rule, sort rules keep theirs (before the vector
 * sort they order first, after it they break its ties); past the cutoff a level's remaining documents follow in
 * internal id order with a `skipped` step.
 */
import t from 'tap'
import { serverFor } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'

// Query vector [1, 0]: 1 and 4 at similarity 1 (tied), 2 at 0.85, 3 at 0.5, 6 at 0; 5 has no vector.
const DOCS = [
  { id: 1, title: 'red one', color: 'red', price: 30, _vectors: { default: [1, 0] } },
  { id: 2, title: 'blue two', color: 'blue', price: 20, _vectors: { default: [1, 1] } },
  { id: 3, title: 'red three', color: 'red', price: 40, _vectors: { default: [0, 1] } },
  { id: 4, title: 'green four', color: 'green', price: 10, _vectors: { default: [1, 0] } },
  { id: 5, title: 'yellow five', color: 'yellow', price: 5, _vectors: { default: null } },
  { id: 6, title: 'red six', color: 'red', price: 50, _vectors: { default: [-1, 0] } },
]
const DEFAULT_RULES = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness']
const SORT_FIRST = ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness']

t.test('semantic and hybrid search with sort and searchCutoffMs', async (t) => {
  const { client } = await serverFor(t)
  const index = client.index('sorted')
  const settle = async (p: Promise<{ taskUid: number }>) => {
    const task = await client.tasks.waitForTask((await p).taskUid)
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  }
  await settle(index.updateSettings({ embedders: { default: { source: 'userProvided', dimensions: 2 } }, sortableAttributes: ['price'], filterableAttributes: ['price', 'color'] }))
  await settle(index.addDocuments(DOCS))
  const semantic = { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 1 } }
  const ids = (r: { hits: Record<string, unknown>[] }) => r.hits.map((h) => h.id)

  await t.test('vector sort first: sort only breaks ties of similarity', async (t) => {
    let r = await index.search(null, { ...semantic })
    t.same(ids(r), [1, 4, 2, 3, 6, 5], 'ties in internal id order')
    r = await index.search(null, { ...semantic, sort: ['price:asc'], showRankingScore: true, showRankingScoreDetails: true })
    t.same(ids(r), [4, 1, 2, 3, 6, 5])
    t.same(r.hits[0]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: r.hits[0]!._rankingScore }, 'price:asc': { order: 1, value: 10 } })
    t.ok(Math.abs(r.hits[0]!._rankingScore! - 1) < 1e-6)
    t.same(r.hits[5]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: null }, 'price:asc': { order: 1, value: 5 } }, 'no vector: similarity null')
    t.equal(r.hits[5]!._rankingScore, 0)
    t.equal((r as { semanticHitCount?: number }).semanticHitCount, 6)
    r = await index.search(null, { ...semantic, sort: ['price:desc'], limit: 2 })
    t.same(ids(r), [1, 4])
  })

  await t.test('sort first: sort orders, the vector sort breaks its ties', async (t) => {
    await settle(index.updateSettings({ rankingRules: SORT_FIRST }))
    let r = await index.search(null, { ...semantic, sort: ['price:asc'], showRankingScore: true, showRankingScoreDetails: true })
    t.same(ids(r), [5, 4, 2, 1, 3, 6])
    t.same(r.hits[0]!._rankingScoreDetails, { 'price:asc': { order: 0, value: 5 }, vectorSort: { order: 1, similarity: null } })
    t.equal(r.hits[0]!._rankingScore, 0)
    r = await index.search(null, { ...semantic, sort: ['price:desc'], offset: 1, limit: 2 })
    t.same(ids(r), [3, 1], 'offset and limit over the sorted hits')
    r = await index.search(null, { ...semantic, sort: ['price:asc'], filter: 'price > 10', rankingScoreThreshold: 0.6 })
    t.same(ids(r), [2, 1], 'filter and threshold apply within the sort')
    t.equal(r.estimatedTotalHits, 2)
    r = await index.search(null, { ...semantic })
    t.same(ids(r), [1, 4, 2, 3, 6, 5], 'no sort parameter: the sort rule does nothing')
  })

  await t.test('a custom ranking rule sorts a semantic search too', async (t) => {
    await settle(index.updateSettings({ rankingRules: ['price:desc', ...DEFAULT_RULES] }))
    const r = await index.search(null, { ...semantic, showRankingScoreDetails: true })
    t.same(ids(r), [6, 3, 1, 2, 4, 5])
    t.same(Object.keys(r.hits[0]!._rankingScoreDetails!), ['price:desc', 'vectorSort'])
  })

  await t.test('without relevancy rules there is no vector sort', async (t) => {
    await settle(index.updateSettings({ rankingRules: ['sort'] }))
    const r = await index.search(null, { ...semantic, sort: ['price:asc'], showRankingScore: true, showRankingScoreDetails: true })
    t.same(ids(r), [5, 4, 2, 1, 3, 6])
    t.same(r.hits[0]!._rankingScoreDetails, { 'price:asc': { order: 0, value: 5 } })
    t.equal(r.hits[0]!._rankingScore, 1)
  })

  await t.test('hybrid with sort first merges by the sort values, then the weighted scores', async (t) => {
    await settle(index.updateSettings({ rankingRules: SORT_FIRST }))
    const r = await index.search('red', { vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 0.5 }, sort: ['price:asc'] })
    t.same(ids(r), [5, 4, 2, 1, 3, 6])
    // 1 ties (semantic wins ties); 3 and 6 score higher on the keyword side.
    t.equal((r as { semanticHitCount?: number }).semanticHitCount, 4)
  })

  await t.test('sort errors are the keyword search\'s', async (t) => {
    await settle(index.updateSettings({ rankingRules: DEFAULT_RULES }))
    await t.rejects(index.search(null, { ...semantic, sort: ['title:asc'] }), { cause: err('Index `sorted`: Attribute `title` is not sortable. Available sortable attributes are: `price`.', 'invalid_search_sort') })
    await settle(index.updateSettings({ rankingRules: ['words', 'typo'] }))
    await t.rejects(index.search(null, { ...semantic, sort: ['price:asc'] }), { cause: err('Index `sorted`: You must specify where `sort` is listed in the rankingRules setting to use the sort parameter at search time.', 'invalid_search_sort') })
  })

  await t.test('searchCutoffMs: a sort level gives up, a vector level serves the neighbours it found', async (t) => {
    await settle(index.updateSettings({ rankingRules: SORT_FIRST, searchCutoffMs: 0 }))
    let r = await index.search(null, { ...semantic, sort: ['price:asc'], showRankingScore: true, showRankingScoreDetails: true })
    t.same(ids(r), [1, 2, 3, 4, 5, 6], 'the sort level gave up: internal id order')
    t.same(r.hits[0]!._rankingScoreDetails, { skipped: { order: 0 } })
    t.equal(r.hits[0]!._rankingScore, 0)
    await settle(index.updateSettings({ rankingRules: DEFAULT_RULES }))
    r = await index.search(null, { ...semantic, sort: ['price:asc'], limit: 3, showRankingScoreDetails: true })
    t.same(ids(r), [1, 4, 2], 'the vector level served its neighbours; the sort level below gave up')
    t.same(r.hits[0]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: r.hits[0]!._rankingScoreDetails!.vectorSort!.similarity }, skipped: { order: 1 } })
    r = await index.search(null, { ...semantic, limit: 3 })
    t.same(ids(r), [1, 4, 2], 'vector-only ranking is whole within the neighbours found first')
    // The distinct attribute leaves the neighbours found first short of the page: past the cutoff no more are
    // looked for, the rest follows in internal id order.
    r = await index.search(null, { ...semantic, distinct: 'color', limit: 4, showRankingScoreDetails: true })
    t.same(ids(r), [1, 4, 2, 5])
    t.same(r.hits[3]!._rankingScoreDetails, { skipped: { order: 0 } })
    await settle(index.resetSearchCutoffMs())
    r = await index.search(null, { ...semantic, distinct: 'color', limit: 4, showRankingScoreDetails: true })
    t.same(ids(r), [1, 4, 2, 5])
    t.same(r.hits[3]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: null } })
  })
})
