/** Login: Payload's result, claims, validation and the lockout order, against a real Store. */
import t from 'tap'
import jwt from 'jsonwebtoken'
import { createHash } from 'node:crypto'
import { authHarness, claimsOf, rejectsWith, SECRET } from '../../../helpers/auth.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { loginOperation } from '../../../../src/auth/operations/login.js'
import { updateOperation } from '../../../../src/auth/operations/update.js'

const INCORRECT = 'The email or password provided is incorrect.'
const LOCKED = 'This user is locked due to having too many failed login attempts.'

t.test('a login answers exp, token and the user, and signs Payload claims', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { tokenExpiration: 600 }, fields: [{ name: 'role', type: 'text', saveToJWT: true }, { name: 'team', type: 'text', saveToJWT: 'x-team' }, { name: 'note', type: 'text' }] }] })
  const created = await createOperation({ ...h.args(), data: { email: 'Dev@Example.com ', password: 'secret', role: 'admin', team: 'core', note: 'n' }, overrideAccess: true })
  t.equal(created.email, 'dev@example.com', 'emails are stored lower-cased and trimmed')
  const result = await loginOperation({ ...h.args(), data: { email: 'DEV@example.com', password: 'secret' } })
  t.same(Object.keys(result), ['exp', 'token', 'user'])
  t.match(result.user, { id: created.id, email: 'dev@example.com', role: 'admin', collection: 'users', _strategy: 'local-jwt' })
  t.notOk('hash' in result.user || 'salt' in result.user || 'loginAttempts' in result.user, 'no hidden field in the user')
  const claims = claimsOf(result.token)
  t.same(Object.keys(claims), ['id', 'collection', 'email', 'sid', 'role', 'x-team', 'iat', 'exp'], 'claims in Payload order')
  t.match(claims, { id: created.id, collection: 'users', email: 'dev@example.com', role: 'admin', 'x-team': 'core' })
  t.equal(claims.exp, (claims.iat as number) + 600)
  t.equal(result.exp, claims.exp)
  // The key is sha256(secret) as hex, cut to 32 characters.
  const key = createHash('sha256').update(SECRET).digest('hex').slice(0, 32)
  t.doesNotThrow(() => jwt.verify(result.token, key, { algorithms: ['HS256'] }), 'verifies with the derived key')
  t.throws(() => jwt.verify(result.token, SECRET, { algorithms: ['HS256'] }), 'not with the raw secret')
  const stored = h.auth.users.get('users', created.id as string)!
  t.equal(stored.sessions!.length, 1)
  t.equal(stored.sessions![0]!.id, claims.sid, 'the session is stored before the answer')
})

t.test('validation, unknown users and wrong passwords', async (t) => {
  const h = await authHarness(t)
  await createOperation({ ...h.args(), data: { email: 'a@b.co', password: 'secret' }, overrideAccess: true })
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: '', password: 'x' } }), 'ValidationError', 400, 'The following field is invalid: email')
  await t.rejects(loginOperation({ ...h.args(), data: { email: 'a@b.co' } }), { name: 'ValidationError', data: { collection: 'users', errors: [{ message: 'This field is required.', path: 'password' }] } })
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'a@b.co', password: '  ' } }), 'ValidationError', 400, 'The following field is invalid: password')
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'nobody@b.co', password: 'secret' } }), 'AuthenticationError', 401, INCORRECT)
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'a@b.co', password: 'wrong' } }), 'AuthenticationError', 401, INCORRECT)
})

t.test('lockout in Payload order: the attempt reaching the limit is incorrect, the next is locked', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { maxLoginAttempts: 2, lockTime: 600000 } }] })
  const user = await createOperation({ ...h.args(), data: { email: 'lock@me.com', password: 'secret' }, overrideAccess: true })
  const attempt = (password: string) => loginOperation({ ...h.args(), data: { email: 'lock@me.com', password } })
  await rejectsWith(t, attempt('bad'), 'AuthenticationError', 401, INCORRECT)
  await rejectsWith(t, attempt('bad'), 'AuthenticationError', 401, INCORRECT)
  await rejectsWith(t, attempt('bad'), 'LockedAuth', 401, LOCKED)
  await rejectsWith(t, attempt('secret'), 'LockedAuth', 401, LOCKED) // even the right password
  let stored = h.auth.users.get('users', user.id as string)!
  t.equal(stored.loginAttempts, 2, 'a locked user is refused before counting (as Payload: 3 tries leave 2)')
  t.ok(Date.parse(stored.lockUntil!) > Date.now() + 590000, 'locked for lockTime')

  // The lock runs out: the count restarts, and a success clears it.
  await updateOperation({ ...h.args(), id: user.id as string, data: { lockUntil: new Date(Date.now() - 605000).toISOString() }, overrideAccess: true })
  await rejectsWith(t, attempt('bad'), 'AuthenticationError', 401, INCORRECT)
  stored = h.auth.users.get('users', user.id as string)!
  t.equal(stored.loginAttempts, 1, 'an expired lock restarts the count at 1')
  t.equal(stored.lockUntil, null)
  await attempt('secret')
  stored = h.auth.users.get('users', user.id as string)!
  t.equal(stored.loginAttempts, 0, 'a success resets the attempts')
  t.equal(stored.lockUntil, null)
})

t.test('100 parallel wrong passwords with maxLoginAttempts 2: exactly 2 incorrect, 98 locked', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { maxLoginAttempts: 2 } }] })
  const user = await createOperation({ ...h.args(), data: { email: 'race@me.com', password: 'secret' }, overrideAccess: true })
  const results = await Promise.allSettled(Array.from({ length: 100 }, () => loginOperation({ ...h.args(), data: { email: 'race@me.com', password: 'wrong' } })))
  const messages = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'passed'))
  t.equal(messages.filter((m) => m === INCORRECT).length, 2, 'two incorrect')
  t.equal(messages.filter((m) => m === LOCKED).length, 98, 'the rest locked')
  t.ok(h.auth.users.get('users', user.id as string)!.loginAttempts! >= 2)
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'race@me.com', password: 'secret' } }), 'LockedAuth', 401, LOCKED)
})

t.test('maxLoginAttempts 0 never locks', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { maxLoginAttempts: 0 } }] })
  await createOperation({ ...h.args(), data: { email: 'free@me.com', password: 'secret' }, overrideAccess: true })
  for (let i = 0; i < 4; i++) await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'free@me.com', password: 'bad' } }), 'AuthenticationError', 401, INCORRECT)
  t.ok((await loginOperation({ ...h.args(), data: { email: 'free@me.com', password: 'secret' } })).token)
})

t.test('an unverified user: a wrong password is incorrect, the right one is refused with 403', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { verify: true } }] })
  await createOperation({ ...h.args(), data: { email: 'new@me.com', password: 'secret' }, overrideAccess: true, disableVerificationEmail: true })
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'new@me.com', password: 'bad' } }), 'AuthenticationError', 401, INCORRECT)
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'new@me.com', password: 'secret' } }), 'UnverifiedEmail', 403, 'Please verify your email before logging in.')
})
