/**
 * Settings routes over HTTP: GET defaults, every sub-route with its verb, synchronous 400s with Meilisearch's
 * codes and messages (tests/settings/errors.rs, get_settings.rs), and applied updates (tasks) read back.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../helpers/server.js'
import { err } from '../helpers/meili.js'

const TEMPLATE = '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}'

const DEFAULTS = {
  displayedAttributes: ['*'],
  searchableAttributes: ['*'],
  filterableAttributes: [],
  sortableAttributes: [],
  rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'],
  stopWords: [],
  nonSeparatorTokens: [],
  separatorTokens: [],
  dictionary: [],
  synonyms: {},
  distinctAttribute: null,
  proximityPrecision: 'byWord',
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: false },
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
  pagination: { maxTotalHits: 1000 },
  embedders: {},
  searchCutoffMs: null,
  localizedAttributes: null,
  facetSearch: true,
  prefixSearch: 'indexingTime',
}

/** Sub-route, its update verb, its field. */
const ROUTES: [string, 'PUT' | 'PATCH', keyof typeof DEFAULTS | 'chat'][] = [
  ['filterable-attributes', 'PUT', 'filterableAttributes'], ['sortable-attributes', 'PUT', 'sortableAttributes'],
  ['displayed-attributes', 'PUT', 'displayedAttributes'], ['typo-tolerance', 'PATCH', 'typoTolerance'],
  ['searchable-attributes', 'PUT', 'searchableAttributes'], ['stop-words', 'PUT', 'stopWords'],
  ['non-separator-tokens', 'PUT', 'nonSeparatorTokens'], ['separator-tokens', 'PUT', 'separatorTokens'],
  ['dictionary', 'PUT', 'dictionary'], ['synonyms', 'PUT', 'synonyms'], ['distinct-attribute', 'PUT', 'distinctAttribute'],
  ['proximity-precision', 'PUT', 'proximityPrecision'], ['localized-attributes', 'PUT', 'localizedAttributes'],
  ['ranking-rules', 'PUT', 'rankingRules'], ['faceting', 'PATCH', 'faceting'], ['pagination', 'PATCH', 'pagination'],
  ['embedders', 'PATCH', 'embedders'], ['search-cutoff-ms', 'PUT', 'searchCutoffMs'], ['facet-search', 'PUT', 'facetSearch'],
  ['prefix-search', 'PUT', 'prefixSearch'], ['chat', 'PATCH', 'chat'],
]

