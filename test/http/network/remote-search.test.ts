/**
 * Remote federated search between two real Tessera servers on 127.0.0.1 (Meilisearch's `federationOptions.remote`
 * and `useNetwork`, `search/federated/perform.rs` and `proxy.rs`): hits of both hosts merged with
 * `_federation.remote`, `remoteErrors` for a remote that is down, refuses the key, lacks the feature or does not
 * answer in time, Meilisearch's errors for unknown remotes and missing features, and `useNetwork` returning each
 * document once. Driven with fetch and the official client.
 */
import t from 'tap'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { call, clientFor, seedIndex, serverFor, updateSettings, type TestServer } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'

const MOVIES_A = [{ id: 1, title: 'Shazam' }, { id: 2, title: 'Captain Marvel' }, { id: 3, title: 'Escape Room' }]
const MOVIES_B = [{ id: 4, title: 'Gläss' }, { id: 5, title: 'Captain America' }, { id: 6, title: 'How to Train Your Dragon' }]

async function enableNetwork(url: string): Promise<void> {
  const r = await call(`${url}/experimental-features`, { method: 'PATCH', json: { network: true } })
  if (r.status !== 200) throw new Error(r.text)
}

async function setNetwork(url: string, network: unknown): Promise<void> {
  const r = await call(`${url}/network`, { method: 'PATCH', json: network })
  if (r.status !== 200) throw new Error(r.text)
}

/** An HTTP server answering with `answer` (by default, never answering). */
async function fakeServer(t: { teardown(fn: () => unknown): void }, answer: Parameters<typeof createServer>[1] = () => { /* never answers */ }): Promise<string> {
  const server: Server = createServer(answer)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A free port nobody listens on. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

let a: TestServer
let b: TestServer
t.before(async () => {
  // A gives remotes 1.5 s in all, so the test of a silent remote is short.
  ;[a, b] = await Promise.all([
    serverFor(t, { env: { TESSERA_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS: '1.5' } }),
    serverFor(t),
  ])
  await Promise.all([enableNetwork(a.url), enableNetwork(b.url)])
  await Promise.all([seedIndex(a.url, 'movies', {}, MOVIES_A), seedIndex(b.url, 'movies', {}, MOVIES_B)])
  await setNetwork(a.url, { self: 'a', remotes: { a: { url: a.url }, b: { url: b.url } } })
  await setNetwork(b.url, { self: 'b', remotes: { a: { url: a.url }, b: { url: b.url } } })
})

const federated = (queries: unknown[], federation: unknown = {}) => call(`${a.url}/multi-search`, { method: 'POST', json: { federation, queries } })

t.test('queries on two hosts, merged', async (t) => {
  const r = await federated([
    { indexUid: 'movies', q: 'captain', federationOptions: { remote: 'a' } },
    { indexUid: 'movies', q: 'captain', federationOptions: { remote: 'b' } },
  ])
  t.equal(r.status, 200, r.text)
  t.same(r.body.hits.map((h: any) => [h.id, h._federation.remote]).sort(), [[2, 'a'], [5, 'b']])
  for (const hit of r.body.hits) {
    t.same(Object.keys(hit._federation), ['indexUid', 'queriesPosition', 'weightedRankingScore', 'remote'], "Meilisearch's _federation fields")
    t.equal(hit._federation.indexUid, 'movies')
    t.equal(hit._federation.queriesPosition, hit._federation.remote === 'a' ? 0 : 1, 'the position in the original request')
  }
  t.equal(r.body.estimatedTotalHits, 2)
  t.same(r.body.remoteErrors, {})
  t.same(Object.keys(r.body), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'remoteErrors'])

  const local = await federated([{ indexUid: 'movies', q: 'captain' }])
  t.notOk('remoteErrors' in local.body, 'no remote named: no remoteErrors')
  t.notOk('remote' in local.body.hits[0]._federation)
})

t.test('pagination applies once, over the merged list', async (t) => {
  const queries = [{ indexUid: 'movies', federationOptions: { remote: 'a' } }, { indexUid: 'movies', federationOptions: { remote: 'b' } }]
  const all = await federated(queries, { limit: 6 })
  t.equal(all.body.hits.length, 6)
  t.equal(all.body.estimatedTotalHits, 6)
  const page = await federated(queries, { offset: 2, limit: 3 })
  t.same(page.body.hits.map((h: any) => h.id), all.body.hits.slice(2, 5).map((h: any) => h.id))
  const pages = await federated(queries, { page: 2, hitsPerPage: 4 })
  t.same(pages.body.hits.map((h: any) => h.id), all.body.hits.slice(4, 6).map((h: any) => h.id))
  t.equal(pages.body.totalHits, 6)
  t.equal(pages.body.totalPages, 2)
})

