/** API keys per user: set on create or update, stored encrypted, found by HMAC, readable by the owner only. */
import t from 'tap'
import { authHarness } from '../../../helpers/auth.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { meOperation } from '../../../../src/auth/operations/me.js'
import { updateOperation } from '../../../../src/auth/operations/update.js'
import { findByIDOperation } from '../../../../src/auth/operations/find.js'
import { asAuthUser } from '../../../../src/auth/strategies/authenticate.js'
import { apiKeyIndex } from '../../../../src/auth/crypto/api-key.js'

t.test('an API key authenticates its user until disabled or removed', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { useAPIKey: true } }, { slug: 'bots', auth: { useAPIKey: true, verify: true } }] })
  const key = '0123456789ABCDEFGH'
  const user = await createOperation({ ...h.args(), data: { email: 'k@me.com', password: 'secret', enableAPIKey: true, apiKey: key }, overrideAccess: true })
  t.equal(user.apiKey, key, 'the local API (bypassing access) reads the key')
  const stored = h.auth.users.get('users', user.id as string)!
  t.not(stored.apiKey, key, 'stored encrypted')
  t.equal(stored.apiKeyIndex, apiKeyIndex(key, h.auth.secret))
  const headers = (value: string) => new Map([['authorization', value]])
  const viaKey = h.auth.authenticate(headers(`users API-Key ${key}`))
  t.match(viaKey, { id: user.id, collection: 'users', _strategy: 'api-key' })
  t.equal(h.auth.authenticate(headers(`bots API-Key ${key}`)), null, 'the key belongs to its collection')
  t.equal(h.auth.authenticate(headers(`users API-Key wrong`)), null)

  const me = await meOperation({ ...h.args(), req: { user: viaKey, token: null, origin: null } })
  t.match(me, { collection: 'users', strategy: 'api-key', user: { email: 'k@me.com', apiKey: key } })
  t.notOk('token' in me, 'no JWT presented, none reported')

  const other = await createOperation({ ...h.args(), data: { email: 'o@me.com', password: 'secret' }, overrideAccess: true })
  const asOther = { ...h.args(), req: { user: asAuthUser(h.auth, 'users', h.auth.users.get('users', other.id as string)!, 'local-jwt', undefined), token: null, origin: null } }
  const seenByOther = await findByIDOperation({ ...asOther, id: user.id as string })
  t.equal(seenByOther.email, 'k@me.com')
  t.notOk('apiKey' in seenByOther, 'another user never reads the key')

  await updateOperation({ ...h.args(), id: user.id as string, data: { enableAPIKey: false }, overrideAccess: true })
  t.equal(h.auth.authenticate(headers(`users API-Key ${key}`)), null, 'enableAPIKey: false disables it')
  const kept = await updateOperation({ ...h.args(), id: user.id as string, data: { enableAPIKey: true }, overrideAccess: true })
  t.equal(kept.apiKey, key, 'the key is kept while disabled')
  t.ok(h.auth.authenticate(headers(`users API-Key ${key}`)), 'enabled again')
  const removed = await updateOperation({ ...h.args(), id: user.id as string, data: { apiKey: null }, overrideAccess: true })
  t.equal(removed.apiKey, null)
  t.equal(h.auth.authenticate(headers(`users API-Key ${key}`)), null, 'apiKey: null removes it')

  // An unverified user's key does not authenticate in a verifying collection.
  await createOperation({ ...h.args('bots'), data: { email: 'b@me.com', password: 'secret', apiKey: 'bot-key-123' }, overrideAccess: true, disableVerificationEmail: true })
  t.equal(h.auth.authenticate(headers('bots API-Key bot-key-123')), null)
})
