/**
 * Search responses written from the documents' stored text (engine/search/stored-hits.ts) are byte for byte what the
 * hit objects would have been written as: checked against the same query in a multi-search, whose hits are objects,
 * with search threads and without.
 */
import t from 'tap'
import { call, seedIndex, serverFor } from '../helpers/server.js'

const DOCS = [
  { id: 1, title: 'alpha Ünïcödé ✓ 😀 "quoted" \\ backslash', tags: ['alpha', 'beta'], nested: { a: [1, { b: null }], n: 1.5e-7 } },
  { 10: 'integer-like keys first', id: 2, title: 'alpha beta', big: 12345678901234567890 },
  { id: 3, title: 'alpha with a field named like a hit field', _rankingScore: 'mine', _geoDistance: 'mine too' },
  { id: 4, title: 'alpha mentions "_vectors" in a string' },
  { id: 5, title: 'alpha', __proto__field: 'x', _private: { deep: true } },
  { id: 6, title: 'alpha', _geo: { lat: 45.5, lng: 4.8 } },
]

for (const threads of ['2', '0']) {
  t.test(`hits written from stored text, --search-threads ${threads}`, async (t) => {
    const { url } = await serverFor(t, { args: ['--search-threads', threads] })
    await seedIndex(url, 'docs', { sortableAttributes: ['_geo'], filterableAttributes: ['_geo', 'id'] }, DOCS)
    const queries = [
      { q: 'alpha' },
      { q: 'alpha', showRankingScore: true, showRankingScoreDetails: true },
      { q: 'alpha', sort: ['_geoPoint(45.4, 4.9):asc'], showRankingScore: true },
      { q: 'alpha', attributesToRetrieve: ['*'], limit: 3, offset: 1 },
      { q: '' },
      { q: 'alpha', attributesToHighlight: ['title'] },
      { q: 'nothing-matches-this' },
    ]
    for (const query of queries) {
      const single = await call(`${url}/indexes/docs/search`, { method: 'POST', json: query })
      t.equal(single.status, 200, JSON.stringify(query))
      const multi = await call(`${url}/multi-search`, { method: 'POST', json: { queries: [{ indexUid: 'docs', ...query }] } })
      t.equal(multi.status, 200)
      // The response text is canonical JSON (what JSON.stringify writes: no duplicate key, nothing lost) ...
      t.equal(single.text, JSON.stringify(JSON.parse(single.text)), `canonical: ${JSON.stringify(query)}`)
      // ... and its hits are those of the object path, in the same key order.
      t.equal(JSON.stringify(single.body.hits), JSON.stringify(multi.body.results[0].hits), `same hits: ${JSON.stringify(query)}`)
    }
    const r = await call(`${url}/indexes/docs/search`, { method: 'POST', json: { q: 'alpha', filter: 'id = 3', showRankingScore: true } })
    t.type(r.body.hits[0]._rankingScore, 'number', "a document's own _rankingScore is replaced by the score")
    t.equal(r.body.hits[0]._geoDistance, 'mine too')
    const get = await call(`${url}/indexes/docs/search?q=alpha&limit=2`)
    t.equal(get.text, JSON.stringify(JSON.parse(get.text)), 'GET answers the same way')
    t.equal(get.body.hits.length, 2)
  })
}
