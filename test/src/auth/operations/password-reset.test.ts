/** Forgot and reset password: the token, its expiry, one use, no enumeration. */
import t from 'tap'
import { authHarness, claimsOf, rejectsWith } from '../../../helpers/auth.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { forgotPasswordOperation } from '../../../../src/auth/operations/forgot-password.js'
import { loginOperation } from '../../../../src/auth/operations/login.js'
import { resetPasswordOperation } from '../../../../src/auth/operations/reset-password.js'

const INVALID = 'Token is either invalid or has expired.'

t.test('a reset token works once, before it expires, and logs the user in', async (t) => {
  const h = await authHarness(t)
  const user = await createOperation({ ...h.args(), data: { email: 'r@me.com', password: 'old-pass' }, overrideAccess: true })
  t.equal(await forgotPasswordOperation({ ...h.args(), data: { email: 'nobody@me.com' }, disableEmail: true }), null, 'unknown email: null, nothing written')
  await rejectsWith(t, forgotPasswordOperation({ ...h.args(), data: {} }), 'APIError', 400, 'Missing email.')
  const token = (await forgotPasswordOperation({ ...h.args(), data: { email: 'R@me.com' }, disableEmail: true }))!
  t.match(token, /^[0-9a-f]{40}$/, '40 hex characters')
  const stored = h.auth.users.get('users', user.id as string)!
  t.equal(stored.resetPasswordToken, token)
  t.ok(Math.abs(Date.parse(stored.resetPasswordExpiration!) - (Date.now() + 3600000)) < 10000, 'expires in an hour by default')
  t.equal(h.logs.filter((l) => l.includes('email')).length, 0, 'disableEmail sends nothing')

  await rejectsWith(t, resetPasswordOperation({ ...h.args(), data: { token } as never }), 'APIError', 400, 'Missing required data.')
  await rejectsWith(t, resetPasswordOperation({ ...h.args(), data: { token: 'f'.repeat(40), password: 'new-pass' } }), 'APIError', 403, INVALID)
  await t.rejects(resetPasswordOperation({ ...h.args(), data: { token, password: 'ab' } }), { name: 'ValidationError', data: { errors: [{ path: 'password', message: 'This value must be longer than the minimum length of 3 characters.' }] } })
  const result = await resetPasswordOperation({ ...h.args(), data: { token, password: 'new-pass' } })
  t.same(Object.keys(result), ['token', 'user'])
  t.match(result.user, { id: user.id, email: 'r@me.com', collection: 'users', _strategy: 'local-jwt' })
  const sid = claimsOf(result.token).sid as string
  t.ok(h.auth.users.get('users', user.id as string)!.sessions!.some((s) => s.id === sid), 'the reset opens a session')
  t.ok(h.args('users', result.token).req.user, 'its token authenticates')
  await rejectsWith(t, resetPasswordOperation({ ...h.args(), data: { token, password: 'other-pass' } }), 'APIError', 403, INVALID)
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'r@me.com', password: 'old-pass' } }), 'AuthenticationError', 401, 'The email or password provided is incorrect.')
  t.ok((await loginOperation({ ...h.args(), data: { email: 'r@me.com', password: 'new-pass' } })).token)
})

t.test('an expired token is refused; the expiration argument and config decide the lifetime', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: true }, { slug: 'staff', auth: { forgotPassword: { expiration: 120000 } } }] })
  await createOperation({ ...h.args('users'), data: { email: 'e@me.com', password: 'secret' }, overrideAccess: true })
  const token = (await forgotPasswordOperation({ ...h.args('users'), data: { email: 'e@me.com' }, disableEmail: true, expiration: 50 }))!
  await new Promise((r) => setTimeout(r, 120))
  await rejectsWith(t, resetPasswordOperation({ ...h.args('users'), data: { token, password: 'new-pass' } }), 'APIError', 403, INVALID)

  const staff = await createOperation({ ...h.args('staff'), data: { email: 'e@me.com', password: 'secret' }, overrideAccess: true })
  await forgotPasswordOperation({ ...h.args('staff'), data: { email: 'e@me.com' }, disableEmail: true, expiration: 50 })
  const expiry = Date.parse(h.auth.users.get('staff', staff.id as string)!.resetPasswordExpiration!)
  t.ok(expiry > Date.now() + 100000, 'the collection setting wins over the argument (as in Payload)')
})

t.test('two resets racing with one token: exactly one succeeds', async (t) => {
  const h = await authHarness(t)
  await createOperation({ ...h.args(), data: { email: 'race@me.com', password: 'secret' }, overrideAccess: true })
  const token = (await forgotPasswordOperation({ ...h.args(), data: { email: 'race@me.com' }, disableEmail: true }))!
  const results = await Promise.allSettled([
    resetPasswordOperation({ ...h.args(), data: { token, password: 'first-pass' } }),
    resetPasswordOperation({ ...h.args(), data: { token, password: 'second-pass' } }),
  ])
  t.same(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'])
})
