/**
 * `GET/PATCH /network` over HTTP, against Meilisearch's `tests/network/mod.rs` and its Community Edition route
 * (`routes/network/`): the feature gate, the merge rules, validation errors with their codes, the Enterprise-only
 * fields, API key actions, persistence across a restart, and the official client's `getNetwork`/`updateNetwork`.
 */
import t, { type Test } from 'tap'
import { rmSync } from 'node:fs'
import { call, clientFor, serverFor, startServer, tempDir, type FetchResult } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'
import { authServerFor, MASTER_KEY } from '../keys/auth-server.js'

const NIL = '00000000-0000-0000-0000-000000000000'
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function enableNetwork(url: string, headers: Record<string, string> = {}): Promise<void> {
  const r = await call(`${url}/experimental-features`, { method: 'PATCH', json: { network: true }, headers })
  if (r.status !== 200 || r.body.network !== true) throw new Error(`features: ${r.status} ${r.text}`)
}

/** The network object without its version (which every PATCH renews). */
function withoutVersion(body: any): any {
  const { version: _, ...rest } = body
  return rest
}

function assertError(t: Test, res: FetchResult, status: number, expected: object): void {
  t.equal(res.status, status, res.text)
  t.same(res.body, expected)
}

t.test('the feature gate', async (t) => {
  const server = await serverFor(t)
  const notEnabled = err('Using the /network route requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805', 'feature_not_enabled')
  assertError(t, await call(`${server.url}/network`), 400, notEnabled)
  assertError(t, await call(`${server.url}/network`, { method: 'PATCH', json: { self: 'myself' } }), 400, notEnabled)
  assertError(t, await call(`${server.url}/network/control`, { method: 'POST', json: {} }), 400, notEnabled)
  // The body is validated before the feature is checked, as Meilisearch extracts it first.
  const bad = await call(`${server.url}/network`, { method: 'PATCH', json: { self: 42 } })
  t.equal(bad.body.code, 'invalid_network_self')
  await enableNetwork(server.url)
  const got = await call(`${server.url}/network`)
  t.equal(got.status, 200)
  t.same(got.body, { self: null, remotes: {}, shards: {}, leader: null, version: NIL })
  t.same(Object.keys(got.body), ['self', 'remotes', 'shards', 'leader', 'version'], "Meilisearch's field order")
})

t.test('get and set the network', async (t) => {
  const server = await serverFor(t)
  await enableNetwork(server.url)
  const patch = (json: unknown) => call(`${server.url}/network`, { method: 'PATCH', json })

  let r = await patch({ self: 'myself' })
  t.equal(r.status, 200)
  t.match(r.body.version, UUID_V7)
  t.same(withoutVersion(r.body), { self: 'myself', remotes: {}, shards: {}, leader: null })

  r = await patch({ remotes: { thy: { url: 'http://localhost:7701', searchApiKey: 'foo' }, myself: { url: 'http://localhost:7700' } } })
  t.same(r.body.remotes, {
    myself: { url: 'http://localhost:7700', searchApiKey: null, writeApiKey: null },
    thy: { url: 'http://localhost:7701', searchApiKey: 'foo', writeApiKey: null },
  })
  t.same(Object.keys(r.body.remotes), ['myself', 'thy'], 'remotes in name order')
  const firstVersion = r.body.version

  r = await patch({ remotes: { thy: { searchApiKey: 'bar', writeApiKey: 'w' } } })
  t.same(r.body.remotes.thy, { url: 'http://localhost:7701', searchApiKey: 'bar', writeApiKey: 'w' }, 'a partial update keeps the other fields')
  t.not(r.body.version, firstVersion, 'every change renews the version')
  t.ok(r.body.version > firstVersion, 'versions are UUID v7, ordered by time')

  r = await patch({ remotes: { thy: { writeApiKey: null } } })
  t.equal(r.body.remotes.thy.writeApiKey, null, 'null resets a key')

  r = await patch({ shards: { s1: { remotes: ['thy', 'myself'] }, s2: { remotes: ['thy'] } } })
  t.same(r.body.shards, { s1: { remotes: ['myself', 'thy'] }, s2: { remotes: ['thy'] } })
  r = await patch({ shards: { s1: { addRemotes: ['other'], removeRemotes: ['myself'] } } })
  t.same(r.body.shards.s1, { remotes: ['other', 'thy'] }, 'remotes, then addRemotes, then removeRemotes')

  r = await patch({ remotes: { thy: null } })
  t.same(Object.keys(r.body.remotes), ['myself'], 'a null remote is removed')
  t.same(r.body.shards, { s1: { remotes: ['other'] } }, 'a removed remote leaves every shard; an empty shard is dropped')

  r = await patch({ shards: { s1: null } })
  t.same(r.body.shards, {})

  r = await patch({ self: null })
  t.equal(r.body.self, null)
  r = await patch({})
  t.same(withoutVersion(r.body), { self: null, remotes: { myself: { url: 'http://localhost:7700', searchApiKey: null, writeApiKey: null } }, shards: {}, leader: null })
  r = await patch({ remotes: null })
  t.same(r.body.remotes, {}, 'null removes every remote')

  const got = await call(`${server.url}/network`)
  t.same(got.body, r.body, 'GET shows what the last PATCH answered')
})

