/**
 * Settings module: validation of every field (codes and deserr messages from Meilisearch's source and test
 * snapshots: tests/settings/errors.rs, get_settings.rs, vectors.rs snapshots, milli error.rs), apply/reset
 * semantics, reindex kinds, masking, details, storage.
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import type { Features, FeatureName } from '../../../engine/features/index.js'
import {
  DEFAULT_SETTINGS, applySettingsUpdate, defaultSettings, maskSecret, resetAllUpdate, resetFieldUpdate,
  settingsDetails, settingsFieldView, settingsUpdateCreatesIndex, settingsView, readSettings, settingsWriteOps,
  type Settings, type SettingsUpdate,
} from '../../../engine/settings/index.js'
import { Store } from '../../../engine/storage/index.js'
import { validateSettings } from '../../../src/api/settings.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A features double: records `require` calls, throws like the real one for disabled features. */
function features(...enabled: FeatureName[]): Features & { required: [string, string][] } {
  const required: [string, string][] = []
  return {
    required,
    isEnabled: (name: FeatureName) => enabled.includes(name),
    require(name: FeatureName, action: string) {
      required.push([name, action])
      if (!enabled.includes(name)) throw new TesseraError('feature_not_enabled', `${action} requires enabling the \`${name}\` experimental feature.`)
    },
  } as unknown as Features & { required: [string, string][] }
}

