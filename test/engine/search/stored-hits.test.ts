/** Hits written from their stored text (search/stored-hits.ts): the bytes are those of the hit objects. */
import t from 'tap'
import { StoredHit, serializeResponse, showsStoredDocuments, storedAsIs } from '../../../engine/search/stored-hits.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'
import { defaultSettings } from '../../../engine/settings/index.js'

const stored = (doc: object) => Buffer.from(JSON.stringify(doc))

t.test('a response with stored hits is written as the same response with the documents as objects', async (t) => {
  const docs = [
    { id: 1, title: 'Ünïcödé ✓ 😀', nested: { a: [1, { b: null }] } },
    { 2: 'integer-like keys come first', id: 2, '\u2028': 'line separator' },
    {},
  ]
  const extras = [{ _rankingScore: 0.5, _rankingScoreDetails: { words: { order: 0, matchingWords: 1, maxMatchingWords: 1, score: 1 } } }, {}, { _geoDistance: 12 }]
  const rest = { query: 'q', processingTimeMs: 3, limit: 20, offset: 0, estimatedTotalHits: 3 }
  const bytes = serializeResponse({ hits: docs.map((d, i) => new StoredHit(stored(d), extras[i]!)) as never, ...rest })
  const text = Buffer.from(bytes).toString('utf8')
  t.equal(text, JSON.stringify({ hits: docs.map((d, i) => ({ ...d, ...extras[i] })), ...rest }))
})

t.test('hits that are objects, mixed with stored ones or alone, are written as JSON.stringify writes them', async (t) => {
  const plain = { hits: [{ id: 1, _formatted: { id: '1' } }], query: '', processingTimeMs: 0 }
  t.equal(Buffer.from(serializeResponse(plain)).toString(), JSON.stringify(plain))
  const mixed = serializeResponse({ hits: [new StoredHit(stored({ id: 2 }), {}), { id: 3 }] as never, query: '' })
  t.equal(Buffer.from(mixed).toString(), '{"hits":[{"id":2},{"id":3}],"query":""}')
  const empty = serializeResponse({ hits: [], query: 'x' })
  t.equal(Buffer.from(empty).toString(), '{"hits":[],"query":"x"}')
})

t.test('documents holding a name the hit object handles are not written as stored', async (t) => {
  t.ok(storedAsIs(stored({ id: 1, text: 'plain _ underscore "_x"' })))
  t.ok(storedAsIs(stored({ id: 1, _private: true })), 'other underscored names are plain fields')
  for (const name of ['_vectors', '_geoDistance', '_rankingScore', '_rankingScoreDetails', '_formatted', '_matchesPosition', '_federation']) {
    t.notOk(storedAsIs(stored({ id: 1, [name]: 1 })), name)
  }
  t.notOk(storedAsIs(stored({ id: 1, text: 'says "_vectors" in a string' })), 'a mention in a value is enough (a byte check)')
  t.notOk(storedAsIs(Buffer.from('[1]')), 'not an object')
})

t.test('only queries showing whole documents unformatted use stored hits', async (t) => {
  const settings = defaultSettings()
  const query = defaultSearchQuery()
  t.ok(showsStoredDocuments(query, settings))
  t.ok(showsStoredDocuments({ ...query, attributesToRetrieve: ['title', '*'] }, settings))
  t.notOk(showsStoredDocuments({ ...query, attributesToRetrieve: ['title'] }, settings))
  t.notOk(showsStoredDocuments({ ...query, attributesToHighlight: ['*'] }, settings))
  t.notOk(showsStoredDocuments({ ...query, attributesToCrop: ['title'] }, settings))
  t.notOk(showsStoredDocuments({ ...query, showMatchesPosition: true }, settings))
  t.notOk(showsStoredDocuments({ ...query, retrieveVectors: true }, settings))
  t.notOk(showsStoredDocuments(query, { ...settings, displayedAttributes: ['title'] }))
})