t.test('validation errors (tests/network/mod.rs errors_on_param)', async (t) => {
  const server = await serverFor(t)
  await enableNetwork(server.url)
  const patch = (json: unknown) => call(`${server.url}/network`, { method: 'PATCH', json })
  const cases: [unknown, number, string, string][] = [
    [{ selfie: 'myself' }, 400, 'bad_request', 'Unknown field `selfie`: expected one of `remotes`, `shards`, `previousShards`, `self`, `leader`, `previousRemotes`'],
    [{ self: 42 }, 400, 'invalid_network_self', 'Invalid value type at `.self`: expected a string, but found a positive integer: `42`'],
    [{ remotes: 42 }, 400, 'invalid_network_remotes', 'Invalid value type at `.remotes`: expected an object, but found a positive integer: `42`'],
    [{ remotes: { new: { searchApiKey: 'http://localhost:7700' } } }, 400, 'missing_network_url', 'Missing field `.remotes.new.url`'],
    [{ remotes: { new: { url: 7700 } } }, 400, 'invalid_network_url', 'Invalid value type at `.remotes.new.url`: expected a string, but found a positive integer: `7700`'],
    [{ remotes: { new: { url: 'no-http-scheme' } } }, 400, 'invalid_network_url', 'Invalid `.remotes.new.url` (`no-http-scheme`): relative URL without a base'],
    [{ remotes: { new: { url: 'http://localhost:99999' } } }, 400, 'invalid_network_url', 'Invalid `.remotes.new.url` (`http://localhost:99999`): invalid port number'],
    [{ remotes: { new: { url: 'http://localhost:7700', doggo: 'Intel the Beagle' } } }, 400, 'invalid_network_remotes', 'Unknown field `doggo` inside `.remotes.new`: expected one of `url`, `searchApiKey`, `writeApiKey`'],
    [{ remotes: { new: { url: 'http://localhost:7700', searchApiKey: 1204664602099962 } } }, 400, 'invalid_network_search_api_key', 'Invalid value type at `.remotes.new.searchApiKey`: expected a string, but found a positive integer: `1204664602099962`'],
    [{ remotes: { new: { url: 'http://localhost:7700', writeApiKey: true } } }, 400, 'invalid_network_write_api_key', 'Invalid value type at `.remotes.new.writeApiKey`: expected a string, but found a boolean: `true`'],
    [{ shards: [] }, 400, 'invalid_network_shards', 'Invalid value type at `.shards`: expected an object, but found an array: `[]`'],
    [{ shards: { s: { owners: [] } } }, 400, 'invalid_network_shards', 'Unknown field `owners` inside `.shards.s`: expected one of `remotes`, `addRemotes`, `removeRemotes`'],
    [{ shards: { s: { remotes: 'a' } } }, 400, 'invalid_network_remotes', 'Invalid value type at `.shards.s.remotes`: expected an array, but found a string: `"a"`'],
    [{ leader: 1 }, 400, 'invalid_network_leader', 'Invalid value type at `.leader`: expected a string, but found a positive integer: `1`'],
    [{ leader: 'ms-0' }, 451, 'requires_enterprise_edition', 'Meilisearch Enterprise Edition is required to set `network.leader`'],
  ]
  for (const [body, status, code, message] of cases) assertError(t, await patch(body), status, err(message, code))

  t.equal((await patch({ remotes: { kefir: { url: 'http://localhost:7700' } } })).status, 200)
  assertError(t, await patch({ remotes: { kefir: { url: null } } }), 400, err('Field `.remotes.kefir.url` cannot be set to `null`', 'invalid_network_url'))
  const refused = await patch({ previousRemotes: {} })
  t.equal(refused.status, 400)
  t.equal(refused.body.code, 'unexpected_network_previous_remotes')
  assertError(t, await call(`${server.url}/network/control`, { method: 'POST', json: {} }), 451, err('Meilisearch Enterprise Edition is required to call this route', 'requires_enterprise_edition'))

  const after = await call(`${server.url}/network`)
  t.same(Object.keys(after.body.remotes), ['kefir'], 'refused bodies changed nothing')

  // Names that are also JavaScript object members stay plain names.
  const odd = await call(`${server.url}/network`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"remotes": {"__proto__": {"url": "http://127.0.0.1:1"}, "constructor": {"url": "http://127.0.0.1:2"}}}' })
  t.equal(odd.status, 200, odd.text)
  t.same(Object.keys(odd.body.remotes).sort(), ['__proto__', 'constructor', 'kefir'])
  const unknown = await call(`${server.url}/multi-search`, { method: 'POST', json: { federation: {}, queries: [{ indexUid: 'movies', federationOptions: { remote: 'toString' } }] } })
  t.same(unknown.body, err('Invalid `queries[0].federation_options.remote`: remote `toString` is not registered', 'invalid_multi_search_remote'))
  const removed = await call(`${server.url}/network`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"remotes": {"__proto__": null, "constructor": null}}' })
  t.equal(removed.status, 200, removed.text)
  t.same(Object.keys((await call(`${server.url}/network`)).body.remotes), ['kefir'])
  t.equal(after.body.leader, null)
  t.equal((await patch({ leader: null })).status, 200, 'resetting the leader is allowed')
})