t.test('errors for unknown remotes and missing features', async (t) => {
  const unknown = await federated([{ indexUid: 'movies', federationOptions: { remote: 'c' } }])
  t.equal(unknown.status, 400)
  t.same(unknown.body, err('Invalid `queries[0].federation_options.remote`: remote `c` is not registered', 'invalid_multi_search_remote'))
  const typed = await federated([{ indexUid: 'movies', federationOptions: { remote: 1 } }])
  t.equal(typed.body.code, 'invalid_multi_search_remote')

  const plain = await serverFor(t)
  const off = await call(`${plain.url}/multi-search`, { method: 'POST', json: { federation: {}, queries: [{ indexUid: 'movies', federationOptions: { remote: 'b' } }] } })
  t.same(off.body, err('Performing a remote federated search requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805', 'feature_not_enabled'))
  const useNetwork = await call(`${plain.url}/indexes/movies/search`, { method: 'POST', json: { useNetwork: false } })
  t.same(useNetwork.body, err('passing `useNetwork` in a search query requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805', 'feature_not_enabled'))
  const proxied = await call(`${plain.url}/multi-search`, { method: 'POST', headers: { 'meili-proxy-search': 'true' }, json: { federation: {}, queries: [] } })
  t.equal(proxied.body.code, 'feature_not_enabled', 'a proxied search needs the feature')
})