const none = features()

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn()
  } catch (e) {
    if (e instanceof TesseraError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error('expected a TesseraError')
}

const whole = (body: unknown, f: Features = none) => failure(() => validateSettings(body, null, f))
const sub = (route: string, body: unknown, f: Features = none) => failure(() => validateSettings(body, route, f))
const apply = (update: SettingsUpdate, current: Settings = defaultSettings()) => applySettingsUpdate(current, update)
const applyBody = (body: Record<string, unknown>, current: Settings = defaultSettings(), f: Features = none) => apply(validateSettings(body, null, f), current)

t.test('defaults', async (t) => {
  t.strictSame(settingsView(DEFAULT_SETTINGS), {
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
  })
  t.same(Object.keys(settingsView(DEFAULT_SETTINGS)).length, 20, 'chat hidden without the feature')
  t.strictSame(settingsView(DEFAULT_SETTINGS, { chat: true }).chat, {
    description: '',
    documentTemplate: '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}',
    documentTemplateMaxBytes: 400,
    searchParameters: {},
  })
  t.ok(Object.isFrozen(DEFAULT_SETTINGS.rankingRules), 'defaults are frozen')
  t.not(defaultSettings().rankingRules, defaultSettings().rankingRules, 'defaultSettings() is a fresh copy')
})

t.test('wrong types, whole settings and sub-routes (errors.rs)', async (t) => {
  const cases: [string, string, unknown, string][] = [
    ['displayedAttributes', 'displayed-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['searchableAttributes', 'searchable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['filterableAttributes', 'filterable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['sortableAttributes', 'sortable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['rankingRules', 'ranking-rules', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['stopWords', 'stop-words', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['nonSeparatorTokens', 'non-separator-tokens', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['separatorTokens', 'separator-tokens', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['dictionary', 'dictionary', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['synonyms', 'synonyms', 'doggo', 'expected an object, but found a string: `"doggo"`'],
    ['distinctAttribute', 'distinct-attribute', ['doggo'], 'expected a string, but found an array: `["doggo"]`'],
    ['proximityPrecision', 'proximity-precision', 1, 'expected a string, but found a positive integer: `1`'],
    ['typoTolerance', 'typo-tolerance', 'doggo', 'expected an object, but found a string: `"doggo"`'],
    ['faceting', 'faceting', 'doggo', 'expected an object, but found a string: `"doggo"`'],
    ['pagination', 'pagination', 'doggo', 'expected an object, but found a string: `"doggo"`'],
    ['embedders', 'embedders', 'doggo', 'expected an object, but found a string: `"doggo"`'],
    ['searchCutoffMs', 'search-cutoff-ms', 'doggo', 'expected a positive integer, but found a string: `"doggo"`'],
    ['localizedAttributes', 'localized-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
    ['facetSearch', 'facet-search', 'doggo', 'expected a boolean, but found a string: `"doggo"`'],
    ['prefixSearch', 'prefix-search', true, 'expected a string, but found a boolean: `true`'],
  ]
  const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  for (const [field, route, value, tail] of cases) {
    const code = `invalid_settings_${snake(field)}`
    t.strictSame(whole({ [field]: value }), { code, message: `Invalid value type at \`.${field}\`: ${tail}` }, field)
    t.strictSame(sub(route, value), { code, message: `Invalid value type: ${tail}` }, route)
  }
  t.strictSame(whole({ chat: 3 }, features('chatCompletions')), { code: 'invalid_settings_index_chat', message: 'Invalid value type at `.chat`: expected an object, but found a positive integer: `3`' })
  t.strictSame(sub('chat', 'x', features('chatCompletions')), { code: 'invalid_settings_index_chat', message: 'Invalid value type: expected an object, but found a string: `"x"`' })
})

t.test('whole-settings body', async (t) => {
  t.strictSame(whole('x'), { code: 'bad_request', message: 'Invalid value type: expected an object, but found a string: `"x"`' })
  const unknown = whole({ foo: 12 })
  t.equal(unknown.code, 'bad_request')
  t.equal(unknown.message, 'Unknown field `foo`: expected one of `displayedAttributes`, `searchableAttributes`, `filterableAttributes`, `sortableAttributes`, `foreignKeys`, `rankingRules`, `stopWords`, `nonSeparatorTokens`, `separatorTokens`, `dictionary`, `synonyms`, `distinctAttribute`, `proximityPrecision`, `typoTolerance`, `faceting`, `pagination`, `embedders`, `searchCutoffMs`, `localizedAttributes`, `facetSearch`, `prefixSearch`, `chat`')
  t.match(whole({ rankingRule: [] }).message, /^Unknown field `rankingRule`: did you mean `rankingRules`\? expected one of/)
  // The first failing field in body order wins.
  t.equal(whole({ stopWords: 1, rankingRules: 1 }).code, 'invalid_settings_stop_words')
  t.equal(whole({ rankingRules: 1, stopWords: 1 }).code, 'invalid_settings_ranking_rules')
  // Null resets; the update lists fields in Meilisearch's order.
  const update = validateSettings({ stopWords: null, displayedAttributes: ['a'] }, null, none)
  t.strictSame(update, { displayedAttributes: ['a'], stopWords: null })
  t.same(Object.keys(update), ['displayedAttributes', 'stopWords'])
  t.strictSame(validateSettings({}, null, none), {})
})

t.test('element types', async (t) => {
  t.strictSame(whole({ displayedAttributes: ['a', 1] }), { code: 'invalid_settings_displayed_attributes', message: 'Invalid value type at `.displayedAttributes[1]`: expected a string, but found a positive integer: `1`' })
  t.strictSame(sub('stop-words', ['a', null]), { code: 'invalid_settings_stop_words', message: 'Invalid value type at `[1]`: expected a string, but found null' })
  t.strictSame(whole({ synonyms: { puppy: 'dog' } }), { code: 'invalid_settings_synonyms', message: 'Invalid value type at `.synonyms.puppy`: expected an array, but found a string: `"dog"`' })
  t.strictSame(sub('synonyms', { puppy: [1] }), { code: 'invalid_settings_synonyms', message: 'Invalid value type at `.puppy[0]`: expected a string, but found a positive integer: `1`' })
  t.strictSame(whole({ searchCutoffMs: -1 }), { code: 'invalid_settings_search_cutoff_ms', message: 'Invalid value type at `.searchCutoffMs`: expected a positive integer, but found a negative integer: `-1`' })
  t.strictSame(whole({ searchCutoffMs: 1.5 }), { code: 'invalid_settings_search_cutoff_ms', message: 'Invalid value type at `.searchCutoffMs`: expected a positive integer, but found a number: `1.5`' })
})

t.test('ranking rules', async (t) => {
  t.strictSame(whole({ rankingRules: ['custom'] }), { code: 'invalid_settings_ranking_rules', message: 'Invalid value at `.rankingRules[0]`: `custom` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.' })
  t.strictSame(sub('ranking-rules', ['words', 'price:deesc']), { code: 'invalid_settings_ranking_rules', message: 'Invalid value at `[1]`: `price:deesc` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.' })
  t.equal(sub('ranking-rules', ['_geo:asc']).message, 'Invalid value at `[0]`: `_geo` is a reserved keyword and thus can\'t be used as a ranking rule')
  t.equal(sub('ranking-rules', ['_geoDistance:desc']).message, 'Invalid value at `[0]`: `_geoDistance` is a reserved keyword and thus can\'t be used as a ranking rule')
  t.equal(sub('ranking-rules', ['_geoPoint(42, 75):asc']).message, 'Invalid value at `[0]`: `_geoPoint` is a reserved keyword and thus can\'t be used as a ranking rule. `_geoPoint` can only be used for sorting at search time')
  t.equal(sub('ranking-rules', ['_geoRadius(42, 75, 59):asc']).message, 'Invalid value at `[0]`: `_geoRadius` is a reserved keyword and thus can\'t be used as a ranking rule. `_geoRadius` can only be used for filtering at search time')
  t.equal(sub('ranking-rules', ['_geoBoundingBox:asc']).message, 'Invalid value at `[0]`: `_geoBoundingBox` is a reserved keyword and thus can\'t be used as a ranking rule. `_geoBoundingBox` can only be used for filtering at search time')
  const ok = ['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'sort', 'exactness', 'price:asc', 'price:asc:desc', 'it\'s spacy over there:asc']
  t.strictSame(validateSettings(ok, 'ranking-rules', none), { rankingRules: ok })
  t.strictSame(apply({ rankingRules: ['words'] }).settings.rankingRules, ['words'])
  t.strictSame(apply({ rankingRules: null }, apply({ rankingRules: ['words'] }).settings).settings.rankingRules, ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'])
})

t.test('enums', async (t) => {
  t.strictSame(whole({ proximityPrecision: 'byWords' }), { code: 'invalid_settings_proximity_precision', message: 'Unknown value `byWords` at `.proximityPrecision`: did you mean `byWord`? expected one of `byWord`, `byAttribute`' })
  t.strictSame(sub('proximity-precision', 'x'), { code: 'invalid_settings_proximity_precision', message: 'Unknown value `x`: expected one of `byWord`, `byAttribute`' })
  t.strictSame(whole({ prefixSearch: 'sometimes' }), { code: 'invalid_settings_prefix_search', message: 'Unknown value `sometimes` at `.prefixSearch`: expected one of `indexingTime`, `disabled`' })
  t.strictSame(whole({ faceting: { sortFacetValuesBy: { genre: 'size' } } }), { code: 'invalid_settings_faceting', message: 'Unknown value `size` at `.faceting.sortFacetValuesBy.genre`: expected one of `alpha`, `count`' })
})

t.test('typo tolerance', async (t) => {
  const code = 'invalid_settings_typo_tolerance'
  t.strictSame(whole({ typoTolerance: { minWordSizeForTypos: 'doggo' } }), { code, message: 'Invalid value type at `.typoTolerance.minWordSizeForTypos`: expected an object, but found a string: `"doggo"`' })
  t.strictSame(sub('typo-tolerance', { typoTolerance: {} }), { code, message: 'Unknown field `typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`' })
  t.strictSame(whole({ typoTolerance: { foo: 1 } }), { code, message: 'Unknown field `foo` inside `.typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`' })
  t.strictSame(whole({ typoTolerance: { minWordSizeForTypos: { oneTypo: 1000 } } }), { code, message: 'Invalid value at `.typoTolerance.minWordSizeForTypos.oneTypo`: value: `1000` is too large to be deserialized, maximum value authorized is `255`' })
  t.strictSame(whole({ typoTolerance: { minWordSizeForTypos: { oneTypo: 10, twoTypos: 7 } } }), { code, message: 'Invalid value at `.typoTolerance.minWordSizeForTypos`: `minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 7`.' })
  t.strictSame(sub('typo-tolerance', { minWordSizeForTypos: { twoTypos: -1 } }), { code, message: 'Invalid value type at `.minWordSizeForTypos.twoTypos`: expected a positive integer, but found a negative integer: `-1`' })
  t.strictSame(whole({ typoTolerance: { minWordSizeForTypos: { three: 1 } } }), { code, message: 'Unknown field `three` inside `.typoTolerance.minWordSizeForTypos`: expected one of `oneTypo`, `twoTypos`' })
  t.strictSame(whole({ typoTolerance: { disableOnNumbers: 'yes' } }), { code, message: 'Invalid value type at `.typoTolerance.disableOnNumbers`: expected a boolean, but found a string: `"yes"`' })

  // Partial update, then merged bounds checked when applying (a task error, no location).
  const s1 = apply(validateSettings({ disableOnNumbers: true, minWordSizeForTypos: { oneTypo: 7 }, disableOnWords: ['b', 'a', 'b'] }, 'typo-tolerance', none)).settings
  t.strictSame(s1.typoTolerance, { enabled: true, minWordSizeForTypos: { oneTypo: 7, twoTypos: 9 }, disableOnWords: ['a', 'b'], disableOnAttributes: [], disableOnNumbers: true })
  t.strictSame(failure(() => apply(validateSettings({ minWordSizeForTypos: { twoTypos: 6 } }, 'typo-tolerance', none), s1)), { code, message: '`minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 7` and twoTypos: 6`.' })
  const s2 = apply({ typoTolerance: { minWordSizeForTypos: { oneTypo: null }, enabled: false } }, s1).settings
  t.strictSame(s2.typoTolerance.minWordSizeForTypos, { oneTypo: 5, twoTypos: 9 })
  t.equal(s2.typoTolerance.enabled, false)
  t.equal(s2.typoTolerance.disableOnNumbers, true, 'omitted sub-fields stay')
  t.strictSame(apply({ typoTolerance: null }, s2).settings.typoTolerance, DEFAULT_SETTINGS.typoTolerance)
})

t.test('faceting and pagination', async (t) => {
  t.strictSame(whole({ faceting: { maxValuesPerFacet: -1 } }), { code: 'invalid_settings_faceting', message: 'Invalid value type at `.faceting.maxValuesPerFacet`: expected a positive integer, but found a negative integer: `-1`' })
  t.strictSame(sub('faceting', { maxValues: 3 }), { code: 'invalid_settings_faceting', message: 'Unknown field `maxValues`: expected one of `maxValuesPerFacet`, `sortFacetValuesBy`' })
  t.strictSame(whole({ pagination: { maxTotalHits: 'a' } }), { code: 'invalid_settings_pagination', message: 'Invalid value type at `.pagination.maxTotalHits`: expected a positive integer, but found a string: `"a"`' })
  t.strictSame(sub('pagination', { limit: 1 }), { code: 'invalid_settings_pagination', message: 'Unknown field `limit`: expected one of `maxTotalHits`' })

  const s1 = applyBody({ faceting: { sortFacetValuesBy: { genre: 'count' } }, pagination: { maxTotalHits: 20 } }).settings
  t.strictSame(s1.faceting, { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', genre: 'count' } })
  t.strictSame(s1.pagination, { maxTotalHits: 20 })
  const s2 = applyBody({ faceting: { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'count' } } }, s1).settings
  t.strictSame(s2.faceting, { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'count' } })
  const s3 = applyBody({ faceting: { sortFacetValuesBy: null }, pagination: { maxTotalHits: null } }, s2).settings
  t.strictSame(s3.faceting, { maxValuesPerFacet: 2, sortFacetValuesBy: { '*': 'alpha' } })
  t.strictSame(s3.pagination, { maxTotalHits: 1000 })
  t.strictSame(applyBody({ pagination: {} }, s1).settings.pagination, { maxTotalHits: 20 }, 'an empty object changes nothing')
})

t.test('filterable attributes', async (t) => {
  const code = 'invalid_settings_filterable_attributes'
  const update = validateSettings([
    'genre',
    { attributePatterns: ['price*'], features: { filter: { comparison: true } } },
    { attributePatterns: ['*_date'], features: { facetSearch: true, filters: { equality: false, comparison: true } } },
    { attributePatterns: ['_geo'] },
  ], 'filterable-attributes', none)
  t.strictSame(update.filterableAttributes, [
    'genre',
    { attributePatterns: ['price*'], features: { facetSearch: false, filter: { equality: true, comparison: true } } },
    { attributePatterns: ['*_date'], features: { facetSearch: true, filter: { equality: false, comparison: true } } },
    { attributePatterns: ['_geo'], features: { facetSearch: false, filter: { equality: true, comparison: false } } },
  ], '`filters` is read as `filter`; defaults filled in')
  t.strictSame(sub('filterable-attributes', [{ features: {} }]), { code, message: 'Missing field `attributePatterns` inside `[0]`' })
  t.strictSame(whole({ filterableAttributes: [{ attributePatterns: 'a' }] }), { code, message: 'Invalid value type at `.filterableAttributes[0].attributePatterns`: expected an array, but found a string: `"a"`' })
  t.strictSame(whole({ filterableAttributes: [{ attributePatterns: [], foo: 1 }] }), { code, message: 'Unknown field `foo` inside `.filterableAttributes[0]`: expected one of `attributePatterns`, `features`' })
  t.strictSame(whole({ filterableAttributes: [{ attributePatterns: [], features: { sort: true } }] }), { code, message: 'Unknown field `sort` inside `.filterableAttributes[0].features`: expected one of `facetSearch`, `filter`' })
  t.strictSame(whole({ filterableAttributes: [{ attributePatterns: [], features: { filter: { equality: 1 } } }] }), { code, message: 'Invalid value type at `.filterableAttributes[0].features.filter.equality`: expected a boolean, but found a positive integer: `1`' })
  t.strictSame(whole({ filterableAttributes: [{ attributePatterns: [], features: { filter: {}, filters: {} } }] }), { code, message: 'Invalid value at `.filterableAttributes[0].features`: `filter` and `filters` are two spellings of the same field: give only one' })
  t.strictSame(whole({ filterableAttributes: [3] }), { code, message: 'Invalid value type at `.filterableAttributes[0]`: expected a string, but found a positive integer: `3`' })
})

t.test('localized attributes', async (t) => {
  const code = 'invalid_settings_localized_attributes'
  const update = validateSettings({ localizedAttributes: [{ attributePatterns: ['title_ja'], locales: ['ja', 'jpn', 'cmn'], extra: 1 }, { attributePatterns: ['*'], locales: [] }] }, null, none)
  t.strictSame(update.localizedAttributes, [{ attributePatterns: ['title_ja'], locales: ['jpn', 'jpn', 'cmn'] }, { attributePatterns: ['*'], locales: [] }], 'two-letter codes normalized; unknown keys ignored')
  t.strictSame(whole({ localizedAttributes: [{ attributePatterns: ['a'] }] }), { code, message: 'Missing field `locales` inside `.localizedAttributes[0]`' })
  t.strictSame(sub('localized-attributes', [{ locales: ['en'] }]), { code, message: 'Missing field `attributePatterns` inside `[0]`' })
  const bad = sub('localized-attributes', [{ attributePatterns: ['a'], locales: ['klingon'] }])
  t.equal(bad.code, code)
  t.match(bad.message, /^Unknown value `klingon` at `\[0\]\.locales\[0\]`: expected one of `af`, `ak`, `am`, .* `zu`, `afr`, `aka`, .* `zul`, `cmn`$/)
  t.strictSame(apply(update).settings.localizedAttributes, update.localizedAttributes)
  t.equal(apply({ localizedAttributes: null }, apply(update).settings).settings.localizedAttributes, null)
})

t.test('chat', async (t) => {
  const code = 'invalid_settings_index_chat'
  const chatOn = features('chatCompletions')
  t.strictSame(whole({ chat: { description: 'x' } }), { code: 'feature_not_enabled', message: 'setting `chat` in the index settings requires enabling the `chatCompletions` experimental feature.' })
  t.strictSame(validateSettings({ chat: null }, null, none), { chat: null }, 'a reset needs no feature')
  t.strictSame(whole({ chat: { foo: 1 } }, chatOn), { code, message: 'Unknown field `foo` inside `.chat`: expected one of `description`, `documentTemplate`, `documentTemplateMaxBytes`, `searchParameters`' })
  t.strictSame(whole({ chat: { searchParameters: { hybrid: { semanticRatio: 2, embedder: 'e' } } } }, chatOn), { code, message: 'Invalid value at `.chat.searchParameters.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(whole({ chat: { searchParameters: { hybrid: {} } } }, chatOn), { code, message: 'Missing field `embedder` inside `.chat.searchParameters.hybrid`' })
  t.strictSame(sub('chat', { searchParameters: { matchingStrategy: 'most' } }, chatOn), { code, message: 'Unknown value `most` at `.searchParameters.matchingStrategy`: expected one of `last`, `all`, `frequency`' })
  t.strictSame(sub('chat', { searchParameters: { rankingScoreThreshold: 1.5 } }, chatOn), { code, message: 'Invalid value at `.searchParameters.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.' })
  const s1 = apply(validateSettings({ description: 'movies', searchParameters: { limit: 5, hybrid: { embedder: 'e' } } }, 'chat', chatOn)).settings
  t.strictSame(s1.chat.searchParameters, { hybrid: { semanticRatio: 0.5, embedder: 'e' }, limit: 5 })
  t.equal(s1.chat.description, 'movies')
  const s2 = apply(validateSettings({ searchParameters: { limit: null, distinct: 'sku' } }, 'chat', chatOn), s1).settings
  t.strictSame(s2.chat.searchParameters, { hybrid: { semanticRatio: 0.5, embedder: 'e' }, distinct: 'sku' })
  t.strictSame(failure(() => apply({ chat: { documentTemplateMaxBytes: 0 } })), { code, message: '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero' })
  t.strictSame(apply({ chat: null }, s2).settings.chat, DEFAULT_SETTINGS.chat)
  t.strictSame(settingsFieldView(s2, 'chat'), s2.chat)
})

t.test('embedders: deserialization', async (t) => {
  const code = 'invalid_settings_embedders'
  t.strictSame(whole({ embedders: { e: { source: 'openAI' } } }), { code, message: 'Unknown value `openAI` at `.embedders.e.source`: did you mean `openAi`? expected one of `openAi`, `huggingFace`, `ollama`, `userProvided`, `rest`, `composite`, `hostedAi`, `localHub`, `localServer`' })
  t.strictSame(sub('embedders', { e: { dimension: 3 } }), { code, message: 'Unknown field `dimension` inside `.e`: did you mean `dimensions`? expected one of `source`, `model`, `revision`, `pooling`, `apiKey`, `dimensions`, `binaryQuantized`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `request`, `response`, `headers`, `searchEmbedder`, `indexingEmbedder`, `distribution`' })
  t.strictSame(whole({ embedders: { e: { source: 'userProvided', dimensions: -3 } } }), { code, message: 'Invalid value type at `.embedders.e.dimensions`: expected a positive integer, but found a negative integer: `-3`' })
  t.strictSame(whole({ embedders: { e: 'x' } }), { code, message: 'Invalid value type at `.embedders.e`: expected an object, but found a string: `"x"`' })
  t.strictSame(whole({ embedders: { e: { source: 'localHub', pooling: 'max' } } }), { code, message: 'Unknown value `max` at `.embedders.e.pooling`: expected one of `useModel`, `forceMean`, `forceCls`' })
  t.strictSame(whole({ embedders: { e: { source: 'rest', headers: { a: 1 } } } }), { code, message: 'Invalid value type at `.embedders.e.headers.a`: expected a string, but found a positive integer: `1`' })
  // distribution ranges
  t.strictSame(whole({ embedders: { e: { source: 'userProvided', dimensions: 2, distribution: { mean: 1.5, sigma: 0.1 } } } }), { code, message: 'Invalid value at `.embedders.e.distribution`: the distribution mean must be in the range [0, 1], got 1.5' })
  t.strictSame(whole({ embedders: { e: { source: 'userProvided', dimensions: 2, distribution: { mean: 0.5, sigma: 0 } } } }), { code, message: 'Invalid value at `.embedders.e.distribution`: the distribution sigma must be in the range ]0, 1], got 0' })
  t.strictSame(whole({ embedders: { e: { source: 'userProvided', dimensions: 2, distribution: { mean: 0.5 } } } }), { code, message: 'Missing field `sigma` inside `.embedders.e.distribution`' })
  t.strictSame(whole({ embedders: { e: { source: 'userProvided', dimensions: 2, distribution: { mean: 'a', sigma: 1 } } } }), { code, message: 'Invalid value type at `.embedders.e.distribution.mean`: expected a number, but found a string: `"a"`' })
})

t.test('embedders: templates are checked when the settings are sent (vector/rest.rs bad_settings, prompt validation)', async (t) => {
  const note = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"'
  t.strictSame(whole({ embedders: { rest: { source: 'rest', request: 42, response: 42 } } }), {
    code: 'vector_embedding_error', message: `Error while generating embeddings: user error: in \`request\`: "{{text}}" not found${note}`,
  }, 'the request template is checked before the fields of the source')
  t.strictSame(whole({ embedders: { rest: { source: 'rest', url: 'kefir', request: 42, response: 42 } } }).message, '`.embedders.rest.url`: could not parse `kefir`: relative URL without a base')
  t.strictSame(whole({ embedders: { rest: { source: 'rest', url: 'http://a.b/', request: '{{text}}', response: 42 } } }), {
    code: 'vector_embedding_error', message: 'Error while generating embeddings: user error: in `response`: "{{embedding}}" not found',
  })
  t.doesNotThrow(() => validateSettings({ embedders: { rest: { request: { input: ['{{text}}', '{{..}}'] } } } }, null, none), 'a request alone is checked alone')
  t.strictSame(whole({ embedders: { rest: { request: { input: ['{{..}}', '{{text}}'] } } } }).message,
    `Error while generating embeddings: user error: in \`request.input\`: "{{..}}" expected at position #1, but found at position #0${note}`)
  t.strictSame(whole({ embedders: { e: { source: 'openAi', documentTemplate: '{% foo %}' } } }), {
    code: 'invalid_settings_embedders',
    message: '`.embedders.e.documentTemplate`: Invalid template: user error: cannot parse template: liquid:  --> 1:4\n  |\n1 | {% foo %}\n  |    ^-^\n  |\n  = Unknown tag.\n  with:\n    requested=foo\n    available tags=assign, break, continue, cycle, decrement, include, increment\n    available blocks=capture, case, comment, for, if, ifchanged, raw, tablerow, unless\n.',
  })
  t.strictSame(whole({ embedders: { e: { source: 'openAi', documentTemplate: '{% foo %}', documentTemplateMaxBytes: 0 } } }).message, '`.embedders.e.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero', 'the byte budget is checked first')
  t.doesNotThrow(() => validateSettings({ embedders: { e: { source: 'openAi', documentTemplate: '{{ doc.title | upcase }}' } } }, null, none))
})

t.test('embedders: fields per source (vectors.rs snapshots)', async (t) => {
  const code = 'invalid_settings_embedders'
  t.strictSame(whole({ embedders: { test: { source: 'huggingFace', apiKey: 'foo' } } }), {
    code,
    message: '`.embedders.test`: Field `apiKey` unavailable for source `huggingFace`.\n  - note: `apiKey` is available for sources: `openAi`, `ollama`, `rest`\n  - note: available fields for source `huggingFace`: `source`, `model`, `revision`, `pooling`, `documentTemplate`, `documentTemplateMaxBytes`, `distribution`, `binaryQuantized`',
  })
  t.strictSame(whole({ embedders: { test: { source: 'openAi', pooling: 'forceMean' } } }), {
    code,
    message: '`.embedders.test`: Field `pooling` unavailable for source `openAi`.\n  - note: `pooling` is available for sources: `huggingFace`\n  - note: available fields for source `openAi`: `source`, `model`, `apiKey`, `dimensions`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `distribution`, `binaryQuantized`',
  })
  // The spec's names give messages in the spec's names.
  t.strictSame(whole({ embedders: { test: { source: 'hostedAi', pooling: 'forceMean' } } }).message,
    '`.embedders.test`: Field `pooling` unavailable for source `hostedAi`.\n  - note: `pooling` is available for sources: `localHub`\n  - note: available fields for source `hostedAi`: `source`, `model`, `apiKey`, `dimensions`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `distribution`, `binaryQuantized`')
  t.strictSame(whole({ embedders: { test: { source: 'userProvided', dimensions: 3, documentTemplate: 'toto' } } }).message,
    '`.embedders.test`: Field `documentTemplate` unavailable for source `userProvided`.\n  - note: `documentTemplate` is available for sources: `openAi`, `huggingFace`, `ollama`, `rest`\n  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`')
  t.strictSame(whole({ embedders: { test: { source: 'rest', model: 'all-minilm', url: 'http://rest.example/', request: '{{text}}', response: '{{embedding}}' } } }).message.split('\n')[0], '`.embedders.test`: Field `model` unavailable for source `rest`.')
  // Mandatory fields
  t.strictSame(whole({ embedders: { test: { source: 'userProvided' } } }), { code, message: '`.embedders.test`: Missing field `dimensions` (note: this field is mandatory for source `userProvided`)' })
  t.strictSame(whole({ embedders: { test: { source: 'rest', url: 'http://a.b/', request: '{{text}}' } } }), { code, message: '`.embedders.test`: Missing field `response` (note: this field is mandatory for source `rest`)' })
  t.strictSame(whole({ embedders: { test: { source: 'localServer' } } }), { code, message: '`.embedders.test`: Missing field `model` (note: this field is mandatory for source `localServer`)' })
  // Pooling only for localHub
  t.doesNotThrow(() => validateSettings({ embedders: { test: { source: 'localHub', pooling: 'forceCls' } } }, null, none))
  // Other checks
  t.strictSame(whole({ embedders: { test: { source: 'userProvided', dimensions: 0 } } }), { code, message: '`.embedders.test.dimensions`: `dimensions` cannot be zero' })
  t.strictSame(whole({ embedders: { test: { source: 'rest', url: 'foo', request: {}, response: {} } } }), { code, message: '`.embedders.test.url`: could not parse `foo`: relative URL without a base' })
  t.strictSame(whole({ embedders: { test: { source: 'openAi', documentTemplate: 'x', documentTemplateMaxBytes: 0 } } }), { code, message: '`.embedders.test.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero' })
  t.strictSame(whole({ embedders: { test: { source: 'openAi', model: 'gpt' } } }), { code, message: '`.embedders.test.model`: Invalid model `gpt` for OpenAI. Supported models: ["text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"]' })
  t.strictSame(whole({ embedders: { test: { source: 'openAi', model: 'text-embedding-ada-002', dimensions: 512 } } }), { code, message: '`.embedders.test.dimensions`: Model `text-embedding-ada-002` does not support overriding its native dimensions of 1536. Found 512' })
  t.strictSame(whole({ embedders: { test: { source: 'openAi', model: 'text-embedding-3-small', dimensions: 2048 } } }), { code, message: '`.embedders.test.dimensions`: Model `text-embedding-3-small` does not support overriding its dimensions to a value higher than 1536. Found 2048' })
  // Embedder checks come after every field is deserialized, in embedder-name order.
  t.equal(whole({ embedders: { b: { source: 'userProvided' }, a: { source: 'rest' } } }).message, '`.embedders.a`: Missing field `url` (note: this field is mandatory for source `rest`)')
  t.equal(whole({ embedders: { a: { source: 'userProvided' } }, stopWords: 1 }).code, 'invalid_settings_stop_words')
})

t.test('embedders: composite', async (t) => {
  const code = 'invalid_settings_embedders'
  const on = features('compositeEmbedders')
  const base = { source: 'composite', searchEmbedder: { source: 'localHub' }, indexingEmbedder: { source: 'localHub' } }
  const off = features()
  t.strictSame(whole({ embedders: { c: base } }, off), { code: 'feature_not_enabled', message: 'using `"composite"` as source requires enabling the `compositeEmbedders` experimental feature.' })
  t.strictSame(whole({ embedders: { c: { source: 'rest', searchEmbedder: {} } } }, off).message, 'setting `searchEmbedder` requires enabling the `compositeEmbedders` experimental feature.')
  t.doesNotThrow(() => validateSettings({ embedders: { c: base } }, null, on))
  t.strictSame(whole({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'localHub' } } } }, on), { code, message: '`.embedders.c`: Missing field `indexingEmbedder` (note: this field is mandatory for source `composite`)' })
  t.strictSame(whole({ embedders: { c: { ...base, searchEmbedder: { model: 'x' } } } }, on), { code, message: '`.embedders.c.searchEmbedder`: Missing field `source`.\n  - note: this field is mandatory for nested embedders' })
  t.strictSame(whole({ embedders: { c: { ...base, indexingEmbedder: { source: 'userProvided', dimensions: 3 } } } }, on), { code, message: '`.embedders.c.indexingEmbedder.source`: Source `userProvided` is not available in a nested embedder' })
  t.strictSame(whole({ embedders: { c: { ...base, searchEmbedder: { source: 'localHub', documentTemplate: 'x' } } } }, on), {
    code,
    message: '`.embedders.c.searchEmbedder`: Field `documentTemplate` unavailable for source `localHub` for the search embedder.\n  - note: available fields for source `localHub` for the search embedder: `source`, `model`, `revision`, `pooling`\n  - note: `documentTemplate` is available when source `localHub` is not for the search embedder',
  })
  t.strictSame(whole({ embedders: { c: { ...base, indexingEmbedder: { source: 'localHub', binaryQuantized: true } } } }, on).message.split('\n')[0], '`.embedders.c.indexingEmbedder`: Field `binaryQuantized` unavailable for source `localHub` for the indexing embedder.')
  t.strictSame(whole({ embedders: { c: { ...base, model: 'x' } } }, on).message.split('\n')[0], '`.embedders.c`: Field `model` unavailable for source `composite`.')
})

t.test('embedders: apply, defaults, masking, task errors', async (t) => {
  const code = 'invalid_settings_embedders'
  const rest = { source: 'rest', url: 'https://localhost:7777', apiKey: 'My super secret value you will never guess', dimensions: 4, request: '{{text}}', response: '{{embedding}}' }
  const update = validateSettings({ embedders: { default: rest } }, null, none)
  // details: struct order, key masked (get_settings.rs secrets_are_hidden_in_settings)
  t.strictSame(settingsDetails(update), { embedders: { default: { source: 'rest', apiKey: 'My suXXXXXX...', dimensions: 4, url: 'https://localhost:7777', request: '{{text}}', response: '{{embedding}}' } } })
  t.same(Object.keys((settingsDetails(update).embedders as any).default), ['source', 'apiKey', 'dimensions', 'url', 'request', 'response'])
  const { settings, reindex } = apply(update)
  t.strictSame(reindex, ['embedders'])
  const view = settingsView(settings).embedders as any
  t.strictSame(view, { default: {
    source: 'rest', apiKey: 'My suXXXXXX...', dimensions: 4,
    documentTemplate: '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}',
    documentTemplateMaxBytes: 400, url: 'https://localhost:7777', request: '{{text}}', response: '{{embedding}}', headers: {},
  } })
  t.same(Object.keys(view.default), ['source', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'url', 'request', 'response', 'headers'])
  t.equal(settings.embedders.default!.apiKey, rest.apiKey, 'stored unmasked')

  // Defaults per source.
  const s = apply(validateSettings({ embedders: { a: { source: 'openAi' }, h: { source: 'huggingFace' }, u: { source: 'userProvided', dimensions: 3 } } }, null, none)).settings
  t.strictSame(s.embedders.a, { source: 'openAi', model: 'text-embedding-3-small', documentTemplate: DEFAULT_SETTINGS.chat.documentTemplate, documentTemplateMaxBytes: 400 })
  t.strictSame(s.embedders.h, { source: 'huggingFace', model: 'BAAI/bge-base-en-v1.5', revision: '617ca489d9e86b49b8167676d8220688b99db36e', pooling: 'useModel', documentTemplate: DEFAULT_SETTINGS.chat.documentTemplate, documentTemplateMaxBytes: 400 })
  t.strictSame(s.embedders.u, { source: 'userProvided', dimensions: 3 })
  t.same(Object.keys(s.embedders), ['a', 'h', 'u'])

  // Partial update keeps the rest; distribution and apiKey changes need no re-embedding.
  const s2 = apply(validateSettings({ u: { distribution: { mean: 0.5, sigma: 0.2 } } }, 'embedders', none), s)
  t.strictSame(s2.settings.embedders.u, { source: 'userProvided', dimensions: 3, distribution: { mean: 0.5, sigma: 0.2 } })
  t.strictSame(s2.reindex, [])
  // Merged settings must satisfy the source's table: a task error.
  t.strictSame(failure(() => apply(validateSettings({ u: { apiKey: 'k' } }, 'embedders', none), s)), { code, message: '`.embedders.u`: Field `apiKey` unavailable for source `userProvided`.\n  - note: `apiKey` is available for sources: `openAi`, `ollama`, `rest`\n  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`' })
  // Null removes one embedder; null for all removes every one.
  t.same(Object.keys(apply({ embedders: { a: null } }, s).settings.embedders), ['h', 'u'])
  t.strictSame(apply({ embedders: null }, s).settings.embedders, {})
  // binaryQuantized cannot be turned off (a task error: it depends on the stored state).
  const q = apply(validateSettings({ u: { binaryQuantized: true } }, 'embedders', none), s)
  t.strictSame(q.reindex, ['embedders'])
  t.doesNotThrow(() => validateSettings({ u: { binaryQuantized: false } }, 'embedders', none), 'accepted synchronously')
  t.strictSame(failure(() => apply(validateSettings({ u: { binaryQuantized: false } }, 'embedders', none), q.settings)), { code, message: '`.embedders.u.binaryQuantized`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.' })
  // Changing the source resets the source-bound fields.
  const changed = apply(validateSettings({ u: { source: 'rest', url: 'http://x.y/', request: { t: '{{text}}' }, response: { e: '{{embedding}}' } } }, 'embedders', none), s).settings.embedders.u
  t.strictSame(changed, { source: 'rest', documentTemplate: DEFAULT_SETTINGS.chat.documentTemplate, documentTemplateMaxBytes: 400, url: 'http://x.y/', request: { t: '{{text}}' }, response: { e: '{{embedding}}' }, headers: {} })
  // 256 embedders at most.
  const many: Record<string, unknown> = {}
  for (let i = 0; i < 257; i++) many[`e${i}`] = { source: 'userProvided', dimensions: 2 }
  t.strictSame(failure(() => apply(validateSettings({ embedders: many }, null, none))), { code, message: 'Too many embedders in the configuration. Found 257, but limited to 256.' })
  // A new embedder without a source is an openAi one.
  t.equal(apply(validateSettings({ embedders: { n: {} } }, null, none)).settings.embedders.n!.source, 'openAi')
})

t.test('masking', async (t) => {
  t.equal(maskSecret('short'), 'XXX...')
  t.equal(maskSecret('0123456789'), '01XXXX...')
  t.equal(maskSecret('01234567890123456789'), '012XXXXX...')
  t.equal(maskSecret('012345678901234567890123456789'), '01234XXXXXX...')
  t.equal(maskSecret('My super secret value you will never guess'), 'My suXXXXXX...')
  const on = features('compositeEmbedders')
  const update = validateSettings({ c: { source: 'composite', searchEmbedder: { source: 'rest', url: 'http://a.b/', request: {}, response: {}, apiKey: 'abcdefghijklmnop' }, indexingEmbedder: { source: 'rest', url: 'http://a.b/', request: {}, response: {}, apiKey: 'abcdefghijklmnop' } } }, 'embedders', on)
  const details = settingsDetails(update) as any
  t.equal(details.embedders.c.searchEmbedder.apiKey, 'abXXXX...')
  t.equal(details.embedders.c.indexingEmbedder.apiKey, 'abXXXX...')
  const view = settingsFieldView(apply(update).settings, 'embedders') as any
  t.equal(view.c.searchEmbedder.apiKey, 'abXXXX...')
})

t.test('apply and reset semantics, details', async (t) => {
  const s1 = applyBody({ displayedAttributes: ['title', 'id'], searchableAttributes: ['title', '*'], stopWords: ['the', 'a', 'the'], sortableAttributes: ['z', 'b'], synonyms: { puppy: ['dog', 'doggo', 'potat'], b: ['c'] }, distinctAttribute: 'sku' }).settings
  t.strictSame(s1.displayedAttributes, ['title', 'id'], 'order kept')
  t.strictSame(s1.searchableAttributes, ['*'], 'a list with `*` is the wildcard')
  t.strictSame(s1.stopWords, ['a', 'the'], 'sets are sorted and deduplicated')
  t.strictSame(s1.sortableAttributes, ['b', 'z'])
  t.same(Object.keys(s1.synonyms), ['b', 'puppy'])
  t.strictSame(s1.synonyms.puppy, ['dog', 'doggo', 'potat'])
  t.equal(s1.distinctAttribute, 'sku')
  // omitted fields stay
  const s2 = applyBody({ searchableAttributes: ['bar'] }, s1).settings
  t.strictSame(s2.displayedAttributes, ['title', 'id'])
  t.strictSame(s2.searchableAttributes, ['bar'])
  // DELETE of everything
  const reset = resetAllUpdate()
  t.equal(settingsUpdateCreatesIndex(reset), false)
  t.equal(settingsUpdateCreatesIndex(validateSettings({}, null, none)), true)
  t.strictSame(apply(reset, s2).settings, defaultSettings())
  const details = settingsDetails(reset)
  t.same(Object.keys(details), ['displayedAttributes', 'searchableAttributes', 'filterableAttributes', 'sortableAttributes', 'foreignKeys', 'rankingRules', 'stopWords', 'nonSeparatorTokens', 'separatorTokens', 'dictionary', 'synonyms', 'distinctAttribute', 'proximityPrecision', 'typoTolerance', 'faceting', 'pagination', 'embedders', 'searchCutoffMs', 'localizedAttributes', 'facetSearch', 'prefixSearch', 'chat'])
  t.strictSame(details.displayedAttributes, ['*'])
  t.strictSame(details.searchableAttributes, ['*'])
  t.equal(details.stopWords, null)
  t.notOk('__deletion' in details)
  // DELETE of one sub-route
  const one = resetFieldUpdate('distinctAttribute')
  t.equal(settingsUpdateCreatesIndex(one), false)
  t.strictSame(settingsDetails(one), { distinctAttribute: null })
  t.equal(apply(one, s2).settings.distinctAttribute, null)
  t.strictSame(apply(validateSettings(null, 'displayed-attributes', none), s2).settings.displayedAttributes, ['*'], 'a null body resets')
  t.strictSame(settingsDetails(validateSettings(['title', '*'], 'displayed-attributes', none)), { displayedAttributes: ['title', '*'] }, 'details show what was sent')
  t.strictSame(validateSettings(null, 'embedders', none), { embedders: null })
  // apply is pure
  const before = JSON.stringify(s2)
  apply(resetAllUpdate(), s2)
  t.equal(JSON.stringify(s2), before)
})

t.test('reindex kinds', async (t) => {
  const kinds = (body: Record<string, unknown>, current: Settings = defaultSettings()) => applyBody(body, current, features('chatCompletions')).reindex
  t.strictSame(kinds({ searchableAttributes: ['a'] }), ['searchable'])
  t.strictSame(kinds({ searchableAttributes: ['*'] }), [], 'unchanged value: no work')
  t.strictSame(kinds({ filterableAttributes: ['a'] }), ['filterable'])
  t.strictSame(kinds({ facetSearch: false }), ['filterable'])
  t.strictSame(kinds({ sortableAttributes: ['a'] }), ['sortable'])
  t.strictSame(kinds({ rankingRules: ['price:asc', 'words'] }), ['sortable'])
  t.strictSame(kinds({ rankingRules: ['words', 'typo'] }), [], 'built-in rule order needs no reindexing')
  t.strictSame(kinds({ distinctAttribute: 'sku' }), ['distinct'])
  t.strictSame(kinds({ stopWords: ['the'] }), ['stopWords'])
  t.strictSame(kinds({ separatorTokens: ['&'] }), ['separators'])
  t.strictSame(kinds({ nonSeparatorTokens: ['-'] }), ['separators'])
  t.strictSame(kinds({ dictionary: ['J.R.R.'] }), ['dictionary'])
  t.strictSame(kinds({ synonyms: { a: ['b'] } }), ['synonyms'])
  t.strictSame(kinds({ typoTolerance: { disableOnAttributes: ['sku'] } }), ['typo'])
  t.strictSame(kinds({ typoTolerance: { disableOnNumbers: true } }), ['typo'])
  t.strictSame(kinds({ typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 4 }, disableOnWords: ['x'] } }), [], 'query-time typo settings')
  t.strictSame(kinds({ proximityPrecision: 'byAttribute' }), ['proximity'])
  t.strictSame(kinds({ prefixSearch: 'disabled' }), ['prefix'])
  t.strictSame(kinds({ localizedAttributes: [{ attributePatterns: ['*'], locales: ['fr'] }] }), ['localizedAttributes'])
  t.strictSame(kinds({ embedders: { e: { source: 'userProvided', dimensions: 2 } } }), ['embedders'])
  t.strictSame(kinds({ displayedAttributes: ['a'], faceting: { maxValuesPerFacet: 3 }, pagination: { maxTotalHits: 3 }, searchCutoffMs: 30, chat: { description: 'd' } }), [])
  const all = kinds({ searchableAttributes: ['a'], filterableAttributes: ['a'], sortableAttributes: ['a'], distinctAttribute: 'a', stopWords: ['a'], separatorTokens: ['a'], dictionary: ['a'], synonyms: { a: ['b'] }, typoTolerance: { disableOnNumbers: true }, proximityPrecision: 'byAttribute', prefixSearch: 'disabled', embedders: { e: { source: 'userProvided', dimensions: 2 } }, localizedAttributes: [] })
  t.strictSame(all, ['searchable', 'filterable', 'sortable', 'distinct', 'stopWords', 'separators', 'dictionary', 'synonyms', 'typo', 'proximity', 'prefix', 'embedders', 'localizedAttributes'])
  const withE = applyBody({ embedders: { e: { source: 'rest', url: 'http://a.b/', request: '{{text}}', response: '{{embedding}}' } } }).settings
  t.strictSame(kinds({ embedders: { e: { headers: { a: 'b' } } } }, withE), [], 'headers need no re-embedding')
  t.strictSame(kinds({ embedders: { e: { url: 'http://c.d/' } } }, withE), ['embedders'])
  t.strictSame(kinds({ embedders: { e: { documentTemplateMaxBytes: 200 } } }, withE), [], 'a smaller template budget keeps vectors')
  t.strictSame(kinds({ embedders: { e: { documentTemplateMaxBytes: 800 } } }, withE), ['embedders'])
  t.strictSame(kinds({ embedders: { e: null } }, withE), ['embedders'])
  t.strictSame(kinds({ embedders: { gone: null } }, withE), [], 'removing a missing embedder is no work')
})

t.test('storage: one record per index, defaults when nothing is stored', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-settings-'))
  const store = await Store.open(dir)
  t.teardown(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }) })
  t.strictSame(readSettings(store, 7), defaultSettings())
  const { settings } = applyBody({ rankingRules: ['words'], embedders: { e: { source: 'rest', url: 'http://a.b/', request: { x: '{{text}}' }, response: { e: '{{embedding}}' }, apiKey: 'secret-secret-secret' } } })
  const ops = settingsWriteOps(7, settings)
  t.equal(ops.length, 1)
  t.equal(ops[0]!.column, 'settings')
  await store.commit(ops)
  t.strictSame(readSettings(store, 7), settings)
  t.strictSame(readSettings(store, 8), defaultSettings(), 'other indexes unaffected')
})