t.test('settings routes', async (t) => {
  const server = await serverFor(t)
  const { url, client } = server
  const req = (method: string, path: string, json?: unknown) => call(`${url}${path}`, { method, ...(json !== undefined ? { json } : {}) })
  await client.createIndex('movies').waitTask()

  await t.test('GET defaults, whole and per sub-route', async (t) => {
    const settings = await client.index('movies').getSettings()
    t.strictSame(settings, DEFAULTS)
    t.same(Object.keys(settings), Object.keys(DEFAULTS), 'Meilisearch key order')
    for (const [route, , field] of ROUTES) {
      const r = await req('GET', `/indexes/movies/settings/${route}`)
      t.equal(r.status, 200, route)
      const expected = field === 'chat' ? { description: '', documentTemplate: TEMPLATE, documentTemplateMaxBytes: 400, searchParameters: {} } : DEFAULTS[field]
      t.strictSame(r.body, expected, `${route} default`)
    }
  })

  await t.test('missing index, bad uid, wrong verbs', async (t) => {
    t.strictSame((await req('GET', '/indexes/nope/settings')).body, err('Index `nope` not found.', 'index_not_found'))
    const r = await req('GET', '/indexes/nope/settings/ranking-rules')
    t.equal(r.status, 404)
    t.strictSame(r.body, err('Index `nope` not found.', 'index_not_found'))
    const bad = await req('PATCH', '/indexes/test%23%23!/settings', {})
    t.equal(bad.status, 400)
    t.strictSame(bad.body, err('`test##!` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.', 'invalid_index_uid'))
    t.equal((await req('PUT', '/indexes/movies/settings/typo-tolerance', {})).status, 405, 'typo-tolerance is PATCH')
    t.equal((await req('PATCH', '/indexes/movies/settings/ranking-rules', [])).status, 405, 'ranking-rules is PUT')
    t.equal((await req('PUT', '/indexes/movies/settings', {})).status, 405, 'the whole settings are PATCH')
    t.equal((await req('GET', '/indexes/movies/settings/nope')).status, 404)
  })

  await t.test('synchronous 400s', async (t) => {
    const cases: [string, string, unknown, ReturnType<typeof err>][] = [
      ['PATCH', '/indexes/movies/settings', { displayedAttributes: 'doggo' }, err('Invalid value type at `.displayedAttributes`: expected an array, but found a string: `"doggo"`', 'invalid_settings_displayed_attributes')],
      ['PUT', '/indexes/movies/settings/displayed-attributes', 'doggo', err('Invalid value type: expected an array, but found a string: `"doggo"`', 'invalid_settings_displayed_attributes')],
      ['PATCH', '/indexes/movies/settings', { rankingRules: ['manyTheFish'] }, err('Invalid value at `.rankingRules[0]`: `manyTheFish` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.', 'invalid_settings_ranking_rules')],
      ['PUT', '/indexes/movies/settings/distinct-attribute', ['doggo'], err('Invalid value type: expected a string, but found an array: `["doggo"]`', 'invalid_settings_distinct_attribute')],
      ['PATCH', '/indexes/movies/settings/typo-tolerance', { typoTolerance: { minWordSizeForTypos: 'doggo' } }, err('Unknown field `typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`', 'invalid_settings_typo_tolerance')],
      ['PATCH', '/indexes/movies/settings', { typoTolerance: { minWordSizeForTypos: { oneTypo: 1000 } } }, err('Invalid value at `.typoTolerance.minWordSizeForTypos.oneTypo`: value: `1000` is too large to be deserialized, maximum value authorized is `255`', 'invalid_settings_typo_tolerance')],
      ['PUT', '/indexes/movies/settings/search-cutoff-ms', 'doggo', err('Invalid value type: expected a positive integer, but found a string: `"doggo"`', 'invalid_settings_search_cutoff_ms')],
      ['PUT', '/indexes/movies/settings/proximity-precision', 'byWords', err('Unknown value `byWords`: did you mean `byWord`? expected one of `byWord`, `byAttribute`', 'invalid_settings_proximity_precision')],
      ['PATCH', '/indexes/movies/settings/faceting', { maxValuesPerFacet: -1 }, err('Invalid value type at `.maxValuesPerFacet`: expected a positive integer, but found a negative integer: `-1`', 'invalid_settings_faceting')],
      ['PATCH', '/indexes/movies/settings/pagination', 'doggo', err('Invalid value type: expected an object, but found a string: `"doggo"`', 'invalid_settings_pagination')],
      ['PUT', '/indexes/movies/settings/localized-attributes', [{ attributePatterns: ['a'] }], err('Missing field `locales` inside `[0]`', 'invalid_settings_localized_attributes')],
      ['PUT', '/indexes/movies/settings/filterable-attributes', [{ attributePatterns: ['a'], features: { sort: true } }], err('Unknown field `sort` inside `[0].features`: expected one of `facetSearch`, `filter`', 'invalid_settings_filterable_attributes')],
      ['PATCH', '/indexes/movies/settings/embedders', { test: { source: 'huggingFace', apiKey: 'foo' } }, err('`.embedders.test`: Field `apiKey` unavailable for source `huggingFace`.\n  - note: `apiKey` is available for sources: `openAi`, `ollama`, `rest`\n  - note: available fields for source `huggingFace`: `source`, `model`, `revision`, `pooling`, `documentTemplate`, `documentTemplateMaxBytes`, `distribution`, `binaryQuantized`', 'invalid_settings_embedders')],
      ['PATCH', '/indexes/movies/settings', { embedders: { test: { source: 'userProvided' } } }, err('`.embedders.test`: Missing field `dimensions` (note: this field is mandatory for source `userProvided`)', 'invalid_settings_embedders')],
      ['PATCH', '/indexes/movies/settings', { embedders: { test: { source: 'userProvided', dimensions: 2, distribution: { mean: 2, sigma: 0.5 } } } }, err('Invalid value at `.embedders.test.distribution`: the distribution mean must be in the range [0, 1], got 2', 'invalid_settings_embedders')],
      ['PATCH', '/indexes/movies/settings', { foo: 12 }, err('Unknown field `foo`: expected one of `displayedAttributes`, `searchableAttributes`, `filterableAttributes`, `sortableAttributes`, `foreignKeys`, `rankingRules`, `stopWords`, `nonSeparatorTokens`, `separatorTokens`, `dictionary`, `synonyms`, `distinctAttribute`, `proximityPrecision`, `typoTolerance`, `faceting`, `pagination`, `embedders`, `searchCutoffMs`, `localizedAttributes`, `facetSearch`, `prefixSearch`, `chat`', 'bad_request')],
    ]
    for (const [method, path, body, expected] of cases) {
      const r = await req(method, path, body)
      t.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body)}`)
      t.strictSame(r.body, expected)
    }
    // Experimental gates (the message text is the features module's).
    const chat = await req('PATCH', '/indexes/movies/settings', { chat: { description: 'x' } })
    t.equal(chat.status, 400)
    t.equal(chat.body.code, 'feature_not_enabled')
    t.match(chat.body.message, /^setting `chat` in the index settings requires enabling the `[^`]+` experimental feature/)
    const composite = await req('PATCH', '/indexes/movies/settings/embedders', { c: { source: 'composite' } })
    t.equal(composite.body.code, 'feature_not_enabled')
    t.match(composite.body.message, /^using `"composite"` as source requires enabling the `[^`]+` experimental feature/)
    // Nothing was registered by any of these.
    const tasks = await req('GET', '/tasks?types=settingsUpdate')
    t.equal(tasks.body.total, 0, 'rejected updates register no task')
  })

  await t.test('updates answer 202 with a settingsUpdate task', async (t) => {
    for (const [route, verb] of ROUTES.filter(([r]) => r !== 'chat')) {
      const r = await req(verb, `/indexes/movies/settings/${route}`, null)
      t.equal(r.status, 202, `${verb} ${route}`)
      t.same(Object.keys(r.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
      t.equal(r.body.type, 'settingsUpdate')
      t.equal(r.body.indexUid, 'movies')
      const d = await req('DELETE', `/indexes/movies/settings/${route}`)
      t.equal(d.status, 202, `DELETE ${route}`)
    }
    const all = await req('DELETE', '/indexes/movies/settings')
    t.equal(all.status, 202)
    const task = await req('GET', `/tasks/${all.body.taskUid}`)
    t.equal(task.body.type, 'settingsUpdate')
    t.strictSame(task.body.details.displayedAttributes, ['*'])
    t.equal(task.body.details.stopWords, null)
  })

  // Everything below needs the scheduler to apply settingsUpdate tasks.
  await t.test('applied updates', async (t) => {
    const index = client.index('movies')
    const first = await index.updateSettings({ displayedAttributes: ['title', 'id'], stopWords: ['the', 'a'], filterableAttributes: ['genre', { attributePatterns: ['price*'], features: { facetSearch: true, filter: { equality: true, comparison: true } } }], synonyms: { puppy: ['dog', 'doggo', 'potat'] } }).waitTask()
    t.equal(first.status, 'succeeded', 'settings task succeeds')
    let settings = await index.getSettings()
    t.strictSame(settings.displayedAttributes, ['title', 'id'])
    t.strictSame(settings.stopWords, ['a', 'the'])
    t.strictSame(settings.filterableAttributes, ['genre', { attributePatterns: ['price*'], features: { facetSearch: true, filter: { equality: true, comparison: true } } }])
    t.strictSame(settings.synonyms, { puppy: ['dog', 'doggo', 'potat'] })
    t.strictSame(settings.searchableAttributes, ['*'], 'omitted fields stay')

    // `filters` is accepted as `filter`; GET answers with `filter`.
    const put = await req('PUT', '/indexes/movies/settings/filterable-attributes', [{ attributePatterns: ['year'], features: { filters: { comparison: true } } }])
    t.equal((await waitTask(url, put.body.taskUid)).status, 'succeeded')
    t.strictSame((await req('GET', '/indexes/movies/settings/filterable-attributes')).body, [{ attributePatterns: ['year'], features: { facetSearch: false, filter: { equality: true, comparison: true } } }])

    // Sub-routes: PATCH merges, null resets one field, PUT replaces.
    const typo = await req('PATCH', '/indexes/movies/settings/typo-tolerance', { disableOnNumbers: true, minWordSizeForTypos: { oneTypo: 4 } })
    t.equal((await waitTask(url, typo.body.taskUid)).status, 'succeeded')
    t.strictSame((await req('GET', '/indexes/movies/settings/typo-tolerance')).body, { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: true })
    const bad = await req('PATCH', '/indexes/movies/settings/typo-tolerance', { minWordSizeForTypos: { twoTypos: 3 } })
    const failed = await waitTask(url, bad.body.taskUid)
    t.equal(failed.status, 'failed', 'merged bounds out of order fail the task')
    t.strictSame(failed.error, err('Index `movies`: `minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 4` and twoTypos: 3`.', 'invalid_settings_typo_tolerance'))
    t.equal((await index.getTypoTolerance())?.minWordSizeForTypos?.twoTypos, 9, 'nothing stored by the failed task')

    // Embedders: secrets masked in GET and in task details.
    const restEmbedder = { source: 'rest', url: 'https://localhost:7777', apiKey: 'My super secret value you will never guess', dimensions: 4, request: '{{text}}', response: '{{embedding}}' }
    const emb = await index.updateSettings({ embedders: { default: restEmbedder as never } }).waitTask()
    t.equal(emb.status, 'succeeded')
    t.strictSame(emb.details, { embedders: { default: { source: 'rest', apiKey: 'My suXXXXXX...', dimensions: 4, url: 'https://localhost:7777', request: '{{text}}', response: '{{embedding}}' } } })
    t.strictSame((await index.getSettings()).embedders, { default: { source: 'rest', apiKey: 'My suXXXXXX...', dimensions: 4, documentTemplate: TEMPLATE, documentTemplateMaxBytes: 400, url: 'https://localhost:7777', request: '{{text}}', response: '{{embedding}}', headers: {} } })

    // binaryQuantized cannot be turned off: accepted, then the task fails.
    const on = await req('PATCH', '/indexes/movies/settings/embedders', { default: { binaryQuantized: true } })
    t.equal((await waitTask(url, on.body.taskUid)).status, 'succeeded')
    const off = await req('PATCH', '/indexes/movies/settings/embedders', { default: { binaryQuantized: false } })
    t.equal(off.status, 202)
    const offTask = await waitTask(url, off.body.taskUid)
    t.equal(offTask.status, 'failed')
    t.equal(offTask.error.code, 'invalid_settings_embedders')
    t.match(offTask.error.message, /^Index `movies`: `\.embedders\.default\.binaryQuantized`: Cannot disable the binary quantization\.\n - Note: Binary quantization is a lossy operation that cannot be reverted\.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors\.$/)

    // DELETE resets everything.
    const reset = await index.resetSettings().waitTask()
    t.equal(reset.status, 'succeeded')
    t.strictSame(await index.getSettings(), DEFAULTS)
  })

  await t.test('index creation by settings updates, not by resets', async (t) => {
    const created = await client.index('fresh').updateSettings({ rankingRules: ['words'] }).waitTask()
    t.equal(created.status, 'succeeded', 'PATCH /settings creates the index')
    t.strictSame(await client.index('fresh').getRankingRules(), ['words'])
    const sub = await req('PUT', '/indexes/fresh2/settings/stop-words', ['a'])
    t.equal((await waitTask(url, sub.body.taskUid)).status, 'succeeded', 'a sub-route update creates the index')
    // Needs the scheduler to honour settingsUpdateCreatesIndex (a reset never creates the index).
    const del = await req('DELETE', '/indexes/ghost/settings')
    const task = await waitTask(url, del.body.taskUid)
    t.equal(task.status, 'failed', 'DELETE on a missing index fails')
    t.strictSame(task.error, err('Index `ghost` not found.', 'index_not_found'))
    t.equal((await req('GET', '/indexes/ghost')).status, 404)
  })
})