t.test('remoteErrors: a remote down, without the feature, refusing the key, or silent', async (t) => {
  const guarded = await serverFor(t, { args: ['--master-key', 'MASTER_KEY_FOR_REMOTE'] })
  const noFeature = await serverFor(t)
  await seedIndex(noFeature.url, 'movies', {}, MOVIES_B)
  const down = await closedPort()
  const silent = await fakeServer(t)
  let brokenCalls = 0
  const broken = await fakeServer(t, (_req, res) => { brokenCalls++; res.writeHead(500, { 'content-type': 'application/json' }).end('{"message": "boom"}') })
  const html = await fakeServer(t, (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>') })
  await setNetwork(a.url, {
    remotes: {
      down: { url: down }, guarded: { url: guarded.url, searchApiKey: 'wrong' }, nofeature: { url: noFeature.url }, silent: { url: silent },
      broken: { url: broken }, html: { url: html },
    },
  })
  t.teardown(() => setNetwork(a.url, { remotes: { down: null, guarded: null, nofeature: null, silent: null, broken: null, html: null } }))
  const queries = ['a', 'down', 'guarded', 'nofeature', 'silent', 'broken', 'html'].map((remote) => ({ indexUid: 'movies', q: 'captain', federationOptions: { remote } }))
  const r = await federated(queries)
  t.equal(r.status, 200, 'the other hosts still answer')
  t.same(r.body.hits.map((h: any) => h.id), [2])
  t.same(Object.keys(r.body.remoteErrors), ['broken', 'down', 'guarded', 'html', 'nofeature', 'silent'], 'in name order')
  t.same(r.body.remoteErrors.broken, err('remote host responded with code 500:\n  - response from remote: {"message":"boom"}', 'remote_remote_error', 'system'))
  t.equal(brokenCalls, 4, 'a 5xx is retried 3 times')
  t.same(r.body.remoteErrors.html, err('could not parse response from the remote host as a federated search response:\n  - response from remote: <html>hello</html>\n  - hint: check that the remote instance is a Meilisearch instance running the same version', 'remote_bad_response', 'system'))
  t.same(r.body.remoteErrors.down, err('error sending request', 'remote_could_not_send_request', 'system'))
  t.same(r.body.remoteErrors.guarded, err('could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `search` action', 'remote_invalid_api_key', 'auth'))
  t.equal(r.body.remoteErrors.nofeature.code, 'remote_bad_request')
  t.match(r.body.remoteErrors.nofeature.message, /^remote host responded with code 400:\n {2}- response from remote: \{"message":"Performing a remote federated search requires enabling the `network` experimental feature/)
  t.same(r.body.remoteErrors.silent, err('remote host did not answer before the deadline', 'remote_timeout', 'system'))
})

t.test('answering another instance (Meili-Proxy-Search)', async (t) => {
  const r = await call(`${b.url}/multi-search`, {
    method: 'POST', headers: { 'meili-proxy-search': 'true' },
    json: { federation: { limit: 2 }, queries: [{ indexUid: 'movies', q: 'captain', federationOptions: { weight: 0.5, queryPosition: 3 } }] },
  })
  t.equal(r.status, 200, r.text)
  const federation = r.body.hits[0]._federation
  t.same(Object.keys(federation), ['indexUid', 'queriesPosition', 'weightedRankingScore', 'weightedScoreValues'])
  t.equal(federation.queriesPosition, 3)
  t.same(federation.weightedScoreValues, [{ weightedScore: federation.weightedRankingScore }])
  t.notOk('remoteErrors' in r.body)
})

t.test('facets of every host', async (t) => {
  await Promise.all([a, b].map((s) => updateSettings(s.url, 'movies', { filterableAttributes: ['title'] })))
  const r = await call(`${a.url}/indexes/movies/search`, { method: 'POST', json: { useNetwork: true, facets: ['title'], limit: 0 } })
  t.equal(r.status, 200, r.text)
  t.same(r.body.remoteErrors, {})
  t.equal(Object.keys(r.body.facetDistribution.title).length, 6, "the values of both hosts' documents")
  t.equal(r.body.estimatedTotalHits, 6)
  const merged = await federated([{ indexUid: 'movies', federationOptions: { remote: 'a' } }, { indexUid: 'movies', federationOptions: { remote: 'b' } }], { facetsByIndex: { movies: ['title'] }, mergeFacets: {} })
  t.equal(merged.status, 200, merged.text)
  t.equal(Object.keys(merged.body.facetDistribution.title).length, 6, 'merged facets include the remote ones')
})

t.test('useNetwork: a document held by several remotes comes back once', async (t) => {
  const replicated = [{ id: 'x', title: 'Captain Haddock' }, { id: 'y', title: 'Captain Nemo' }]
  await Promise.all([seedIndex(a.url, 'replicated', {}, replicated), seedIndex(b.url, 'replicated', {}, [...replicated, { id: 'z', title: 'Captain Flint' }])])
  const r = await call(`${a.url}/indexes/replicated/search`, { method: 'POST', json: { q: 'captain', useNetwork: true } })
  t.equal(r.status, 200, r.text)
  t.same(r.body.hits.map((h: any) => h.id).sort(), ['x', 'y', 'z'])
  t.equal(r.body.estimatedTotalHits, 3, 'duplicates are taken off the count')
  const explicit = await federated([{ indexUid: 'replicated', q: 'captain', federationOptions: { remote: 'a' } }, { indexUid: 'replicated', q: 'captain', federationOptions: { remote: 'b' } }])
  t.equal(explicit.body.hits.length, 5, 'queries naming remotes are not deduplicated')
})

t.test('useNetwork: every remote once, each document once', async (t) => {
  const r = await call(`${a.url}/indexes/movies/search`, { method: 'POST', json: { q: 'captain', useNetwork: true } })
  t.equal(r.status, 200, r.text)
  t.same(r.body.hits.map((h: any) => h.id).sort(), [2, 5])
  t.same(Object.keys(r.body), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'remoteErrors'])
  t.equal(r.body.query, 'captain')
  t.equal(r.body.estimatedTotalHits, 2)
  const all = await call(`${a.url}/indexes/movies/search?useNetwork=true&limit=10`)
  t.same(all.body.hits.map((h: any) => h.id).sort(), [1, 2, 3, 4, 5, 6], 'GET too; no document twice')

  const multi = await federated([{ indexUid: 'movies', q: 'captain', useNetwork: true }])
  t.same(multi.body.hits.map((h: any) => h._federation.remote).sort(), ['a', 'b'], 'useNetwork inside a federated multi-search')
  const separate = await call(`${a.url}/multi-search`, { method: 'POST', json: { queries: [{ indexUid: 'movies', q: 'captain', useNetwork: true }, { indexUid: 'movies', q: 'captain' }] } })
  t.equal(separate.status, 200, separate.text)
  t.same(separate.body.results[0].hits.map((h: any) => h.id).sort(), [2, 5], 'useNetwork in a multi-search without federation')
  t.same(separate.body.results[0].remoteErrors, {})
  t.same(separate.body.results[1].hits.map((h: any) => h.id), [2], 'the other query searches here only')
  const both = await federated([{ indexUid: 'movies', useNetwork: true, federationOptions: { remote: 'b' } }])
  t.equal(both.body.code, 'invalid_multi_search_remote')

  const without = await call(`${a.url}/indexes/movies/search`, { method: 'POST', json: { q: 'captain', useNetwork: false } })
  t.same(without.body.hits.map((h: any) => h.id), [2], 'useNetwork: false searches here only')
  t.notOk('remoteErrors' in without.body)

  await b.stop()
  const degraded = await call(`${a.url}/indexes/movies/search`, { method: 'POST', json: { q: 'captain', useNetwork: true } })
  t.equal(degraded.status, 200)
  t.same(degraded.body.hits.map((h: any) => h.id), [2], 'a remote down: the others answer')
  t.equal(degraded.body.remoteErrors.b.code, 'remote_could_not_send_request')
})

t.test("the official client's federated multiSearch with remotes", async (t) => {
  const client = clientFor(a.url)
  const result: any = await client.multiSearch({ federation: {}, queries: [{ indexUid: 'movies', q: 'shazam', federationOptions: { remote: 'a' } }] })
  t.equal(result.hits[0].title, 'Shazam')
  t.equal(result.hits[0]._federation.remote, 'a')
  // The client has no `useNetwork` in its types yet; it passes the field through. B was stopped above.
  const network: any = await client.index('movies').search('captain', { useNetwork: true } as object)
  t.same(network.hits.map((h: any) => h.id), [2])
  t.same(Object.keys(network.remoteErrors), ['b'])
})
