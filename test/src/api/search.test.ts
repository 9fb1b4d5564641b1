/**
 * engine/search/query.ts: POST bodies and GET query strings parsed as Meilisearch does, with its codes and messages
 * (snapshots from `crates/meilisearch/tests/search/errors.rs`, `locales.rs`, `hybrid.rs`, and the deserr formats of
 * `crates/meilisearch-types/src/deserr`), defaults (`search/mod.rs` `DEFAULT_*`), GET conversions
 * (`routes/indexes/search.rs` `TryFrom<SearchQueryGet>`, `fix_sort_query_parameters`), the route's `search_kind`
 * decision, and milli's query-text parser (`query_term/parse_query.rs`).
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import { SEARCH_BODY_FIELDS, SEARCH_PARAMS, fixSortQueryParameters, parseRustFloat, parseSearchBody, parseSearchParams } from '../../../src/api/search.js'
import { defaultSearchQuery, isPlaceholder, parseCropAttribute, searchKind, type SearchQuery } from '../../../engine/search/request.js'
import { parseQueryText, type QueryToken } from '../../../engine/search/query-text.js'

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn()
  } catch (e) {
    if (e instanceof TesseraError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error('expected a TesseraError')
}

const post = (body: unknown) => failure(() => parseSearchBody(body))
const get = (qs: string) => failure(() => parseSearchParams(qs))
const list = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ')

const LOCALES_JSON = '`af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`'
const LOCALES_GET = 'af, ak, am, ar, az, be, bg, bn, ca, cs, da, de, el, en, eo, es, et, fa, fi, fr, gu, he, hi, hr, hu, hy, id, it, ja, jv, ka, km, kn, ko, la, lt, lv, mk, ml, mr, my, nb, ne, nl, or, pa, pl, pt, ro, ru, si, sk, sl, sn, sr, sv, ta, te, th, tk, tl, tr, uk, ur, uz, vi, yi, zh, zu, afr, aka, amh, ara, aze, bel, ben, bul, cat, ces, cmn, dan, deu, ell, eng, epo, est, fin, fra, guj, heb, hin, hrv, hun, hye, ind, ita, jav, jpn, kan, kat, khm, kor, lat, lav, lit, mal, mar, mkd, mya, nep, nld, nob, ori, pan, pes, pol, por, ron, rus, sin, slk, slv, sna, spa, srp, swe, tam, tel, tgl, tha, tuk, tur, ukr, urd, uzb, vie, yid, zho, zul'

// ---- defaults --------------------------------------------------------------------------------------------------------

t.test('defaults (search/mod.rs DEFAULT_*)', async (t) => {
  const expected: SearchQuery = {
    q: null, offset: 0, limit: 20, page: null, hitsPerPage: null, attributesToRetrieve: null, attributesToCrop: null,
    cropLength: 10, cropMarker: '…', attributesToHighlight: null, highlightPreTag: '<em>', highlightPostTag: '</em>',
    showMatchesPosition: false, filter: undefined, sort: null, distinct: null, facets: null, matchingStrategy: 'last',
    attributesToSearchOn: null, rankingScoreThreshold: null, locales: null, hybrid: null, vector: null,
    retrieveVectors: false, media: undefined, personalize: null, useNetwork: null, showRankingScore: false,
    showRankingScoreDetails: false, showPerformanceDetails: false,
  }
  t.strictSame(parseSearchBody({}), expected)
  t.strictSame(parseSearchParams(''), expected)
  t.strictSame(defaultSearchQuery(), expected)
})

// ---- POST: values --------------------------------------------------------------------------------------------------

t.test('POST: every field', async (t) => {
  const q = parseSearchBody({
    q: 'hello', offset: 5, limit: 7, page: 2, hitsPerPage: 3, attributesToRetrieve: ['a', 'b'], attributesToCrop: ['a:5'],
    cropLength: 4, cropMarker: '[…]', attributesToHighlight: ['*'], highlightPreTag: '<b>', highlightPostTag: '</b>',
    showMatchesPosition: true, filter: ['a = 1', ['b = 2']], sort: ['a:asc'], distinct: 'sku', facets: ['*'],
    matchingStrategy: 'frequency', attributesToSearchOn: ['title'], rankingScoreThreshold: 0.25, locales: ['fr', 'jpn', 'cmn'],
    hybrid: { embedder: 'default', semanticRatio: 0.75 }, vector: [0.5, 1, -2], retrieveVectors: true, media: { image: 'x' },
    personalize: { userContext: 'likes cats' }, useNetwork: false, showRankingScore: true, showRankingScoreDetails: true,
    showPerformanceDetails: true,
  })
  t.strictSame(q, {
    q: 'hello', offset: 5, limit: 7, page: 2, hitsPerPage: 3, attributesToRetrieve: ['a', 'b'], attributesToCrop: ['a:5'],
    cropLength: 4, cropMarker: '[…]', attributesToHighlight: ['*'], highlightPreTag: '<b>', highlightPostTag: '</b>',
    showMatchesPosition: true, filter: ['a = 1', ['b = 2']], sort: ['a:asc'], distinct: 'sku', facets: ['*'],
    matchingStrategy: 'frequency', attributesToSearchOn: ['title'], rankingScoreThreshold: 0.25, locales: ['fra', 'jpn', 'cmn'],
    hybrid: { embedder: 'default', semanticRatio: 0.75 }, vector: [0.5, 1, -2], retrieveVectors: true, media: { image: 'x' },
    personalize: { userContext: 'likes cats' }, useNetwork: false, showRankingScore: true, showRankingScoreDetails: true,
    showPerformanceDetails: true,
  })
})

t.test('POST: null is "absent" for Option fields', async (t) => {
  const q = parseSearchBody({
    q: null, page: null, hitsPerPage: null, attributesToRetrieve: null, attributesToCrop: null, attributesToHighlight: null,
    filter: null, sort: null, distinct: null, facets: null, attributesToSearchOn: null, rankingScoreThreshold: null,
    locales: null, hybrid: null, vector: null, media: null, personalize: null, useNetwork: null,
  })
  t.strictSame(q, defaultSearchQuery())
  // hybrid: semanticRatio defaults to 0.5; thresholds at the bounds are fine; f32 rounding of vectors
  t.strictSame(parseSearchBody({ hybrid: { embedder: 'e' } }).hybrid, { embedder: 'e', semanticRatio: 0.5 })
  t.equal(parseSearchBody({ rankingScoreThreshold: 0 }).rankingScoreThreshold, 0)
  t.equal(parseSearchBody({ rankingScoreThreshold: 1 }).rankingScoreThreshold, 1)
  t.strictSame(parseSearchBody({ vector: [0.1] }).vector, [Math.fround(0.1)])
  t.equal(parseSearchBody({ q: '' }).q, '')
  t.strictSame(parseSearchBody({ filter: 'a = 1' }).filter, 'a = 1')
  t.strictSame(parseSearchBody({ filter: true }).filter, true) // shape is the filter parser's to reject
})

// ---- POST: errors (tests/search/errors.rs) -------------------------------------------------------------------------

t.test('POST errors: types (errors.rs search_bad_*)', async (t) => {
  // search_bad_q
  t.strictSame(post({ q: ['doggo'] }), { code: 'invalid_search_q', message: 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`' })
  t.strictSame(post({ q: 7 }), { code: 'invalid_search_q', message: 'Invalid value type at `.q`: expected a string, but found a positive integer: `7`' })
  // search_bad_offset / limit / page / hits_per_page
  t.strictSame(post({ offset: 'doggo' }), { code: 'invalid_search_offset', message: 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`' })
  t.strictSame(post({ limit: 'doggo' }), { code: 'invalid_search_limit', message: 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`' })
  t.strictSame(post({ page: 'doggo' }), { code: 'invalid_search_page', message: 'Invalid value type at `.page`: expected a positive integer, but found a string: `"doggo"`' })
  t.strictSame(post({ hitsPerPage: 'doggo' }), { code: 'invalid_search_hits_per_page', message: 'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`' })
  t.strictSame(post({ limit: -1 }), { code: 'invalid_search_limit', message: 'Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-1`' })
  t.strictSame(post({ limit: 1.5 }), { code: 'invalid_search_limit', message: 'Invalid value type at `.limit`: expected a positive integer, but found a number: `1.5`' })
  t.strictSame(post({ offset: null }), { code: 'invalid_search_offset', message: 'Invalid value type at `.offset`: expected a positive integer, but found null' })
  // search_bad_attributes_to_retrieve / crop / highlight, search_bad_sort, search_bad_facets
  t.strictSame(post({ attributesToRetrieve: 'doggo' }), { code: 'invalid_search_attributes_to_retrieve', message: 'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ attributesToCrop: 'doggo' }), { code: 'invalid_search_attributes_to_crop', message: 'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ attributesToHighlight: 'doggo' }), { code: 'invalid_search_attributes_to_highlight', message: 'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ sort: 'doggo' }), { code: 'invalid_search_sort', message: 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ facets: 'doggo' }), { code: 'invalid_search_facets', message: 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ attributesToSearchOn: 'doggo' }), { code: 'invalid_search_attributes_to_search_on', message: 'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"doggo"`' })
  t.strictSame(post({ attributesToRetrieve: ['a', 1] }), { code: 'invalid_search_attributes_to_retrieve', message: 'Invalid value type at `.attributesToRetrieve[1]`: expected a string, but found a positive integer: `1`' })
  // search_bad_retrieve_vectors, search_bad_show_matches_position
  t.strictSame(post({ retrieveVectors: 'doggo' }), { code: 'invalid_search_retrieve_vectors', message: 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`' })
  t.strictSame(post({ retrieveVectors: [true] }), { code: 'invalid_search_retrieve_vectors', message: 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`' })
  t.strictSame(post({ showMatchesPosition: 'doggo' }), { code: 'invalid_search_show_matches_position', message: 'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`' })
  t.strictSame(post({ showRankingScore: 1 }), { code: 'invalid_search_show_ranking_score', message: 'Invalid value type at `.showRankingScore`: expected a boolean, but found a positive integer: `1`' })
  t.strictSame(post({ showRankingScoreDetails: 'x' }), { code: 'invalid_search_show_ranking_score_details', message: 'Invalid value type at `.showRankingScoreDetails`: expected a boolean, but found a string: `"x"`' })
  t.strictSame(post({ showPerformanceDetails: null }), { code: 'invalid_search_show_performance_details', message: 'Invalid value type at `.showPerformanceDetails`: expected a boolean, but found null' })
  // search_bad_crop_length, crop marker, highlight tags
  t.strictSame(post({ cropLength: 'doggo' }), { code: 'invalid_search_crop_length', message: 'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`' })
  t.strictSame(post({ cropMarker: ['doggo'] }), { code: 'invalid_search_crop_marker', message: 'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`' })
  t.strictSame(post({ highlightPreTag: ['doggo'] }), { code: 'invalid_search_highlight_pre_tag', message: 'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`' })
  t.strictSame(post({ highlightPostTag: ['doggo'] }), { code: 'invalid_search_highlight_post_tag', message: 'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`' })
  // distinct_at_search_time (type error part)
  t.strictSame(post({ page: 0, hitsPerPage: 2, distinct: true }), { code: 'invalid_search_distinct', message: 'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`' })
})

t.test('POST errors: values', async (t) => {
  // search_bad_threshold, search_invalid_threshold
  t.strictSame(post({ rankingScoreThreshold: 'doggo' }), { code: 'invalid_search_ranking_score_threshold', message: 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`' })
  t.strictSame(post({ rankingScoreThreshold: 42 }), { code: 'invalid_search_ranking_score_threshold', message: 'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(post({ rankingScoreThreshold: -0.1 }).code, 'invalid_search_ranking_score_threshold')
  // search_bad_matching_strategy
  t.strictSame(post({ matchingStrategy: 'doggo' }), { code: 'invalid_search_matching_strategy', message: 'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`' })
  t.strictSame(post({ matchingStrategy: { doggo: 'doggo' } }), { code: 'invalid_search_matching_strategy', message: 'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`' })
  t.strictSame(post({ matchingStrategy: 'frequenc' }), { code: 'invalid_search_matching_strategy', message: 'Unknown value `frequenc` at `.matchingStrategy`: did you mean `frequency`? expected one of `last`, `all`, `frequency`' })
  for (const s of ['last', 'all', 'frequency'] as const) t.equal(parseSearchBody({ matchingStrategy: s }).matchingStrategy, s)
  // locales.rs invalid_locales
  t.strictSame(post({ q: 'Atta', locales: ['invalid'] }), { code: 'invalid_search_locales', message: `Unknown value \`invalid\` at \`.locales[0]\`: expected one of ${LOCALES_JSON}` })
  t.strictSame(post({ locales: 'fr' }), { code: 'invalid_search_locales', message: 'Invalid value type at `.locales`: expected an array, but found a string: `"fr"`' })
  // hybrid.rs invalid_semantic_ratio
  t.strictSame(post({ q: 'Captain', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: 1.2 } }), { code: 'invalid_search_semantic_ratio', message: 'Invalid value at `.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(post({ q: 'Captain', vector: [1.0, 1.0], hybrid: { embedder: 'default', semanticRatio: -0.8 } }), { code: 'invalid_search_semantic_ratio', message: 'Invalid value at `.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.' })
  // hybrid shape (deserr formats with HybridQuery's codes)
  t.strictSame(post({ hybrid: 'x' }), { code: 'invalid_search_hybrid_query', message: 'Invalid value type at `.hybrid`: expected an object, but found a string: `"x"`' })
  t.strictSame(post({ hybrid: { semanticRatio: 0.2 } }), { code: 'invalid_search_hybrid_query', message: 'Missing field `embedder` inside `.hybrid`' })
  t.strictSame(post({ hybrid: { embedder: 'e', ratio: 1 } }), { code: 'invalid_search_hybrid_query', message: 'Unknown field `ratio` inside `.hybrid`: expected one of `semanticRatio`, `embedder`' })
  t.strictSame(post({ hybrid: { embedder: 3 } }), { code: 'invalid_search_embedder', message: 'Invalid value type at `.hybrid.embedder`: expected a string, but found a positive integer: `3`' })
  t.strictSame(post({ hybrid: { embedder: 'e', semanticRatio: '0.5' } }), { code: 'invalid_search_semantic_ratio', message: 'Invalid value type at `.hybrid.semanticRatio`: expected a number, but found a string: `"0.5"`' })
  // vector
  t.strictSame(post({ vector: 'x' }), { code: 'invalid_search_vector', message: 'Invalid value type at `.vector`: expected an array, but found a string: `"x"`' })
  t.strictSame(post({ vector: [1, 'a'] }), { code: 'invalid_search_vector', message: 'Invalid value type at `.vector[1]`: expected a number, but found a string: `"a"`' })
  // personalize / useNetwork (codes still missing from engine/errors/codes.ts)
  t.strictSame(post({ personalize: {} }), { code: 'invalid_search_personalize', message: 'Missing field `userContext` inside `.personalize`' })
  t.strictSame(post({ personalize: { userContext: 1 } }), { code: 'invalid_search_personalize_user_context', message: 'Invalid value type at `.personalize.userContext`: expected a string, but found a positive integer: `1`' })
  t.strictSame(post({ useNetwork: 'yes' }), { code: 'invalid_search_use_network', message: 'Invalid value type at `.useNetwork`: expected a boolean, but found a string: `"yes"`' })
})

t.test('POST errors: unknown fields and the body shape', async (t) => {
  // search_unexisting_parameter: bad_request
  t.strictSame(post({ marin: 'hello' }), { code: 'bad_request', message: `Unknown field \`marin\`: expected one of ${list(SEARCH_BODY_FIELDS)}` })
  t.ok(post({ query: 'x' }).message.startsWith('Unknown field `query`: expected one of `q`, `offset`, `limit`, `page`, `hitsPerPage`, `attributesToRetrieve`, '))
  t.strictSame(post({ limt: 1 }).message, `Unknown field \`limt\`: did you mean \`limit\`? expected one of ${list(SEARCH_BODY_FIELDS)}`)
  t.strictSame(post({ hybridEmbedder: 'x' }), { code: 'bad_request', message: `Unknown field \`hybridEmbedder\`: expected one of ${list(SEARCH_BODY_FIELDS)}` }) // GET-only name
  // the first error in key order wins
  t.strictSame(post({ limit: 'x', marin: 1 }).code, 'invalid_search_limit')
  t.strictSame(post({ marin: 1, limit: 'x' }).code, 'bad_request')
  t.strictSame(post([]), { code: 'bad_request', message: 'Invalid value type: expected an object, but found an array: `[]`' })
  t.strictSame(post('q'), { code: 'bad_request', message: 'Invalid value type: expected an object, but found a string: `"q"`' })
  t.strictSame(post(null), { code: 'bad_request', message: 'Invalid value type: expected an object, but found null' })
  t.equal(SEARCH_BODY_FIELDS.length, 30)
})

// ---- GET -----------------------------------------------------------------------------------------------------------

t.test('GET: conversions', async (t) => {
  const q = parseSearchParams('q=hello%20world&offset=5&limit=%2B7&page=2&hitsPerPage=3&attributesToRetrieve=a,b.c&attributesToCrop=a:5,b&cropLength=4&cropMarker=%5B%5D&attributesToHighlight=*&highlightPreTag=%3Cb%3E&highlightPostTag=%3C/b%3E&showMatchesPosition=true&sort=a:asc,b:desc&distinct=sku&facets=x,y&matchingStrategy=all&attributesToSearchOn=title&rankingScoreThreshold=0.5&locales=fr,jpn&retrieveVectors=false&personalizeUserContext=cats&useNetwork=true&showRankingScore=true&showRankingScoreDetails=false&showPerformanceDetails=true')
  t.strictSame(q, {
    ...defaultSearchQuery(),
    q: 'hello world', offset: 5, limit: 7, page: 2, hitsPerPage: 3, attributesToRetrieve: ['a', 'b.c'], attributesToCrop: ['a:5', 'b'],
    cropLength: 4, cropMarker: '[]', attributesToHighlight: ['*'], highlightPreTag: '<b>', highlightPostTag: '</b>',
    showMatchesPosition: true, sort: ['a:asc', 'b:desc'], distinct: 'sku', facets: ['x', 'y'], matchingStrategy: 'all',
    attributesToSearchOn: ['title'], rankingScoreThreshold: 0.5, locales: ['fra', 'jpn'], personalize: { userContext: 'cats' },
    useNetwork: true, showRankingScore: true, showPerformanceDetails: true,
  })
  // a leading `?` is accepted; comma lists split as-is; an empty list value is an empty list
  t.strictSame(parseSearchParams('?attributesToRetrieve=a,,b&facets=').attributesToRetrieve, ['a', '', 'b'])
  t.strictSame(parseSearchParams('facets=').facets, [])
  t.strictSame(parseSearchParams('q=').q, '')
  t.strictSame(parseSearchParams('limit=18446744073709551615').limit, 18446744073709551615)
})

t.test('GET: filter is JSON when it parses, else the string', async (t) => {
  t.strictSame(parseSearchParams('filter=' + encodeURIComponent('["a = 1", ["b = 2", "c = 3"]]')).filter, ['a = 1', ['b = 2', 'c = 3']])
  t.strictSame(parseSearchParams('filter=' + encodeURIComponent('a = 1 AND b = 2')).filter, 'a = 1 AND b = 2')
  t.strictSame(parseSearchParams('filter=' + encodeURIComponent('"a = 1"')).filter, 'a = 1')
  t.strictSame(parseSearchParams('filter=42').filter, 42)
  t.strictSame(parseSearchParams('filter=null').filter, null) // Some(Null): the filter parser rejects it
  t.strictSame(parseSearchParams('filter=').filter, '')
})

t.test('GET: sort keeps the commas of _geoPoint (fix_sort_query_parameters)', async (t) => {
  t.strictSame(fixSortQueryParameters('title:asc,year:desc'), ['title:asc', 'year:desc'])
  t.strictSame(fixSortQueryParameters('_geoPoint(12, 13):asc,title:desc'), ['_geoPoint(12,13):asc', 'title:desc'])
  t.strictSame(fixSortQueryParameters('"title:asc, _geoPoint(1.5,-2):desc"'), ['title:asc', '_geoPoint(1.5,-2):desc'])
  t.strictSame(fixSortQueryParameters(' a:asc , b:desc '), ['a:asc', 'b:desc'])
  t.strictSame(parseSearchParams('sort=' + encodeURIComponent('_geoPoint(1,2):asc')).sort, ['_geoPoint(1,2):asc'])
})

t.test('GET: hybrid and vector (TryFrom<SearchQueryGet>, hybrid.rs)', async (t) => {
  t.strictSame(parseSearchParams('hybridEmbedder=default').hybrid, { embedder: 'default', semanticRatio: 0.5 })
  t.strictSame(parseSearchParams('hybridEmbedder=default&hybridSemanticRatio=0.25').hybrid, { embedder: 'default', semanticRatio: 0.25 })
  t.strictSame(parseSearchParams('hybridEmbedder=e&vector=1,2.5,-3e0').vector, [1, 2.5, -3])
  t.strictSame(get('hybridSemanticRatio=0.2'), { code: 'invalid_search_hybrid_query', message: '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present' })
  t.strictSame(get('vector=1,2'), { code: 'missing_search_hybrid', message: '`hybridEmbedder` is mandatory when `vector` is present' })
  t.strictSame(get('q=Captain&vector=1.0,1.0&hybridEmbedder=default&hybridSemanticRatio=1.2'), { code: 'invalid_search_semantic_ratio', message: 'Invalid value in parameter `hybridSemanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(get('q=Captain&vector=1.0,1.0&hybridEmbedder=default&hybridSemanticRatio=-0.2'), { code: 'invalid_search_semantic_ratio', message: 'Invalid value in parameter `hybridSemanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(get('hybridEmbedder=e&hybridSemanticRatio=abc').code, 'invalid_search_semantic_ratio')
  // GUESSED message (Rust's ParseFloatError text)
  t.strictSame(get('hybridEmbedder=e&vector=1,x'), { code: 'invalid_search_vector', message: 'Invalid value in parameter `vector`: invalid float literal' })
})

t.test('GET errors (errors.rs, locales.rs)', async (t) => {
  t.strictSame(get('offset=doggo'), { code: 'invalid_search_offset', message: 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer' })
  t.strictSame(get('limit=doggo'), { code: 'invalid_search_limit', message: 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer' })
  t.strictSame(get('page=doggo'), { code: 'invalid_search_page', message: 'Invalid value in parameter `page`: could not parse `doggo` as a positive integer' })
  t.strictSame(get('hitsPerPage=doggo'), { code: 'invalid_search_hits_per_page', message: 'Invalid value in parameter `hitsPerPage`: could not parse `doggo` as a positive integer' })
  t.strictSame(get('cropLength=doggo'), { code: 'invalid_search_crop_length', message: 'Invalid value in parameter `cropLength`: could not parse `doggo` as a positive integer' })
  t.strictSame(get('limit=-1'), { code: 'invalid_search_limit', message: 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer' })
  t.strictSame(get('limit=18446744073709551616').code, 'invalid_search_limit')
  t.strictSame(get('retrieveVectors='), { code: 'invalid_search_retrieve_vectors', message: 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`' })
  t.strictSame(get('retrieveVectors=doggo'), { code: 'invalid_search_retrieve_vectors', message: 'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`' })
  t.strictSame(get('showMatchesPosition=doggo'), { code: 'invalid_search_show_matches_position', message: 'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`' })
  t.strictSame(get('showRankingScore=1').code, 'invalid_search_show_ranking_score')
  t.strictSame(get('showRankingScoreDetails=yes').code, 'invalid_search_show_ranking_score_details')
  t.strictSame(get('showPerformanceDetails=True').code, 'invalid_search_show_performance_details')
  t.strictSame(get('useNetwork=1').code, 'invalid_search_use_network')
  t.strictSame(get('matchingStrategy=doggo'), { code: 'invalid_search_matching_strategy', message: 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`' })
  t.strictSame(get('rankingScoreThreshold=doggo'), { code: 'invalid_search_ranking_score_threshold', message: 'Invalid value in parameter `rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.' })
  t.strictSame(get('rankingScoreThreshold=1.5').code, 'invalid_search_ranking_score_threshold')
  t.strictSame(get('q=Atta&locales=invalid'), { code: 'invalid_search_locales', message: `Invalid value in parameter \`locales\`: Unsupported locale \`invalid\`, expected one of ${LOCALES_GET}` })
  t.strictSame(get('locales=fr,xx').message, `Invalid value in parameter \`locales\`: Unsupported locale \`xx\`, expected one of ${LOCALES_GET}`)
  // unknown parameters: bad_request with the GET list (SearchQueryGet's order) and did-you-mean
  t.strictSame(get('marin=hello'), { code: 'bad_request', message: `Unknown parameter \`marin\`: expected one of ${list(SEARCH_PARAMS)}` })
  t.strictSame(get('limt=1').message, `Unknown parameter \`limt\`: did you mean \`limit\`? expected one of ${list(SEARCH_PARAMS)}`)
  t.strictSame(get('hybrid=x').code, 'bad_request')
  t.strictSame(get('media=x').code, 'bad_request')
  // first error in parameter order
  t.strictSame(get('limit=x&marin=1').code, 'invalid_search_limit')
  t.strictSame(get('marin=1&limit=x').code, 'bad_request')
})

// ---- search kind, placeholder, crop entries, floats ---------------------------------------------------------------

t.test('searchKind (routes/indexes/search.rs search_kind)', async (t) => {
  const h = (semanticRatio: number) => ({ embedder: 'e', semanticRatio })
  t.equal(searchKind({ q: null, hybrid: null, vector: null }), 'keyword')
  t.equal(searchKind({ q: '  ', hybrid: h(1), vector: null }), 'keyword')
  t.equal(searchKind({ q: null, hybrid: h(1), vector: null }), 'keyword')
  t.equal(searchKind({ q: 'a', hybrid: null, vector: null }), 'keyword')
  t.equal(searchKind({ q: 'a', hybrid: h(1), vector: null }), 'semantic')
  t.equal(searchKind({ q: null, hybrid: h(1), vector: [1] }), 'semantic')
  t.equal(searchKind({ q: 'a', hybrid: h(0), vector: [1] }), 'keyword')
  t.equal(searchKind({ q: null, hybrid: h(0.5), vector: [1] }), 'semantic')
  t.equal(searchKind({ q: 'a', hybrid: h(0.5), vector: [1] }), 'hybrid')
  t.equal(searchKind({ q: 'a', hybrid: h(0.5), vector: null }), 'hybrid')
  t.equal(searchKind({ q: '', hybrid: h(0.5), vector: [1] }), 'hybrid')
  // hybrid.rs query_combination: "query + vector, no hybrid"
  t.strictSame(failure(() => searchKind({ q: 'Captain', hybrid: null, vector: [1, 0] })), { code: 'missing_search_hybrid', message: 'Invalid request: missing `hybrid` parameter when `vector` is present.' })
  t.strictSame(failure(() => searchKind({ q: null, hybrid: null, vector: [1, 0] })).code, 'missing_search_hybrid')
})

t.test('isPlaceholder, parseCropAttribute, parseRustFloat', async (t) => {
  t.ok(isPlaceholder(null))
  t.ok(isPlaceholder(''))
  t.ok(isPlaceholder(' \t\n\u3000'))
  t.notOk(isPlaceholder('a'))
  t.notOk(isPlaceholder('\uFEFF')) // not White_Space for Rust
  t.strictSame(parseCropAttribute('title', 10), ['title', 10])
  t.strictSame(parseCropAttribute('title:5', 10), ['title', 5])
  t.strictSame(parseCropAttribute('title:abc', 10), ['title', 10])
  t.strictSame(parseCropAttribute('a:b:3', 10), ['a:b', 3])
  t.strictSame(parseCropAttribute('*:2', 10), ['*', 2])
  t.strictSame(parseCropAttribute('title:', 7), ['title', 7])
  t.equal(parseRustFloat('0.5'), 0.5)
  t.equal(parseRustFloat('.5'), 0.5)
  t.equal(parseRustFloat('5.'), 5)
  t.equal(parseRustFloat('+1e-1'), 0.1)
  t.equal(parseRustFloat('inf'), Infinity)
  t.equal(parseRustFloat('-Infinity'), -Infinity)
  t.ok(Number.isNaN(parseRustFloat('NaN')))
  t.equal(parseRustFloat(''), null)
  t.equal(parseRustFloat('0x10'), null)
  t.equal(parseRustFloat(' 1'), null)
  t.equal(parseRustFloat('1e'), null)
})

// ---- query text ----------------------------------------------------------------------------------------------------

/** A query tokenizer double: words are letter/digit runs; every other character is its own separator token, except
 *  whitespace runs (one token); `.,;!?` are hard. Stop words are given explicitly. */
