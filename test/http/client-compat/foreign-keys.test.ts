/**
 * The `foreignKeys` index setting through the official client, as its own suite drives it
 * (`tests/foreign_keys.test.ts`): the sub-route's GET/PUT/DELETE, the whole-settings route, `null` resets, the
 * experimental feature gate, validation, and the keys that may not touch it.
 */
import t from 'tap'
import { authServerFor, MASTER_KEY } from '../keys/auth-server.js'
import { err } from '../../helpers/meili.js'

const KEYS = [{ foreignIndexUid: 'authors', fieldName: 'author' }, { foreignIndexUid: 'authors', fieldName: 'related_authors' }]

t.test('foreign keys', async (t) => {
  const server = await authServerFor(t)
  const master = server.clientWith(MASTER_KEY)
  await master.createIndex('books').waitTask()
  const books = master.index('books')

  // Off: refused, and absent from the whole settings.
  const refused = await server.as(MASTER_KEY, '/indexes/books/settings/foreign-keys', { method: 'PUT', json: KEYS })
  t.equal(refused.status, 400)
  t.strictSame(refused.body, err('setting `foreignKeys` in the index settings requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873', 'feature_not_enabled'))
  t.notOk('foreignKeys' in (await books.getSettings()), 'not on the main route while the feature is off')

  await master.updateExperimentalFeatures({ foreignKeys: true } as never)
  t.strictSame(await books.getForeignKeys(), [], 'default')
  t.strictSame((await books.getSettings()).foreignKeys, [])

  t.equal((await books.updateForeignKeys(KEYS).waitTask()).status, 'succeeded')
  t.strictSame(await books.getForeignKeys(), KEYS)
  t.equal((await books.updateForeignKeys(null).waitTask()).status, 'succeeded')
  t.strictSame(await books.getForeignKeys(), [], 'null resets')

  t.equal((await books.updateSettings({ foreignKeys: KEYS } as never).waitTask()).status, 'succeeded')
  t.strictSame((await books.getSettings()).foreignKeys, KEYS, 'through the whole settings')
  t.equal((await books.resetForeignKeys().waitTask()).status, 'succeeded')
  t.strictSame(await books.getForeignKeys(), [], 'reset')

  const bad = await server.as(MASTER_KEY, '/indexes/books/settings/foreign-keys', { method: 'PUT', json: [{ foreignIndexUid: 'authors' }] })
  t.strictSame(bad.body, err('Missing field `fieldName` inside `[0]`', 'invalid_settings_foreign_keys'))
  const unknown = await server.as(MASTER_KEY, '/indexes/books/settings', { method: 'PATCH', json: { foreignKeys: [{ foreignIndexUid: 'a', fieldName: 'b', x: 1 }] } })
  t.equal(unknown.body.code, 'invalid_settings_foreign_keys')
  t.strictSame(await books.getForeignKeys(), [], 'a refused body changes nothing')

  const searchKey = (await master.getKeys()).results.find((k) => k.name === 'Default Search API Key')!.key
  t.equal((await server.as(searchKey, '/indexes/books/settings/foreign-keys')).body.code, 'invalid_api_key')
  t.equal((await server.as(null, '/indexes/books/settings/foreign-keys', { method: 'DELETE' })).body.code, 'missing_authorization_header')
})
