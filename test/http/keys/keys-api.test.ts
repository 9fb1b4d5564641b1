/**
 * `/keys` through the official client (`getKeys`, `createKey`, `getKey`, `updateKey`, `deleteKey`) and fetch, with
 * Meilisearch's bodies (`tests/auth/api_keys.rs`, `errors.rs`, `payload.rs`): default keys, creation, look-up by
 * uid or value, update, deletion (the key stops working at once), expiry, no master key, persistence across a
 * restart, and a new master key changing every key's value. Bad input changes nothing.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { MeilisearchApiError } from 'meilisearch'
import { err } from '../../helpers/meili.js'
import { call, clientFor, serverFor, startServer, tempDir } from '../../helpers/server.js'
import { authServerFor, MASTER_KEY } from './auth-server.js'

const INVALID = err('The provided API key is invalid.', 'invalid_api_key', 'auth')
const NO_MASTER = err('Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.', 'missing_master_key', 'auth')

t.test('the client\'s key helpers', async (t) => {
  const server = await authServerFor(t)
  const client = server.clientWith(MASTER_KEY)
  const defaults = await client.getKeys()
  t.same(defaults.results.map((k) => k.name), ['Default Search API Key', 'Default Admin API Key', 'Default Read-Only Admin API Key', 'Default Chat API Key'])
  t.same([defaults.offset, defaults.limit, defaults.total], [0, 20, 4])
  t.same(Object.keys((await server.as(MASTER_KEY, '/keys')).body.results[0]), ['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt'], 'field order')
  t.ok(defaults.results[0]!.createdAt instanceof Date, 'the client reads the dates')

  const created = await client.createKey({ uid: '4bc0887a-0e41-4f3b-935d-0c451dcee9c8', name: 'indexing-key', description: 'Indexing API key', actions: ['search', 'documents.add', 'stats.get'], indexes: ['products'], expiresAt: new Date('2050-11-13T00:00:00Z') })
  t.equal(created.key, 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c')
  const raw = (await server.as(MASTER_KEY, `/keys/${created.uid}`)).body
  t.same({ ...raw, createdAt: '[date]', updatedAt: '[date]' }, {
    name: 'indexing-key', description: 'Indexing API key', key: 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c', uid: '4bc0887a-0e41-4f3b-935d-0c451dcee9c8',
    actions: ['search', 'documents.add', 'stats.get'], indexes: ['products'], expiresAt: '2050-11-13T00:00:00Z', createdAt: '[date]', updatedAt: '[date]',
  })
  t.equal((await client.getKey(created.key)).uid, created.uid, 'by value')
  t.equal((await client.getKey(created.uid)).key, created.key, 'by uid')
  t.equal((await client.getKeys({ limit: 2 })).results[0]!.uid, created.uid, 'the newest first')
  t.same((await client.getKeys({ offset: 4, limit: 2 })).results.map((k) => k.name), ['Default Chat API Key'])

  const updated = await client.updateKey(created.key, { name: 'bob', description: null as unknown as string })
  t.equal(updated.name, 'bob')
  t.equal(updated.description, null)
  t.ok(Date.parse(String(updated.updatedAt)) >= Date.parse(String(updated.createdAt)), "updatedAt moves")

  const conflict = await server.as(MASTER_KEY, '/keys', { method: 'POST', json: { uid: created.uid, indexes: ['products'], actions: ['search'], expiresAt: null } })
  t.same([conflict.status, conflict.body], [409, err('`uid` field value `4bc0887a-0e41-4f3b-935d-0c451dcee9c8` is already an existing API key.', 'api_key_already_exists')])

  t.equal((await server.as(created.key, '/stats')).status, 200, 'the key works')
  await client.deleteKey(created.uid)
  t.same(await server.as(created.key, '/stats').then((r) => [r.status, r.body]), [403, INVALID], 'deleted: refused at once')
  await t.rejects(client.getKey(created.uid), MeilisearchApiError)
  const gone = await server.as(MASTER_KEY, '/keys/d0552b41d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4', { method: 'DELETE' })
  t.same([gone.status, gone.body], [404, err('API key `d0552b41d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4` not found.', 'api_key_not_found')])
})

t.test('errors leave the keys as they were', async (t) => {
  const server = await authServerFor(t)
  const before = (await server.as(MASTER_KEY, '/keys')).body
  const bad: [unknown, number, string][] = [
    [{ indexes: ['products'], actions: ['doc.add'], expiresAt: null }, 400, 'invalid_api_key_actions'],
    [{ indexes: ['good doggo'], actions: ['search'], expiresAt: null }, 400, 'invalid_api_key_indexes'],
    [{ indexes: ['products'], actions: ['search'], expiresAt: '2010-11-13' }, 400, 'invalid_api_key_expires_at'],
    [{ indexes: ['products'], actions: ['search'] }, 400, 'missing_api_key_expires_at'],
    [{ indexes: ['products'], actions: ['version'], expiresAt: null }, 400, 'index_scoped_api_key_with_global_action'],
  ]
  for (const [json, status, code] of bad) {
    const res = await server.as(MASTER_KEY, '/keys', { method: 'POST', json })
    t.same([res.status, res.body.code], [status, code], code)
  }
  const plain = await server.as(MASTER_KEY, '/keys', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
  t.same([plain.status, plain.body.message], [415, 'The Content-Type `text/plain` is invalid. Accepted values for the Content-Type header are: `application/json`'])
  const malformed = await server.as(MASTER_KEY, '/keys/d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"malormed": "payload"' })
  t.same([malformed.status, malformed.body.message], [400, 'The json payload provided is malformed. `EOF while parsing an object at line 1 column 22`.'], 'the body is read before the key is looked up')
  const admin = (await server.as(MASTER_KEY, '/keys')).body.results[1]
  const immutable = await server.as(MASTER_KEY, `/keys/${admin.uid}`, { method: 'PATCH', json: { indexes: ['x'] } })
  t.same([immutable.status, immutable.body], [400, err('Immutable field `indexes`: expected one of `description`, `name`', 'immutable_api_key_indexes')])
  t.same((await server.as(MASTER_KEY, '/keys')).body, before, 'nothing changed')
  t.same((await server.as(admin.key, '/keys?offset=doggo')).body, err('Invalid value in parameter `offset`: could not parse `doggo` as a positive integer', 'invalid_api_key_offset'), 'the default admin key manages keys')
  const search = (await server.as(MASTER_KEY, '/keys')).body.results[0]
  t.same((await server.as(search.key, '/keys')).body, INVALID, 'the search key does not')
})

t.test('expiry: a key stops working when it expires', async (t) => {
  const server = await authServerFor(t)
  // Five seconds of validity: creating the key and using it once must fit in them even on a busy machine. Then wait
  // for the clock to pass the expiry, not for a fixed time.
  const expiresAt = new Date(Date.now() + 5000).toISOString()
  const { key } = await server.createKey({ actions: ['*'], indexes: ['*'], expiresAt })
  t.equal((await server.as(key, '/indexes')).status, 200)
  while (Date.now() <= Date.parse(expiresAt) + 200) await new Promise((r) => setTimeout(r, 50))
  t.same(await server.as(key, '/indexes').then((r) => [r.status, r.body]), [403, INVALID])
  t.equal((await server.as(MASTER_KEY, '/keys')).body.total, 5, 'an expired key is still listed')
})

t.test('without a master key: open, and /keys refused', async (t) => {
  const server = await serverFor(t)
  t.match(server.logs(), /WARN {2}No master key was found\. The server will accept unidentified requests\./, 'the start-up log says so')
  t.equal((await call(`${server.url}/indexes`)).status, 200)
  t.equal((await call(`${server.url}/indexes`, { headers: { authorization: 'Bearer whatever' } })).status, 200)
  for (const [method, path] of [['GET', '/keys'], ['POST', '/keys'], ['GET', '/keys/content'], ['PATCH', '/keys/content'], ['DELETE', '/keys/content']] as const) {
    for (const headers of [{}, { authorization: `Bearer ${MASTER_KEY}` }] as Record<string, string>[]) {
      const res = await call(`${server.url}${path}`, { method, headers, ...(method === 'POST' || method === 'PATCH' ? { json: {} } : {}) })
      t.same([res.status, res.body], [401, NO_MASTER], `${method} ${path}`)
    }
  }
})

t.test('keys survive a restart; a new master key gives every key a new value', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const start = (masterKey: string) => startServer({ dbPath, args: ['--master-key', masterKey] })
  let server = await start(MASTER_KEY)
  const headers = (key: string) => ({ authorization: `Bearer ${key}` })
  const created = await call(`${server.url}/keys`, { method: 'POST', headers: headers(MASTER_KEY), json: { uid: '00000000-0000-0000-0000-000000000000', actions: ['indexes.get'], indexes: ['*'], expiresAt: null } })
  const value = created.body.key
  t.equal(value, 'aeb94973e0b6e912d94165430bbe87dee91a7c4f891ce19050c3910ec96977e9')
  const listed = (await call(`${server.url}/keys`, { headers: headers(MASTER_KEY) })).body
  await server.stop()
  server = await start(MASTER_KEY)
  t.same((await call(`${server.url}/keys`, { headers: headers(MASTER_KEY) })).body, listed, 'the same keys after a restart')
  t.equal((await call(`${server.url}/indexes`, { headers: headers(value) })).status, 200, 'and they still work')
  await server.stop()
  server = await start('ANOTHER_MASTER_KEY')
  t.teardown(() => server.stop())
  t.equal((await call(`${server.url}/indexes`, { headers: headers(value) })).status, 403, 'the old value no longer works')
  const now = await clientFor(server.url, 'ANOTHER_MASTER_KEY').getKey('00000000-0000-0000-0000-000000000000')
  t.not(now.key, value)
  t.equal((await call(`${server.url}/indexes`, { headers: headers(now.key) })).status, 200, 'the new one does')
})
