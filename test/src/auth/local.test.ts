/** The local API: createTessera on its own Store, Payload's local operations, cookies on a passed response. */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createTessera } from '../../../src/auth/index.js'
import { claimsOf, cookieParts } from '../../helpers/auth.js'

t.test('local API', async (t) => {
  const dbPath = mkdtempSync(join(tmpdir(), 'tessera-local-'))
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const logs: string[] = []
  const tessera = await createTessera({
    dbPath, secret: 'local-secret',
    collections: [{ slug: 'users', auth: { verify: true, maxLoginAttempts: 3 } }],
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
  })
  t.teardown(() => tessera.close())

  const user = await tessera.create({ collection: 'users', data: { email: 'dev@app.test', password: 'dev-pass' } })
  t.equal(user.email, 'dev@app.test')
  t.equal(user._verified, false)
  t.match(logs.join('\n'), /email not sent \(no SMTP configured\): to dev@app\.test, subject "Verify your email".*\/admin\/users\/verify\/\[token withheld\]/, 'without serverURL the link has no origin')
  const hidden = await tessera.findByID({ collection: 'users', id: user.id as string, showHiddenFields: true })
  t.match(hidden._verificationToken, /^[0-9a-f]{40}$/)
  t.notOk('_verificationToken' in (await tessera.findByID({ collection: 'users', id: user.id as string })))
  t.match(await tessera.find({ collection: 'users', where: { email: { equals: 'dev@app.test' } }, showHiddenFields: true }), { totalDocs: 1, docs: [{ _verificationToken: hidden._verificationToken }] })
  await t.rejects(tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'dev-pass' } }), { name: 'UnverifiedEmail' })
  t.equal(await tessera.verifyEmail({ collection: 'users', token: hidden._verificationToken as string }), true)

  // login sets the cookie on a node ServerResponse.
  const res = new ServerResponse(new IncomingMessage(new Socket()))
  const login = await tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'dev-pass' }, res })
  t.equal(cookieParts(String(res.getHeader('set-cookie'))).value, login.token)
  t.match(login.user, { email: 'dev@app.test', _verified: true })
  const headers = new Headers()
  await tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'dev-pass' }, res: { headers } })
  t.match(headers.get('set-cookie'), /^tessera-token=ey.*HttpOnly; SameSite=Lax$/, 'or on a Headers')

  t.match(await tessera.me({ collection: 'users', token: login.token }), { user: { email: 'dev@app.test' }, token: login.token, strategy: 'local-jwt' })
  const refreshed = await tessera.refreshToken({ collection: 'users', token: login.token })
  t.equal(claimsOf(refreshed.refreshedToken).sid, claimsOf(login.token).sid)
  t.match(await tessera.access({ token: login.token }), { canAccessAdmin: true })
  t.same(await tessera.access(), {})

  // forgotPassword with disableEmail returns the token and sends nothing.
  const before = logs.length
  const token = await tessera.forgotPassword({ collection: 'users', data: { email: 'dev@app.test' }, disableEmail: true })
  t.match(token, /^[0-9a-f]{40}$/)
  t.equal(logs.length, before, 'no mail')
  t.equal(await tessera.forgotPassword({ collection: 'users', data: { email: 'nobody@app.test' }, disableEmail: true }), null)
  const reset = await tessera.resetPassword({ collection: 'users', data: { token: token!, password: 'new-pass' } })
  t.match(reset.user, { email: 'dev@app.test' })
  await t.rejects(tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'dev-pass' } }), { name: 'AuthenticationError' })

  // Lock, then unlock (the local API bypasses access).
  for (let i = 0; i < 3; i++) await t.rejects(tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'bad' } }))
  await t.rejects(tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'new-pass' } }), { name: 'LockedAuth' })
  t.equal(await tessera.unlock({ collection: 'users', data: { email: 'dev@app.test' } }), true)
  await t.rejects(tessera.unlock({ collection: 'users', data: { email: 'dev@app.test' }, overrideAccess: false }), { name: 'Forbidden' }, 'access applies when asked')
  const again = await tessera.login({ collection: 'users', data: { email: 'dev@app.test', password: 'new-pass' } })

  t.equal(await tessera.logout({ collection: 'users', token: again.token, allSessions: true }), true)
  t.same(await tessera.me({ collection: 'users', token: again.token }), { user: null })
  await t.rejects(tessera.find({ collection: 'nope' }), { name: 'APIError', status: 404 })
})

t.test('the package entry point tessera/auth exposes the local API', async (t) => {
  const entry = await import('tessera/auth')
  t.equal(typeof entry.createTessera, 'function')
  t.equal(typeof entry.authRoutes, 'function')
})