function tokenizer(stopWords: string[] = []) {
  return (text: string): QueryToken[] => {
    const out: QueryToken[] = []
    const re = /[\p{L}\p{N}]+|\s+|[^\p{L}\p{N}\s]/gu
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null) {
      const s = m[0]
      if (/^[\p{L}\p{N}]/u.test(s)) out.push({ lemma: s.toLowerCase(), kind: stopWords.includes(s.toLowerCase()) ? 'stopWord' : 'word' })
      else out.push({ lemma: s, kind: 'separator', separatorKind: /^[.,;!?]$/.test(s) ? 'hard' : 'soft' })
    }
    return out
  }
}

const parse = (q: string, stop: string[] = [], wordsLimit?: number | null) => parseQueryText(q, tokenizer(stop), wordsLimit === undefined ? {} : { wordsLimit })
const words = (q: string, stop?: string[]) => parse(q, stop).terms.map((w) => `${w.word}@${w.position}${w.prefix ? '*' : ''}`)

t.test('query text: words, positions, prefix', async (t) => {
  t.strictSame(words('hello world'), ['hello@0', 'world@1*'])
  t.strictSame(words('hello world '), ['hello@0', 'world@1']) // anything after the last word: not a prefix
  t.strictSame(words('hello. world'), ['hello@0', 'world@8*']) // hard separator: +7
  t.strictSame(words('. hello'), ['hello@7*']) // starting with a hard separator (meilisearch#3785)
  t.strictSame(parse('').located, [])
  t.strictSame(parse('   ').located, [])
  // stop words: dropped, positions kept, except as the last token (then a prefix term)
  t.strictSame(words('the cat the', ['the']), ['cat@1', 'the@2*'])
  t.strictSame(words('the cat the ', ['the']), ['cat@1'])
})

