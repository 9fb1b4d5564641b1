/** Sessions: a token lives only while its session does; refresh keeps the sid, logout removes one or all. */
import t from 'tap'
import { authHarness, claimsOf, rejectsWith } from '../../../helpers/auth.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { loginOperation } from '../../../../src/auth/operations/login.js'
import { logoutOperation } from '../../../../src/auth/operations/logout.js'
import { meOperation } from '../../../../src/auth/operations/me.js'
import { refreshOperation } from '../../../../src/auth/operations/refresh.js'

t.test('refresh keeps the sid and moves the session; logout removes one, allSessions all', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { tokenExpiration: 60 } }] })
  const user = await createOperation({ ...h.args(), data: { email: 's@me.com', password: 'secret' }, overrideAccess: true })
  const login = () => loginOperation({ ...h.args(), data: { email: 's@me.com', password: 'secret' } })
  const a = await login()
  const b = await login()
  const c = await login()
  t.equal(h.auth.users.get('users', user.id as string)!.sessions!.length, 3, 'one session per login')

  const before = h.auth.users.get('users', user.id as string)!.sessions!.find((s) => s.id === claimsOf(a.token).sid)!
  await new Promise((r) => setTimeout(r, 1100))
  const refreshed = await refreshOperation(h.args('users', a.token))
  t.same(Object.keys(refreshed), ['exp', 'refreshedToken', 'strategy', 'user'])
  t.equal(claimsOf(refreshed.refreshedToken).sid, claimsOf(a.token).sid, 'refresh keeps the sid')
  t.ok(refreshed.exp > a.exp, 'a later expiry')
  const after = h.auth.users.get('users', user.id as string)!.sessions!.find((s) => s.id === claimsOf(a.token).sid)!
  t.ok(Date.parse(after.expiresAt) > Date.parse(before.expiresAt), 'the session is extended')
  t.equal(refreshed.strategy, 'local-jwt')

  t.ok(await logoutOperation(h.args('users', b.token)))
  t.equal(h.args('users', b.token).req.user, null, 'the logged-out token no longer authenticates')
  t.ok(h.args('users', a.token).req.user, 'other sessions stay')
  t.ok(h.args('users', refreshed.refreshedToken).req.user, 'the refreshed token shares the kept session')
  await rejectsWith(t, refreshOperation(h.args('users', b.token)), 'Forbidden', 403, 'You are not allowed to perform this action.')
  t.same(await meOperation(h.args('users', b.token)), { user: null })

  await logoutOperation({ ...h.args('users', c.token), allSessions: true })
  t.same(h.auth.users.get('users', user.id as string)!.sessions, [], 'allSessions clears every session')
  t.equal(h.args('users', a.token).req.user, null)
  await rejectsWith(t, logoutOperation(h.args('users', a.token)), 'APIError', 400, 'No User')
})

t.test('expired sessions are pruned at login; without sessions a token stands alone', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { tokenExpiration: 1 } }, { slug: 'admins', auth: { useSessions: false } }] })
  await createOperation({ ...h.args('users'), data: { email: 'p@me.com', password: 'secret' }, overrideAccess: true })
  const first = await loginOperation({ ...h.args('users'), data: { email: 'p@me.com', password: 'secret' } })
  await new Promise((r) => setTimeout(r, 1500))
  t.equal(h.args('users', first.token).req.user, null, 'an expired token is refused')
  const second = await loginOperation({ ...h.args('users'), data: { email: 'p@me.com', password: 'secret' } })
  const sessions = h.auth.users.get('users', String(second.user.id))!.sessions!
  t.same(sessions.map((s) => s.id), [claimsOf(second.token).sid], 'the expired session was pruned')

  await createOperation({ ...h.args('admins'), data: { email: 'p@me.com', password: 'secret' }, overrideAccess: true })
  const admin = await loginOperation({ ...h.args('admins'), data: { email: 'p@me.com', password: 'secret' } })
  t.notOk('sid' in claimsOf(admin.token), 'no sid without sessions')
  t.notOk('sessions' in admin.user)
  const me = await meOperation(h.args('admins', admin.token))
  t.match(me, { collection: 'admins', strategy: 'local-jwt', token: admin.token, exp: admin.exp, user: { email: 'p@me.com' } })
  t.same(await meOperation(h.args('users', admin.token)), { user: null }, 'a token of another collection is nobody here')
  t.ok(await logoutOperation(h.args('admins', admin.token)))
  t.ok(h.args('admins', admin.token).req.user, 'without sessions a token stays valid until it expires (as Payload)')
})
