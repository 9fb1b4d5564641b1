/**
 * The network's pure parts: PATCH merging (engine/network/merge.ts), URL checks with the `url` crate's reasons,
 * remote query bodies, and merging remote hits by weighted score.
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import { checkCommunityEdition, mergeNetwork } from '../../../engine/network/merge.js'
import { urlParseError } from '../../../engine/network/url.js'
import { remoteQueryBody } from '../../../engine/network/query-body.js'
import { mergeRemoteHits, networkDocumentKey, remoteFederation, remoteHitCount, addRemoteFacets, sortRemoteFacets } from '../../../engine/network/remote-results.js'
import { uuidV7 } from '../../../engine/network/uuid.js'
import { emptyNetwork, type NetworkPatch } from '../../../engine/network/types.js'
import { defaultSearchQuery, type Federation } from '../../../engine/search/request.js'
import type { ComputedFacets } from '../../../engine/search/federated-facets.js'

const patch = (p: Partial<NetworkPatch>): NetworkPatch => ({ remotes: undefined, shards: undefined, self: undefined, leader: undefined, previousRemotes: false, previousShards: false, ...p })
const remote = (url: string | null | undefined, searchApiKey?: string | null, writeApiKey?: string | null) => ({ url, searchApiKey, writeApiKey })

function code(fn: () => unknown): string | undefined {
  try { fn() } catch (err) { return err instanceof TesseraError ? `${err.code}: ${err.message}` : String(err) }
  return undefined
}

t.test('merging a PATCH', async (t) => {
  let n = mergeNetwork(emptyNetwork(), patch({ self: 'b', remotes: { b: remote('http://b'), a: remote('http://a', 'k') } }))
  t.same(Object.keys(n.remotes), ['a', 'b'], 'name order')
  t.same(n.remotes.a, { url: 'http://a', searchApiKey: 'k', writeApiKey: null })
  n = mergeNetwork(n, patch({ remotes: { a: remote(undefined, undefined, 'w') } }))
  t.same(n.remotes.a, { url: 'http://a', searchApiKey: 'k', writeApiKey: 'w' })
  n = mergeNetwork(n, patch({ shards: { s: { remotes: ['b', 'a'], addRemotes: ['c'], removeRemotes: ['b'] } } }))
  t.same(n.shards.s, { remotes: ['a', 'c'] })
  n = mergeNetwork(n, patch({ remotes: { a: null } }))
  t.same(n.shards.s, { remotes: ['c'] }, 'a removed remote leaves its shards')
  n = mergeNetwork(n, patch({ shards: { s: { remotes: null, addRemotes: null, removeRemotes: ['c'] } } }))
  t.same(n.shards, {}, 'a shard without owners is dropped')
  t.equal(mergeNetwork(n, patch({ remotes: null })).remotes.b, undefined)
  t.equal(mergeNetwork(n, patch({})).self, 'b', 'absent fields are kept')
  t.not(mergeNetwork(n, patch({})).version, n.version, 'a new version every time')

  t.equal(code(() => mergeNetwork(n, patch({ remotes: { x: remote(undefined, 'k') } }))), 'missing_network_url: Missing field `.remotes.x.url`')
  t.equal(code(() => mergeNetwork(n, patch({ remotes: { b: remote(null) } }))), 'invalid_network_url: Field `.remotes.b.url` cannot be set to `null`')
  t.equal(code(() => mergeNetwork(n, patch({ remotes: { z: remote('nope'), y: remote('http://:1') } }))), 'invalid_network_url: Invalid `.remotes.y.url` (`http://:1`): empty host', 'the first error in name order')
  t.equal(code(() => checkCommunityEdition(patch({ leader: 'a' }))), 'requires_enterprise_edition: Meilisearch Enterprise Edition is required to set `network.leader`')
  t.equal(code(() => checkCommunityEdition(patch({ leader: null }))), undefined)
  t.match(code(() => checkCommunityEdition(patch({ previousRemotes: true }))), /^unexpected_network_previous_remotes/)
})

t.test("URL checks with the url crate's reasons", async (t) => {
  t.equal(urlParseError('http://localhost:7700'), null)
  t.equal(urlParseError('https://france-visas.gouv.fr/'), null)
  t.equal(urlParseError('no-http-scheme'), 'relative URL without a base')
  t.equal(urlParseError('localhost:7700'), null, 'a scheme the crate does not know is still a URL')
  t.equal(urlParseError('http://'), 'empty host')
  t.equal(urlParseError('http://host:port'), 'invalid port number')
  t.equal(urlParseError('http://[::1'), 'invalid IPv6 address')
  t.equal(urlParseError('http://1.2.3.999'), 'invalid IPv4 address')
  t.equal(urlParseError('http://a b'), 'invalid domain character')
})

t.test('UUID v7', async (t) => {
  const v = uuidV7(0x0123456789ab)
  t.match(v, /^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.ok(uuidV7(2) > uuidV7(1), 'ordered by time')
})

t.test('remote query bodies and federation', async (t) => {
  const query = { ...defaultSearchQuery(), q: 'x', limit: 5, facets: ['a'], useNetwork: true, filter: 'a = 1', showRankingScore: true, hybrid: { embedder: 'e', semanticRatio: 0.5 } }
  t.same(remoteQueryBody('movies', query, { weight: 2, queryPosition: 3 }), {
    indexUid: 'movies', q: 'x', filter: 'a = 1', hybrid: { embedder: 'e', semanticRatio: 0.5 }, showRankingScore: true,
    federationOptions: { weight: 2, queryPosition: 3 },
  }, 'defaults, pagination, facets and useNetwork are left out')
  const federation: Federation = { limit: 3, offset: 4, page: null, hitsPerPage: null, facetsByIndex: new Map([['movies', ['a']]]), mergeFacets: { maxValuesPerFacet: 2 }, distinct: 'd', showPerformanceDetails: false }
  t.same(remoteFederation(federation), { limit: 7, offset: 0, facetsByIndex: { movies: ['a'] }, distinct: 'd' })
  t.same(remoteFederation({ ...federation, page: 3, hitsPerPage: 5 }), { page: 1, hitsPerPage: 15, facetsByIndex: { movies: ['a'] }, distinct: 'd' })
  t.same(remoteFederation({ ...federation, page: 0, hitsPerPage: null, facetsByIndex: new Map(), distinct: null }), { page: 0 })
})

t.test('merging remote hits', async (t) => {
  const hit = (id: number, score: number, position = 0) => ({ id, _federation: { indexUid: 'i', queriesPosition: position, weightedRankingScore: score } })
  const remoteHit = (id: number, score: number, position = 0) => ({ id, _federation: { ...hit(id, score, position)._federation, weightedScoreValues: [{ weightedScore: score }] } })
  const local = [hit(1, 0.9), hit(2, 0.5)]
  const outcomes = [
    { name: 'r1', result: { hits: [remoteHit(10, 0.95), remoteHit(11, 0.5, 1)], estimatedTotalHits: 7 } },
    { name: 'r2', error: new TesseraError('remote_timeout', 'x') },
  ]
  const merged = mergeRemoteHits(local, 'me', outcomes, 0, 10).hits
  t.same(merged.map((h) => h.id), [10, 1, 2, 11], 'by weighted score, ties to the lower query position')
  t.same(merged[0]!._federation, { indexUid: 'i', queriesPosition: 0, weightedRankingScore: 0.95, remote: 'r1' }, 'weightedScoreValues removed, remote added')
  t.same(merged[1]!._federation, { indexUid: 'i', queriesPosition: 0, weightedRankingScore: 0.9, remote: 'me' })
  t.same(mergeRemoteHits(local, 'me', outcomes, 1, 2).hits.map((h) => h.id), [1, 2], 'the skip/take slice')
  const colored = (h: { id: number }, color: string) => ({ ...h, color })
  const distinct = mergeRemoteHits([colored(hit(1, 0.9), 'red'), colored(hit(2, 0.5), 'Blue')], 'me',
    [{ name: 'r1', result: { hits: [colored(remoteHit(10, 0.95), 'blue'), colored(remoteHit(11, 0.8), 'green'), colored(remoteHit(12, 0.1), 'red')] } }], 0, 2, 'color')
  t.same(distinct.hits.map((h) => h.id), [10, 1], 'one hit per distinct value across hosts (values normalized)')
  t.equal(distinct.rejected, 2, 'every duplicate is counted, beyond the page too')
  t.equal(remoteHitCount(outcomes), 7)
  const byIndex = new Map([['i', { distribution: { color: { red: 1 } }, stats: { n: { min: 1, max: 2 } } }]])
  addRemoteFacets(byIndex, [{ name: 'r1', result: { hits: [], facetsByIndex: { i: { distribution: { color: { red: 2, blue: 1 } }, stats: { n: { min: 0, max: 1 } } } } } }])
  t.same(byIndex.get('i'), { distribution: { color: { red: 3, blue: 1 } }, stats: { n: { min: 0, max: 2 } } })
})

t.test('facet values put back in each index order once the remotes counts are in', async (t) => {
  const byIndex = new Map<string, ComputedFacets>([
    ['z', { distribution: { c: { b: 1, a: 1 } }, stats: {} }],
    ['m', { distribution: { color: { red: 1, blue: 5, green: 3 }, size: { '9.5': 2, '10.5': 1 } }, stats: {} }],
  ])
  sortRemoteFacets(byIndex, new Map([['m', { orderOf: (f: string) => (f === 'color' ? 'count' as const : 'alpha' as const), maxValuesPerFacet: 2 }]]))
  t.same([...byIndex.keys()], ['m', 'z'], 'indexes in uid order')
  t.same(Object.entries(byIndex.get('m')!.distribution.color!), [['blue', 5], ['green', 3]], 'count order, cut at maxValuesPerFacet')
  t.same(Object.keys(byIndex.get('m')!.distribution.size!), ['10.5', '9.5'], 'alpha order compares values as strings')
  t.same(Object.keys(byIndex.get('z')!.distribution.c!), ['b', 'a'], 'an index held only by remotes keeps their order')
})

t.test('useNetwork hits of one document are kept once', async (t) => {
  const hit = (id: unknown, score: number, position: number, indexUid = 'i') => ({ id, _federation: { indexUid, queriesPosition: position, weightedRankingScore: score } })
  const key = networkDocumentKey(new Set([0]), (uid) => (uid === 'i' ? 'id' : null))
  const merged = mergeRemoteHits([hit(1, 0.9, 0), hit(2, 0.8, 1)], 'me', [{ name: 'r', result: { hits: [hit(1, 0.95, 0), hit(2, 0.7, 1), hit(3, 0.5, 0), hit(3, 0.4, 0, 'j')] } }], 0, 10, null, key)
  t.same(merged.hits.map((h) => [h.id, (h._federation as { remote: string }).remote]), [[1, 'r'], [2, 'me'], [2, 'r'], [3, 'r'], [3, 'r']], 'only position 0 of index i is deduplicated, the best hit kept')
  t.equal(merged.rejected, 1)
  t.equal(key(hit('1', 1, 0)), key(hit(1, 1, 0)), 'the ids "1" and 1 name the same document')
})