t.test('API key actions (tests/network/mod.rs auth)', async (t) => {
  const server = await authServerFor(t)
  await enableNetwork(server.url, { authorization: `Bearer ${MASTER_KEY}` })
  const getKey = (await server.createKey({ actions: ['network.get'], indexes: ['*'] })).key
  const updateKey = (await server.createKey({ actions: ['network.update'], indexes: ['*'] })).key
  const searchKey = (await server.createKey({ actions: ['search'], indexes: ['*'] })).key
  const invalid = err('The provided API key is invalid.', 'invalid_api_key', 'auth')

  t.equal((await server.as(MASTER_KEY, '/network', { method: 'PATCH', json: { self: 'master' } })).status, 200)
  const got = await server.as(getKey, '/network')
  t.equal(got.status, 200)
  t.equal(got.body.self, 'master')
  const updated = await server.as(updateKey, '/network', { method: 'PATCH', json: { self: 'api_key' } })
  t.equal(updated.status, 200)
  t.equal(updated.body.self, 'api_key')
  assertError(t, await server.as(updateKey, '/network'), 403, invalid)
  assertError(t, await server.as(getKey, '/network', { method: 'PATCH', json: { self: 'get_api_key' } }), 403, invalid)
  assertError(t, await server.as(searchKey, '/network'), 403, invalid)
  assertError(t, await server.as(searchKey, '/network', { method: 'PATCH', json: { self: 'x' } }), 403, invalid)
  t.equal((await server.as(null, '/network')).status, 401)
})

t.test('the network survives a restart', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  let server = await startServer({ dbPath })
  await enableNetwork(server.url)
  // `__proto__` too: names round-trip whatever they are.
  const body = '{"self": "a", "remotes": {"a": {"url": "http://127.0.0.1:1"}, "b": {"url": "http://127.0.0.1:2", "searchApiKey": "k"}, "__proto__": {"url": "http://127.0.0.1:3"}}, "shards": {"s": {"remotes": ["a", "b"]}}}'
  const set = await call(`${server.url}/network`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body })
  t.equal(set.status, 200, set.text)
  t.same(Object.keys(set.body.remotes), ['__proto__', 'a', 'b'])
  await server.stop()
  server = await startServer({ dbPath })
  t.teardown(() => server.stop())
  const got = await call(`${server.url}/network`)
  t.same(got.body, set.body, 'same network, same version')
})

t.test("the official client's getNetwork and updateNetwork", async (t) => {
  const server = await serverFor(t)
  const client = clientFor(server.url)
  await client.updateExperimentalFeatures({ network: true })
  const network = { self: 'soi', remotes: { soi: { url: 'https://france-visas.gouv.fr/', searchApiKey: 'hemmelighed' } } }
  const updated: any = await client.updateNetwork(network)
  t.equal(updated.self, 'soi')
  t.same(updated.remotes, { soi: { url: 'https://france-visas.gouv.fr/', searchApiKey: 'hemmelighed', writeApiKey: null } })
  const got = await client.getNetwork()
  t.same(got, updated)
  // `removeRemote` expects a task (an Enterprise answer); the Community Edition answers the network synchronously,
  // which the client may not read as a task: only the effect is checked.
  await Promise.resolve(client.removeRemote({ name: 'soi' })).catch(() => undefined)
  t.same((await client.getNetwork()).remotes, {}, 'removeRemote removed the remote')
})
