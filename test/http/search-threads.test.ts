/**
 * Search threads over HTTP (`--search-threads`): the same answers as searches on the HTTP thread, byte for byte
 * but `processingTimeMs` (keyword, placeholder, facet and multi-search, their errors); and a search sees the view
 * of one publish or the next, never a mix, while batches replace every document under concurrent searches; a deleted
 * then recreated index is answered with its new documents.
 */
import t from 'tap'
import { call, seedIndex, serverFor, waitTask } from '../helpers/server.js'

const WORDS = ['apple', 'banana', 'cherry', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']
const docs = Array.from({ length: 120 }, (_, i) => ({
  id: i,
  title: `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} number ${i}`,
  body: `the ${WORDS[(i * 3) % 10]} and the ${WORDS[(i * 11) % 10]} went ${i % 2 ? 'north' : 'south'} together`,
  color: ['red', 'Green', 'blue', 'Été'][i % 4],
  price: (i * 37) % 100,
  tags: [WORDS[i % 3], WORDS[(i + 1) % 5]],
}))
const settings = { filterableAttributes: ['color', 'price', 'tags'], sortableAttributes: ['price', 'color'] }

const SEARCHES: Record<string, unknown>[] = [
  { q: 'apple' },
  { q: 'the north', limit: 7, offset: 3, showRankingScore: true, showRankingScoreDetails: true },
  { q: 'ban', attributesToHighlight: ['*'], attributesToCrop: ['body:4'], showMatchesPosition: true },
  { q: 'chery delta', matchingStrategy: 'all' },
  { q: '"went north"', facets: ['color', 'price'] },
  { filter: 'price > 50 AND color IN [red, blue]', sort: ['price:desc'], limit: 5 },
  { q: 'golf', filter: 'tags = apple', facets: ['*'], page: 2, hitsPerPage: 3 },
  { q: 'hotel', distinct: 'color' },
  { q: 'india', sort: ['color:asc', 'price:asc'], attributesToRetrieve: ['id', 'color'] },
  { q: 'juliet', filter: 'color =' },
  { q: 'echo', sort: ['unknown:asc'] },
  { q: 'echo', attributesToSearchOn: ['nothing'] },
]

/** The response without its timing, as text. */
const answer = (r: { status: number; text: string }) => `${r.status} ${r.text.replace(/"processingTimeMs":\d+/g, '"processingTimeMs":0')}`

t.test('threads answer as the HTTP thread does', async (t) => {
  const here = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '0' } })
  const threaded = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '2' } })
  for (const server of [here, threaded]) await seedIndex(server.url, 'books', settings, docs)
  const ask = async (url: string, path: string, json: unknown) => answer(await call(`${url}${path}`, { method: 'POST', json }))
  for (const query of SEARCHES) {
    t.equal(await ask(threaded.url, '/indexes/books/search', query), await ask(here.url, '/indexes/books/search', query), JSON.stringify(query))
  }
  const facetSearch = { facetName: 'color', facetQuery: 'gr', q: 'the' }
  t.equal(await ask(threaded.url, '/indexes/books/facet-search', facetSearch), await ask(here.url, '/indexes/books/facet-search', facetSearch), 'facet search')
  const multi = { queries: SEARCHES.slice(0, 4).map((q) => ({ indexUid: 'books', ...q })) }
  t.equal(await ask(threaded.url, '/multi-search', multi), await ask(here.url, '/multi-search', multi), 'multi-search')
  t.equal(await ask(threaded.url, '/indexes/missing/search', { q: 'x' }), await ask(here.url, '/indexes/missing/search', { q: 'x' }), 'a missing index')
  // Queries of a multi-search run side by side on threads: the error is still the first failing query's.
  const failing = { queries: [{ indexUid: 'books', q: 'apple' }, { indexUid: 'books', q: 'x', filter: 'color =' }, { indexUid: 'missing', q: 'x' }] }
  t.equal(await ask(threaded.url, '/multi-search', failing), await ask(here.url, '/multi-search', failing), 'multi-search: the first failing query')
  const refused = { queries: [{ indexUid: 'books', q: 'apple' }, { indexUid: 'books', q: 'x', federationOptions: { weight: 2 } }, { indexUid: 'missing' }] }
  t.equal(await ask(threaded.url, '/multi-search', refused), await ask(here.url, '/multi-search', refused), 'multi-search: federationOptions refused')
  t.match(await ask(threaded.url, '/multi-search', failing), /^400 .*Inside `\.queries\[1\]`/)
})

t.test('a search sees one publish or the next, never a mix, under concurrent searches and publishes', async (t) => {
  const server = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '2' } })
  const { url } = server
  const N = 60
  const generation = (g: number) => Array.from({ length: N }, (_, i) => ({ id: i, gen: g, text: `shared word gen${g} item${i}` }))
  await seedIndex(url, 'gens', { filterableAttributes: ['gen'] }, generation(0))
  let publishing = true
  const seen = new Set<number>()
  let searches = 0
  let mixed = false
  const searcher = async () => {
    while (publishing) {
      const { status, body } = await call(`${url}/indexes/gens/search`, { method: 'POST', json: { q: 'shared word', facets: ['gen'], limit: N } })
      t.equal(status, 200)
      const gens = Object.keys(body.facetDistribution.gen)
      const hitGens = new Set(body.hits.map((h: { gen: number }) => h.gen))
      if (gens.length !== 1 || hitGens.size !== 1 || !hitGens.has(Number(gens[0])) || body.hits.length !== N || body.estimatedTotalHits !== N) {
        mixed = true
        t.fail(`a mixed answer: facets ${JSON.stringify(body.facetDistribution)}, hits of ${[...hitGens]}, ${body.hits.length} hits`)
        return
      }
      seen.add(Number(gens[0]))
      searches++
    }
  }
  const searchers = Array.from({ length: 4 }, searcher)
  for (let g = 1; g <= 6; g++) {
    const r = await call(`${url}/indexes/gens/documents`, { method: 'POST', json: generation(g) })
    // Searches go on while the batch runs and after it: the next batch waits for a few more.
    const before = searches
    t.equal((await waitTask(url, r.body.taskUid, 120_000)).status, 'succeeded')
    while (!mixed && searches < before + 8) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  publishing = false
  await Promise.all(searchers)
  t.ok(seen.size >= 2, `searches saw several publishes (${[...seen]}) in ${searches} searches`)
})

t.test('a deleted then recreated index: the threads answer with the new index', async (t) => {
  const server = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '1' } })
  const { url } = server
  const search = () => call(`${url}/indexes/again/search`, { method: 'POST', json: { q: 'shared', limit: 50 } })
  await seedIndex(url, 'again', {}, Array.from({ length: 30 }, (_, i) => ({ id: i, text: `shared old ${i}` })))
  t.equal((await search()).body.hits.length, 30, 'the first index, searched on the thread')
  const deleted = await call(`${url}/indexes/again`, { method: 'DELETE' })
  t.equal((await waitTask(url, deleted.body.taskUid)).status, 'succeeded')
  t.equal((await search()).status, 404)
  await seedIndex(url, 'again', {}, Array.from({ length: 5 }, (_, i) => ({ id: i, text: `shared new ${i}` })))
  const { body } = await search()
  t.same(body.hits, Array.from({ length: 5 }, (_, i) => ({ id: i, text: `shared new ${i}` })), "the new index's documents only")
  t.equal(body.estimatedTotalHits, 5)
})