t.test('query text: phrases', async (t) => {
  const p = parse('"new york" city')
  t.strictSame(p.phrases, [{ type: 'phrase', words: ['new', 'york'], start: 0, end: 1 }])
  t.strictSame(p.terms.map((w) => w.word), ['city'])
  t.strictSame(p.located.map((x) => x.type), ['phrase', 'word'])
  // unterminated quote: the rest of the query is a phrase
  t.strictSame(parse('a "b c').phrases, [{ type: 'phrase', words: ['b', 'c'], start: 1, end: 2 }])
  t.strictSame(parse('a "b c').terms.map((w) => w.word), ['a'])
  // a hard separator inside a phrase closes it and starts another
  t.strictSame(parse('"a b. c d"').phrases.map((x) => x.words), [['a', 'b'], ['c', 'd']])
  // stop words inside phrases are kept as wildcards; a phrase of only stop words vanishes
  // (milli's PhraseBuilder moves `start` while the phrase holds only stop words)
  t.strictSame(parse('"the cat"', ['the']).phrases, [{ type: 'phrase', words: [null, 'cat'], start: 1, end: 1 }])
  t.strictSame(parse('"the" cat', ['the']).located.map((x) => x.type), ['word'])
  t.strictSame(parse('""').located, [])
  // quotes glued to words
  t.strictSame(parse('x"y z"w').phrases.map((x) => x.words), [['y', 'z']])
})

