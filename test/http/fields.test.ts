/**
 * `POST /indexes/{uid}/fields` (issue 21) through the official client's `getFields`, against Meilisearch's
 * `tests/index/fields.rs` and the route (`routes/indexes/fields.rs`): every field path of the documents (parents
 * included) in byte order, each with its displayed / searchable / sortable / distinct / ranking-rule / filterable /
 * localized state, filtered and paged.
 */
import t from 'tap'
import { call, serverFor } from '../helpers/server.js'
import { err } from '../helpers/meili.js'

const FIELD_KEYS = ['name', 'displayed', 'searchable', 'sortable', 'distinct', 'rankingRule', 'filterable', 'localized']

/** A field as the settings leave it by default. */
const plain = (name: string) => ({
  name,
  displayed: { enabled: true },
  searchable: { enabled: true },
  sortable: { enabled: false },
  distinct: { enabled: false },
  rankingRule: { enabled: false },
  filterable: { enabled: false, sortBy: 'alpha', facetSearch: false, equality: false, comparison: false },
  localized: { locales: [] },
})

t.test('fields.rs: error_get_fields_unexisting_index, get_fields_empty_index, get_fields_with_documents_and_filters', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  const missing = await call(`${url}/indexes/DOES_NOT_EXISTS/fields`, { method: 'POST', json: {} })
  t.equal(missing.status, 404)
  t.same(missing.body, err('Index `DOES_NOT_EXISTS` not found.', 'index_not_found'))

  await client.createIndex('empty').waitTask()
  t.strictSame(await client.index('empty').getFields(), { results: [], offset: 0, limit: 20, total: 0 })

  const index = client.index('movies')
  await index.addDocuments([{ id: 1, title: 'Titanic', genre: 'drama' }, { id: 2, title: 'Shazam!', color: 'blue' }], { primaryKey: 'id' }).waitTask()
  const all = await index.getFields()
  t.strictSame(all, { results: ['color', 'genre', 'id', 'title'].map(plain), offset: 0, limit: 20, total: 4 })
  t.same(Object.keys(all.results[0]!), FIELD_KEYS)
  const ti = await index.getFields({ filter: { attributePatterns: ['ti*'] } })
  t.strictSame(ti.results.map((f) => f.name), ['title'])
  t.equal(ti.total, 1)
  // The response keys, in Meilisearch's order (PaginationView).
  const raw = await call(`${url}/indexes/movies/fields`, { method: 'POST', json: { limit: 1, offset: 1 } })
  t.same(Object.keys(raw.body), ['results', 'offset', 'limit', 'total'])
  t.same(raw.body.results.map((f: { name: string }) => f.name), ['genre'])
  t.equal(raw.body.total, 4)
})

t.test('fields.rs: fields_after_uploading_recipe_and_settings (capabilities from the settings)', async (t) => {
  const server = await serverFor(t)
  const index = server.client.index('recipes')
  await index.addDocuments([{
    id: 1, title: 'Spaghetti Carbonara', difficulty: 'medium', servings: 4,
    cuisine: { type: 'Italian', region: 'Rome', is_authentic: true },
    ingredients: [{ name: 'spaghetti' }], tags: ['pasta', 'italian'], created_at: '2023-01-10T14:30:00Z',
  }], { primaryKey: 'id' }).waitTask()
  await index.updateSettings({
    displayedAttributes: ['id', 'title', 'difficulty', 'servings', 'cuisine', 'tags'],
    searchableAttributes: ['title', 'tags', 'ingredients.name', 'cuisine.type'],
    filterableAttributes: ['difficulty', 'cuisine.type', { attributePatterns: ['tag*'], features: { facetSearch: true, filter: { equality: true, comparison: false } } }],
    sortableAttributes: ['servings', 'created_at'],
    distinctAttribute: 'title',
    rankingRules: ['words', 'servings:desc'],
    faceting: { sortFacetValuesBy: { '*': 'alpha', tags: 'count' } },
    localizedAttributes: [{ attributePatterns: ['title'], locales: ['fra'] }],
  }).waitTask()
  const { results, total } = await index.getFields({ limit: 500 })
  t.same(results.map((f) => f.name), [
    'created_at', 'cuisine', 'cuisine.is_authentic', 'cuisine.region', 'cuisine.type', 'difficulty', 'id', 'ingredients',
    'ingredients.name', 'servings', 'tags', 'title',
  ], 'every path, parents included, in byte order')
  t.equal(total, 12)
  const field = (name: string) => results.find((f) => f.name === name)!
  t.same(field('title').searchable, { enabled: true })
  t.same(field('title').distinct, { enabled: true })
  t.same(field('title').localized, { locales: ['fra'] })
  t.same(field('cuisine').searchable, { enabled: false }, 'a parent of a searchable field is not searchable itself')
  t.same(field('cuisine.region').displayed, { enabled: true }, 'displayed through its parent')
  t.same(field('created_at').displayed, { enabled: false })
  t.same(field('servings').rankingRule, { enabled: true, order: 'desc' })
  t.same(field('servings').sortable, { enabled: true })
  t.same(field('difficulty').filterable, { enabled: true, sortBy: 'alpha', facetSearch: true, equality: true, comparison: true }, 'a plain string rule enables everything')
  t.same(field('tags').filterable, { enabled: true, sortBy: 'count', facetSearch: true, equality: true, comparison: false })
  t.same(field('id').filterable!.enabled, false)
  // Filters are ANDed.
  const sortable = await index.getFields({ filter: { sortable: true } })
  t.same(sortable.results.map((f) => f.name), ['created_at', 'servings'])
  const hiddenFilterable = await index.getFields({ filter: { filterable: true, displayed: true } })
  t.same(hiddenFilterable.results.map((f) => f.name), ['cuisine.type', 'difficulty', 'tags'])
  t.same((await index.getFields({ filter: { rankingRule: true } })).results.map((f) => f.name), ['servings'])
  t.same((await index.getFields({ filter: { distinct: true, searchable: false } })).results, [])
  // A pattern matches the field itself, not its parent (`title` does not match `title.en`).
  t.same((await index.getFields({ filter: { attributePatterns: ['cuisine.type.x', 'cuisine.t*'] } })).results.map((f) => f.name), ['cuisine.type'])
})

t.test('bodies are validated as Meilisearch\'s ListFields (deny unknown fields, one code per field)', async (t) => {
  const server = await serverFor(t)
  const { url } = server
  await server.client.createIndex('v').waitTask()
  const post = (json: unknown) => call(`${url}/indexes/v/fields`, { method: 'POST', json })
  t.same((await post({ limot: 1 })).body, err('Unknown field `limot`: did you mean `limit`? expected one of `offset`, `limit`, `filter`', 'bad_request'))
  t.same((await post({ limit: -1 })).body, err('Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-1`', 'invalid_index_limit'))
  t.same((await post({ offset: 'x' })).body, err('Invalid value type at `.offset`: expected a positive integer, but found a string: `"x"`', 'invalid_index_offset'))
  t.same((await post({ filter: { nope: true } })).body, err('Unknown field `nope` inside `.filter`: expected one of `attributePatterns`, `displayed`, `searchable`, `sortable`, `distinct`, `rankingRule`, `filterable`', 'invalid_index_fields_filter'))
  t.same((await post({ filter: { displayed: 'yes' } })).body, err('Invalid value type at `.filter.displayed`: expected a boolean, but found a string: `"yes"`', 'invalid_index_fields_filter_displayed'))
  t.same((await post({ filter: { attributePatterns: 'x' } })).body.code, 'invalid_index_fields_filter_attribute_patterns')
  t.equal((await post({ filter: null })).status, 200)
})
