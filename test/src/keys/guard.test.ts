/**
 * src/keys/guard.ts: the access check of every route, on a real key store. Header rules and messages of
 * Meilisearch's `extract_token_from_request` and `ActionPolicy` (`tests/auth/errors.rs`, `authorization.rs`), with
 * and without a master key; expired keys; index patterns; instance-wide routes; tenant tokens only on search
 * routes.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jwt from 'jsonwebtoken'
import { TesseraError } from '../../../engine/errors/index.js'
import { Store } from '../../../engine/storage/index.js'
import { key, open, searchKey, type Access } from '../../../src/http/router.js'
import type { Request } from '../../../src/http/types.js'
import { Guard } from '../../../src/keys/guard.js'
import { KeyStore } from '../../../src/keys/key-store.js'

const request = (authorization?: string): Request => ({
  method: 'GET', path: '/', rawQuery: '', headers: new Map(authorization === undefined ? [] : [['authorization', authorization]]), body: (async function* () {})(),
})

function outcome(guard: Guard, authorization: string | undefined, access: Access, index?: string): string {
  try {
    const grant = guard.check(request(authorization), access, index)
    return grant.allIndexes ? 'ok: all indexes' : 'ok: some indexes'
  } catch (e) {
    if (e instanceof TesseraError) return `${e.status} ${e.code}: ${e.message}`
    throw e
  }
}

const INVALID = '403 invalid_api_key: The provided API key is invalid.'
const MISSING = '401 missing_authorization_header: The Authorization header is missing. It must use the bearer authorization method.'
const NO_MASTER = '401 missing_master_key: Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.'

t.test('with a master key', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-guard-'))
  const store = await Store.open(path)
  t.teardown(async () => { await store.close(); rmSync(path, { recursive: true, force: true }) })
  const keys = await KeyStore.open(store, 'MASTER_KEY')
  const guard = new Guard(keys)
  const docs = key('documents.get')

  t.equal(outcome(guard, undefined, open), 'ok: all indexes', 'public routes need nothing')
  t.equal(outcome(guard, undefined, docs, 'dog'), MISSING)
  t.equal(outcome(guard, 'Basic TUFTVEVSX0tFWQ==', docs, 'dog'), MISSING, 'another scheme')
  t.equal(outcome(guard, 'bearer MASTER_KEY', docs, 'dog'), MISSING, 'the scheme is case-sensitive')
  t.equal(outcome(guard, 'Bearer', docs, 'dog'), INVALID, 'Bearer alone')
  t.equal(outcome(guard, 'Bearer ', docs, 'dog'), INVALID, 'an empty token')
  t.equal(outcome(guard, 'Bearer  MASTER_KEY', docs, 'dog'), INVALID, 'two spaces: the token starts with one')
  t.equal(outcome(guard, 'Bearer MASTER_KEY\u00e9', docs, 'dog'), MISSING, 'not visible ASCII: read as an empty header')
  t.equal(outcome(guard, 'Bearer kefir', docs, 'dog'), INVALID)
  t.equal(outcome(guard, 'Bearer MASTER_KEY', docs, 'dog'), 'ok: all indexes')
  t.equal(outcome(guard, 'Bearer MASTER_KEY', key('keys.create')), 'ok: all indexes', 'the master key manages keys')

  const dogKey = await keys.create({ uid: '00000000-0000-0000-0000-000000000000', name: null, description: null, actions: ['search', 'documents.get', 'indexes.create'], indexes: ['dog'], expiresAt: null })
  const dog = `Bearer ${keys.valueOf(dogKey.uid)}`
  t.equal(outcome(guard, dog, docs, 'dog'), 'ok: some indexes')
  t.equal(outcome(guard, dog, docs, 'doggo'), '403 invalid_api_key: The API key cannot acces the index `doggo`, authorized indexes are ["dog"].')
  t.equal(outcome(guard, dog, key('documents.add'), 'dog'), INVALID, 'an action it lacks')
  t.equal(outcome(guard, dog, key('tasks.get')), INVALID)
  t.equal(outcome(guard, dog, searchKey, 'dog'), 'ok: some indexes')
  const grant = guard.check(request(dog), docs, 'dog')
  t.ok(grant.isIndexAuthorized('dog') && !grant.isIndexAuthorized('cat'))
  t.ok(grant.allowIndexCreation('dog') && !grant.allowIndexCreation('cat'))
  t.equal(grant.indexScope?.('dog'), true)

  const scopedAll = await keys.create({ uid: '11111111-1111-1111-1111-111111111111', name: null, description: null, actions: ['*'], indexes: ['products*'], expiresAt: null })
  const scoped = `Bearer ${keys.valueOf(scopedAll.uid)}`
  t.equal(outcome(guard, scoped, key('version')), INVALID, 'an index-scoped key never passes an instance-wide route, even with `*`')
  t.equal(outcome(guard, scoped, key('keys.get')), INVALID)
  t.equal(outcome(guard, scoped, key('experimental.get')), INVALID)
  t.equal(outcome(guard, scoped, key('tasks.get')), 'ok: some indexes', 'a route about indexes is fine')
  t.equal(outcome(guard, scoped, key('stats.get'), 'products_1'), 'ok: some indexes')
  t.equal(outcome(guard, scoped, key('stats.get'), 'product'), '403 invalid_api_key: The API key cannot acces the index `product`, authorized indexes are ["products*"].')

  const soon = await keys.create({ uid: '22222222-2222-2222-2222-222222222222', name: null, description: null, actions: ['*'], indexes: ['*'], expiresAt: { at: (Date.now() + 50) * 1000, offsetMinutes: 0 } })
  const soonToken = `Bearer ${keys.valueOf(soon.uid)}`
  t.equal(outcome(guard, soonToken, docs, 'dog'), 'ok: all indexes')
  await new Promise((r) => setTimeout(r, 80))
  t.equal(outcome(guard, soonToken, docs, 'dog'), INVALID, 'expired')

  const admin = await keys.create({ uid: '33333333-3333-3333-3333-333333333333', name: null, description: null, actions: ['*'], indexes: ['*'], expiresAt: null })
  const token = jwt.sign({ searchRules: { 'sa*': { filter: 'color = blue' } }, apiKeyUid: admin.uid }, keys.valueOf(admin.uid), { noTimestamp: true })
  t.equal(outcome(guard, `Bearer ${token}`, searchKey, 'sales'), 'ok: some indexes')
  t.equal(guard.check(request(`Bearer ${token}`), searchKey, 'sales').searchFilter('sales'), 'color = blue')
  t.equal(outcome(guard, `Bearer ${token}`, searchKey, 'products'), '403 invalid_api_key: The provided tenant token cannot acces the index `products`, allowed indexes are ["sa*"].')
  t.equal(outcome(guard, `Bearer ${token}`, docs, 'sales'), INVALID, 'tenant tokens only on search routes')
  const viaDog = jwt.sign({ searchRules: ['*'], apiKeyUid: dogKey.uid }, keys.valueOf(dogKey.uid), { noTimestamp: true })
  t.equal(outcome(guard, `Bearer ${viaDog}`, searchKey, 'cat'), '403 invalid_api_key: The API key used to generate this tenant token cannot acces the index `cat`.')
  await keys.delete(admin.uid)
  t.equal(outcome(guard, `Bearer ${token}`, searchKey, 'sales'), INVALID, 'the signing key deleted: its (cached) token stops at once')
})

t.test('without a master key', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-guard-'))
  const store = await Store.open(path)
  t.teardown(async () => { await store.close(); rmSync(path, { recursive: true, force: true }) })
  const guard = new Guard(await KeyStore.open(store, null))
  t.equal(outcome(guard, undefined, key('documents.add'), 'dog'), 'ok: all indexes', 'everything is open')
  t.equal(outcome(guard, 'Bearer anything', key('settings.update'), 'dog'), 'ok: all indexes')
  for (const action of ['keys.get', 'keys.create', 'keys.update', 'keys.delete']) {
    t.equal(outcome(guard, undefined, key(action)), NO_MASTER, `${action}, no header`)
    t.equal(outcome(guard, 'Bearer MASTER_KEY', key(action)), NO_MASTER, `${action}, a bearer token`)
  }
  t.equal(outcome(guard, 'Basic x', key('documents.get'), 'dog'), MISSING, 'another scheme is refused even so, as Meilisearch does')
})