t.test('query text: negative terms', async (t) => {
  t.strictSame(parse('-cat dog').negative, [{ type: 'word', word: 'cat' }])
  t.strictSame(parse('-cat dog').terms.map((w) => w.word), ['dog'])
  t.strictSame(parse('dog -cat').negative, [{ type: 'word', word: 'cat' }])
  t.strictSame(parse('dog -cat').terms.map((w) => w.word), ['dog'])
  // `-` must follow whitespace (or start the query) and be glued to the word
  t.strictSame(parse('well-known').negative, [])
  t.strictSame(parse('well-known').terms.map((w) => w.word), ['well', 'known'])
  t.strictSame(parse('- cat').negative, []) // a lone `-` is ignored
  t.strictSame(parse('- cat').terms.map((w) => w.word), ['cat'])
  t.strictSame(parse('cat -').negative, [])
  t.strictSame(parse('--cat').negative, [])
  // negative phrases
  t.strictSame(parse('-"new york" city').negative, [{ type: 'phrase', words: ['new', 'york'], start: 0, end: 1 }])
  t.strictSame(parse('-"new york" city').located.map((x) => x.type), ['word'])
  t.strictSame(parse('city -"new york').negative, [{ type: 'phrase', words: ['new', 'york'], start: 1, end: 2 }])
  // a hard separator inside a negative phrase: both parts are negative
  t.strictSame(parse('-"a. b"').negative.map((x) => x.type === 'phrase' ? x.words : x.word), [['a'], ['b']])
  // negative words do not count against the words limit
  t.strictSame(parse('-a -b -c d e', [], 2).terms.map((w) => w.word), ['d', 'e'])
})

t.test('query text: the words limit (10 terms)', async (t) => {
  const many = 'a b c d e f g h i j k l'
  t.strictSame(parse(many).terms.map((w) => w.word), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])
  t.equal(parse(many, [], null).terms.length, 12)
  t.strictSame(parse('"a b" c d', [], 2).located.map((x) => x.type), ['phrase', 'word'])
  // the limit is checked before each token; a phrase counts as one term
  t.strictSame(parse('a "b c d" e', [], 2).located.map((x) => (x.type === 'word' ? x.word : x.words.join(' '))), ['a', 'b c d'])
})
