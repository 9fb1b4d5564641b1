/**
 * Search requests over HTTP: validation errors (codes and messages), GET = POST, pagination and response shape,
 * displayed/retrieved attributes, highlight/crop/_matchesPosition. Expectations come from Meilisearch's integration
 * tests: `crates/meilisearch/tests/search/{errors,pagination,formatted,locales,restrict_searchable,mod}.rs`.
 * Where no snapshot exists for a parameter, the message is the same deserr format as a snapshotted parameter of the
 * same type (marked "by analogy").
 */
import t from 'tap'
import { call, seedIndex, serverFor, updateSettings } from '../helpers/server.js'
import { err, MOVIES, NESTED } from '../helpers/meili.js'

type Doc = Record<string, unknown>

const LOCALES_POST = 'Unknown value `invalid` at `.locales[0]`: expected one of `af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`'
const LOCALES_GET = 'Invalid value in parameter `locales`: Unsupported locale `invalid`, expected one of af, ak, am, ar, az, be, bg, bn, ca, cs, da, de, el, en, eo, es, et, fa, fi, fr, gu, he, hi, hr, hu, hy, id, it, ja, jv, ka, km, kn, ko, la, lt, lv, mk, ml, mr, my, nb, ne, nl, or, pa, pl, pt, ro, ru, si, sk, sl, sn, sr, sv, ta, te, th, tk, tl, tr, uk, ur, uz, vi, yi, zh, zu, afr, aka, amh, ara, aze, bel, ben, bul, cat, ces, cmn, dan, deu, ell, eng, epo, est, fin, fra, guj, heb, hin, hrv, hun, hye, ind, ita, jav, jpn, kan, kat, khm, kor, lat, lav, lit, mal, mar, mkd, mya, nep, nld, nob, ori, pan, pes, pol, por, ron, rus, sin, slk, slv, sna, spa, srp, swe, tam, tel, tgl, tha, tuk, tur, ukr, urd, uzb, vie, yid, zho, zul'

t.test('search parameters and responses', async (t) => {
  const { url } = await serverFor(t)

  const post = (uid: string, json: unknown) => call(`${url}/indexes/${uid}/search`, { method: 'POST', json })
  const get = (uid: string, query: string) => call(`${url}/indexes/${uid}/search${query}`)

  const index = (uid: string, settings: Record<string, unknown>, docs: Doc[]) => seedIndex(url, uid, settings, docs)
  const settings = (uid: string, body: Record<string, unknown>) => updateSettings(url, uid, body)
  async function ok(uid: string, body: unknown): Promise<any> {
    const r = await post(uid, body)
    if (r.status !== 200) throw new Error(`search ${JSON.stringify(body)}: ${r.status} ${r.text}`)
    return r.body
  }

  await index('movies', {}, MOVIES)
  await index('nested', { filterableAttributes: ['father', 'doggos'], sortableAttributes: ['doggos'] }, NESTED)

  // ---- errors.rs ------------------------------------------------------------------------------------------------------

  await t.test('errors.rs: bad types in a POST body (checked before the index is looked up)', async (t) => {
    // Meilisearch's tests send these to an index that was never created: the body is rejected first.
    const cases: [Doc, string, string][] = [
      [{ q: ['doggo'] }, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`'],
      [{ offset: 'doggo' }, 'invalid_search_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`'],
      [{ limit: 'doggo' }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`'],
      [{ page: 'doggo' }, 'invalid_search_page', 'Invalid value type at `.page`: expected a positive integer, but found a string: `"doggo"`'],
      [{ hitsPerPage: 'doggo' }, 'invalid_search_hits_per_page', 'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`'],
      [{ attributesToRetrieve: 'doggo' }, 'invalid_search_attributes_to_retrieve', 'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`'],
      [{ retrieveVectors: 'doggo' }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`'],
      [{ retrieveVectors: [true] }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`'],
      [{ attributesToCrop: 'doggo' }, 'invalid_search_attributes_to_crop', 'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`'],
      [{ cropLength: 'doggo' }, 'invalid_search_crop_length', 'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`'],
      [{ attributesToHighlight: 'doggo' }, 'invalid_search_attributes_to_highlight', 'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`'],
      [{ sort: 'doggo' }, 'invalid_search_sort', 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`'],
      [{ showMatchesPosition: 'doggo' }, 'invalid_search_show_matches_position', 'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`'],
      [{ facets: 'doggo' }, 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`'],
      [{ rankingScoreThreshold: 'doggo' }, 'invalid_search_ranking_score_threshold', 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`'],
      [{ rankingScoreThreshold: 42 }, 'invalid_search_ranking_score_threshold', 'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'],
      [{ highlightPreTag: ['doggo'] }, 'invalid_search_highlight_pre_tag', 'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`'],
      [{ highlightPostTag: ['doggo'] }, 'invalid_search_highlight_post_tag', 'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`'],
      [{ cropMarker: ['doggo'] }, 'invalid_search_crop_marker', 'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`'],
      [{ matchingStrategy: 'doggo' }, 'invalid_search_matching_strategy', 'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
      [{ matchingStrategy: { doggo: 'doggo' } }, 'invalid_search_matching_strategy', 'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`'],
      [{ distinct: true }, 'invalid_search_distinct', 'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`'],
      [{ q: 'Atta', locales: ['invalid'] }, 'invalid_search_locales', LOCALES_POST],
      // by analogy (same deserr readers as snapshotted parameters of the same type)
      [{ attributesToSearchOn: 'doggo' }, 'invalid_search_attributes_to_search_on', 'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"doggo"`'],
      [{ showRankingScore: 'doggo' }, 'invalid_search_show_ranking_score', 'Invalid value type at `.showRankingScore`: expected a boolean, but found a string: `"doggo"`'],
      [{ showRankingScoreDetails: 'doggo' }, 'invalid_search_show_ranking_score_details', 'Invalid value type at `.showRankingScoreDetails`: expected a boolean, but found a string: `"doggo"`'],
    ]
    for (const [body, code, message] of cases) {
      const r = await post('never_created', body)
      t.equal(r.status, 400, JSON.stringify(body))
      t.strictSame(r.body, err(message, code), JSON.stringify(body))
    }
  })

  await t.test('errors.rs: bad query parameters in a GET', async (t) => {
    const cases: [string, string, string][] = [
      ['?offset=doggo', 'invalid_search_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer'],
      ['?limit=doggo', 'invalid_search_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
      ['?page=doggo', 'invalid_search_page', 'Invalid value in parameter `page`: could not parse `doggo` as a positive integer'],
      ['?hitsPerPage=doggo', 'invalid_search_hits_per_page', 'Invalid value in parameter `hitsPerPage`: could not parse `doggo` as a positive integer'],
      ['?retrieveVectors=', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`'],
      ['?retrieveVectors=doggo', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
      ['?cropLength=doggo', 'invalid_search_crop_length', 'Invalid value in parameter `cropLength`: could not parse `doggo` as a positive integer'],
      ['?showMatchesPosition=doggo', 'invalid_search_show_matches_position', 'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
      ['?matchingStrategy=doggo', 'invalid_search_matching_strategy', 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`'],
      ['?q=Atta&locales=invalid', 'invalid_search_locales', LOCALES_GET],
      // by analogy
      ['?showRankingScore=doggo', 'invalid_search_show_ranking_score', 'Invalid value in parameter `showRankingScore`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
      ['?showRankingScoreDetails=doggo', 'invalid_search_show_ranking_score_details', 'Invalid value in parameter `showRankingScoreDetails`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
      ['?rankingScoreThreshold=42', 'invalid_search_ranking_score_threshold', 'Invalid value in parameter `rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'],
    ]
    for (const [query, code, message] of cases) {
      const r = await get('never_created', query)
      t.equal(r.status, 400, query)
      t.strictSame(r.body, err(message, code), query)
    }
  })

  await t.test('errors.rs search_unexisting_parameter: unknown field/parameter is bad_request', async (t) => {
    let r = await post('movies', { marin: 'hello' })
    t.equal(r.status, 400)
    t.equal(r.body?.code, 'bad_request')
    t.equal(r.body?.type, 'invalid_request')
    t.match(r.body?.message, /^Unknown field `marin`: expected one of `q`, `offset`, `limit`, /)
    r = await get('movies', '?marin=hello')
    t.equal(r.status, 400)
    t.equal(r.body?.code, 'bad_request')
    t.match(r.body?.message, /^Unknown parameter `marin`: expected one of `q`, `offset`, `limit`, /)
  })

  await t.test('errors.rs search_unexisting_index: index_not_found, POST and GET', async (t) => {
    const expected = err('Index `DOES_NOT_EXISTS` not found.', 'index_not_found')
    let r = await post('DOES_NOT_EXISTS', { q: 'hello' })
    t.equal(r.status, 404)
    t.strictSame(r.body, expected)
    r = await get('DOES_NOT_EXISTS', '?q=hello')
    t.equal(r.status, 404)
    t.strictSame(r.body, expected)
  })

  await t.test('errors.rs search_bad_filter (needs the index)', async (t) => {
    const r = await post('movies', { filter: true })
    t.equal(r.status, 400)
    t.strictSame(r.body, err('Invalid syntax for the filter parameter: `expected String, Array, found: true`.', 'invalid_search_filter'))
  })

  await t.test('errors.rs search_on_unknown_field(_plus_joker): attributesToSearchOn must be searchable', async (t) => {
    await index('test', { searchableAttributes: ['id', 'title'] }, MOVIES)
    const expected = err('Index `test`: Attribute `unknown` is not searchable. Available searchable attributes are: `id, title`.', 'invalid_search_attributes_to_search_on')
    for (const on of [['unknown'], ['*', 'unknown'], ['unknown', '*']]) {
      const r = await post('test', { q: 'Captain Marvel', attributesToSearchOn: on })
      t.equal(r.status, 400, JSON.stringify(on))
      t.strictSame(r.body, expected, JSON.stringify(on))
    }
  })

  // ---- response shape and pagination (pagination.rs, mod.rs) ----------------------------------------------------------

  /** Keys in order; a trailing `requestUid` (newer Meilisearch) is tolerated. */
  const keys = (body: Doc) => Object.keys(body).filter((k) => k !== 'requestUid')

  await t.test('pagination.rs: offset/limit and page/hitsPerPage response shapes', async (t) => {
    let r = await ok('movies', {})
    t.same(keys(r), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits'])
    t.same([r.query, r.limit, r.offset, r.estimatedTotalHits], ['', 20, 0, 5])
    t.ok(Number.isInteger(r.processingTimeMs), 'processingTimeMs is an integer')
    t.same(r.hits.map((h: Doc) => h.id), MOVIES.map((d) => d.id), 'placeholder search: insertion order')
    r = await ok('movies', { page: 1 })
    t.same(keys(r), ['hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits'])
    t.same([r.hits.length, r.hitsPerPage, r.page, r.totalPages, r.totalHits], [5, 20, 1, 1, 5], 'simple_search')
    r = await ok('movies', { page: 0 })
    t.same([r.hits.length, r.page, r.totalPages, r.totalHits], [0, 0, 1, 5], 'page_zero_should_not_return_any_result')
    r = await ok('movies', { hitsPerPage: 1 })
    t.same([r.hits.length, r.totalHits, r.page, r.totalPages], [1, 5, 1, 5], 'hits_per_page_1')
    r = await ok('movies', { hitsPerPage: 0 })
    t.same([r.hits.length, r.totalHits, r.page, r.totalPages], [0, 5, 1, 0], 'hits_per_page_0_should_not_return_any_result')
  })

  await t.test('pagination.rs max_total_hits_caps_estimated_and_total_hits', async (t) => {
    await index('capped', { pagination: { maxTotalHits: 2 } }, [{ id: 1, title: 'Document 1' }, { id: 2, title: 'Document 2' }, { id: 3, title: 'Document 3' }])
    let r = await ok('capped', { offset: 0, limit: 1 })
    t.equal(r.hits.length, 1)
    t.equal(r.estimatedTotalHits, 2)
    r = await ok('capped', { page: 1, hitsPerPage: 1 })
    t.equal(r.hits.length, 1)
    t.equal(r.totalHits, 2)
    t.equal(r.totalPages, 2)
  })

  await t.test('pagination.rs test_issue_5274: threshold with pages', async (t) => {
    await index('issue5274', {}, [{ id: 1, title: 'Document 1', content: 'This is the first.' }, { id: 2, title: 'Document 2', content: 'This is the second doc.' }])
    const first = await ok('issue5274', { q: 'doc', page: 1, hitsPerPage: 2, showRankingScore: true })
    const score = first.hits[1]?._rankingScore as number
    const r = await ok('issue5274', { q: 'doc', page: 1, hitsPerPage: 1, rankingScoreThreshold: score + 0.0001 })
    const { processingTimeMs, requestUid, ...rest } = r
    t.strictSame(rest, {
      hits: [{ id: 2, title: 'Document 2', content: 'This is the second doc.' }],
      query: 'doc', hitsPerPage: 1, page: 1, totalPages: 1, totalHits: 1,
    })
  })

  await t.test('mod.rs placeholder_search_is_hard_limited / search_is_hard_limited', async (t) => {
    await index('hard', {}, Array.from({ length: 1200 }, (_, i) => ({ id: i, text: 'I am unique!' })))
    for (const q of [undefined, 'unique']) {
      const base = q === undefined ? {} : { q }
      t.equal((await ok('hard', { ...base, limit: 1500 })).hits.length, 1000, `${q}: limit clamped to maxTotalHits`)
      t.equal((await ok('hard', { ...base, offset: 800, limit: 400 })).hits.length, 200, `${q}: offset+limit clamped`)
    }
    await settings('hard', { pagination: { maxTotalHits: 10_000 } })
    for (const q of [undefined, 'unique']) {
      const base = q === undefined ? {} : { q }
      t.equal((await ok('hard', { ...base, limit: 1500 })).hits.length, 1200, `${q}: maxTotalHits 10000`)
      t.equal((await ok('hard', { ...base, offset: 1000, limit: 400 })).hits.length, 200)
    }
  })

  await t.test('GET with query parameters gives the POST response', async (t) => {
    const pairs: [Doc, string][] = [
      [{ q: 'Captain Marvel' }, '?q=Captain%20Marvel'],
      [{ q: 'a', limit: 2, offset: 1, attributesToRetrieve: ['id', 'title'] }, '?q=a&limit=2&offset=1&attributesToRetrieve=id,title'],
      [{ q: 'dragon', attributesToHighlight: ['title'], attributesToCrop: ['title:2'], cropMarker: '[..]', highlightPreTag: '<b>', highlightPostTag: '</b>', showMatchesPosition: true },
        '?q=dragon&attributesToHighlight=title&attributesToCrop=title:2&cropMarker=%5B..%5D&highlightPreTag=%3Cb%3E&highlightPostTag=%3C%2Fb%3E&showMatchesPosition=true'],
      [{ q: 'Captain Supercopter Marvel', matchingStrategy: 'frequency', page: 1, hitsPerPage: 2, showRankingScore: true }, '?q=Captain+Supercopter+Marvel&matchingStrategy=frequency&page=1&hitsPerPage=2&showRankingScore=true'],
      [{ q: 'glass', attributesToSearchOn: ['title'], showRankingScoreDetails: true, rankingScoreThreshold: 0.1 }, '?q=glass&attributesToSearchOn=title&showRankingScoreDetails=true&rankingScoreThreshold=0.1'],
    ]
    for (const [body, query] of pairs) {
      const p = await post('movies', body)
      const g = await get('movies', query)
      t.equal(g.status, 200, query)
      const strip = (b: any) => { const { processingTimeMs, requestUid, ...rest } = b ?? {}; return rest }
      t.strictSame(strip(g.body), strip(p.body), query)
      t.same(Object.keys(g.body ?? {}), Object.keys(p.body ?? {}), `${query}: same key order`)
    }
  })

  // ---- displayed and retrieved attributes (mod.rs, formatted.rs) --------------------------------------------------------

  await t.test('mod.rs displayed_attributes: attributesToRetrieve cannot widen displayedAttributes', async (t) => {
    await index('displayed', { displayedAttributes: ['title'] }, MOVIES)
    const r = await ok('displayed', { attributesToRetrieve: ['title', 'id'] })
    t.strictSame(r.hits[0], { title: 'Shazam!' })
  })

  await t.test('formatted.rs displayedattr_2_smol', async (t) => {
    await index('smol', { displayedAttributes: ['id'] }, NESTED)
    const first = async (body: Doc) => (await ok('smol', body)).hits[0]
    t.strictSame(await first({ attributesToRetrieve: ['father', 'id'], attributesToHighlight: ['mother'], attributesToCrop: ['cattos'] }), { id: 852 })
    t.strictSame(await first({ attributesToRetrieve: ['id'] }), { id: 852 })
    t.strictSame(await first({ attributesToHighlight: ['id'] }), { id: 852, _formatted: { id: '852' } })
    t.strictSame(await first({ attributesToCrop: ['id'] }), { id: 852, _formatted: { id: '852' } })
    t.strictSame(await first({ attributesToHighlight: ['id'], attributesToCrop: ['id'] }), { id: 852, _formatted: { id: '852' } })
    t.strictSame(await first({ attributesToHighlight: ['cattos'] }), { id: 852 })
    t.strictSame(await first({ attributesToCrop: ['cattos'] }), { id: 852 })
    t.strictSame(await first({ attributesToRetrieve: ['cattos'] }), {})
    t.strictSame(await first({ attributesToRetrieve: ['cattos'], attributesToHighlight: ['cattos'], attributesToCrop: ['cattos'] }), {})
    t.strictSame(await first({ attributesToRetrieve: ['cattos'], attributesToHighlight: ['id'] }), { _formatted: { id: '852' } })
    t.strictSame(await first({ attributesToRetrieve: ['cattos'], attributesToCrop: ['id'] }), { _formatted: { id: '852' } })
  })

  // ---- highlight, crop, _matchesPosition on multi-byte text (formatted.rs) ------------------------------------------------

  await t.test('formatted.rs formatted_contain_wildcard (pésti: 2-byte é)', async (t) => {
    await index('wildcard', { displayedAttributes: ['id', 'cattos'] }, NESTED)
    const first = async (body: Doc) => (await ok('wildcard', { q: 'pésti', ...body })).hits[0]
    // `length: 5` is Meilisearch's snapshot (formatted.rs at 15062e7) for the 6-byte "pésti": the query's last word is a
    // prefix term, and milli's prefix branch (matches/matching_words.rs `match_unique_words`) sizes the match from the
    // normalized derivation (`pesti`, 5 bytes) through `token.original_lengths`.
    t.strictSame(await first({ attributesToRetrieve: ['father', 'mother'], attributesToHighlight: ['father', 'mother', '*'], attributesToCrop: ['doggos'], showMatchesPosition: true }), {
      _formatted: { id: '852', cattos: '<em>pésti</em>' },
      _matchesPosition: { cattos: [{ start: 0, length: 5 }] },
    })
    t.strictSame(await first({ attributesToRetrieve: ['*'] }), { id: 852, cattos: 'pésti' })
    t.strictSame(await first({ attributesToRetrieve: ['*'], attributesToHighlight: ['id'], showMatchesPosition: true }), {
      id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' }, _matchesPosition: { cattos: [{ start: 0, length: 5 }] },
    })
    t.strictSame(await first({ attributesToRetrieve: ['*'], attributesToCrop: ['*'] }), { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } })
    t.strictSame(await first({ attributesToCrop: ['*'] }), { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } })
  })

  await t.test('formatted.rs format_nested', async (t) => {
    const first = async (body: Doc) => (await ok('nested', body)).hits[0]
    const names = [{ name: 'bobby' }, { name: 'buddy' }]
    const namesAges = [{ name: 'bobby', age: '2' }, { name: 'buddy', age: '4' }]
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: ['doggos'] }), { doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }] })
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: ['doggos.name'] }), { doggos: names })
    t.strictSame(await first({ q: 'bobby', attributesToRetrieve: ['doggos.name'], showMatchesPosition: true }), {
      doggos: names, _matchesPosition: { 'doggos.name': [{ start: 0, length: 5, indices: [0] }] },
    })
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.name'] }), { _formatted: { doggos: names } })
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: [], attributesToCrop: ['doggos.name'] }), { _formatted: { doggos: names } })
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: ['doggos.name'], attributesToHighlight: ['doggos.age'] }), { doggos: names, _formatted: { doggos: namesAges } })
    t.strictSame(await first({ q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.age'], attributesToCrop: ['doggos.name'] }), { _formatted: { doggos: namesAges } })
  })

  await t.test('mod.rs simple_search: pésti matches both pésti and pestiféré', async (t) => {
    const r = await ok('nested', { q: 'pésti' })
    t.same(r.hits.map((h: Doc) => h.id), [852, 654])
  })

  await t.test('formatted.rs search_formatted_from_sdk: crop with a marker and a highlight', async (t) => {
    await index('sdk', { filterableAttributes: ['genre'], searchableAttributes: ['title'] }, [
      { id: 123, title: 'Pride and Prejudice', genre: 'romance' },
      { id: 456, title: 'Le Petit Prince', genre: 'adventure' },
      { id: 1, title: 'Alice In Wonderland', genre: 'adventure' },
      { id: 2, title: 'Le Rouge et le Noir', genre: 'romance' },
      { id: 1344, title: 'The Hobbit', genre: 'adventure' },
      { id: 4, title: 'Harry Potter and the Half-Blood Prince', genre: 'fantasy' },
      { id: 7, title: 'Harry Potter and the Chamber of Secrets', genre: 'fantasy' },
      { id: 42, title: "The Hitchhiker's Guide to the Galaxy" },
    ])
    const r = await ok('sdk', { q: 'prince', attributesToCrop: ['title'], cropLength: 2, filter: 'genre = adventure', attributesToHighlight: ['title'], attributesToRetrieve: ['title'] })
    t.strictSame(r.hits[0], { title: 'Le Petit Prince', _formatted: { title: '…Petit <em>Prince</em>' } })
  })

  await t.test('locales.rs: a valid locales list is accepted (POST and GET)', async (t) => {
    t.equal((await post('movies', { q: 'Atta', locales: ['jpn', 'en'] })).status, 200)
    t.equal((await get('movies', '?q=Atta&locales=jpn,en')).status, 200)
  })
})
