/**
 * Area A over REST through the real server: every route's success and error bodies, statuses and cookies,
 * token presentation (JWT, Bearer, cookie with the CSRF rule, API key), and unknown routes.
 */
import t from 'tap'
import { call } from '../../helpers/server.js'
import { authServer, claimsOf, cookieParts } from '../../helpers/auth.js'

const CONFIG = `
export default {
  secret: 'rest-test-secret',
  serverURL: 'http://app.test',
  collections: [
    { slug: 'users', labels: { singular: 'User', plural: 'Users' }, auth: { useAPIKey: true },
      fields: [{ name: 'role', type: 'text', saveToJWT: true }] },
    { slug: 'members', labels: { singular: 'Member', plural: 'Members' },
      auth: { verify: true, maxLoginAttempts: 2, cookies: { sameSite: 'Strict', secure: true, domain: 'app.test' } },
      access: { create: () => true } },
    { slug: 'shorts', auth: { tokenExpiration: 1 }, access: { create: () => true } },
  ],
  globals: [{ slug: 'settings', access: { read: () => true } }],
}
`

const FORBIDDEN = { errors: [{ message: 'You are not allowed to perform this action.' }] }

t.test('REST routes of area A', async (t) => {
  const server = await authServer(t, CONFIG, { env: { TESSERA_LOG_LEVEL: 'INFO' } })
  const api = `${server.url}/api`
  const post = (path: string, json?: unknown, headers: Record<string, string> = {}) => call(`${api}${path}`, { method: 'POST', json, headers })
  const get = (path: string, headers: Record<string, string> = {}) => call(`${api}${path}`, { headers })

  // First user.
  t.same((await get('/users/init')).body, { initialized: false })
  const first = await post('/users/first-register', { email: 'Admin@App.test', password: 'admin-pass', role: 'admin' })
  t.equal(first.status, 200)
  t.same(Object.keys(first.body), ['exp', 'message', 'token', 'user'])
  t.equal(first.body.message, 'Successfully registered first user.')
  t.match(first.body.user, { email: 'admin@app.test', role: 'admin', collection: 'users', _strategy: 'local-jwt' })
  t.equal(cookieParts(first.headers.get('set-cookie')).value, first.body.token)
  const again = await post('/users/first-register', { email: 'x@app.test', password: 'other-pass' })
  t.equal(again.status, 403)
  t.same(again.body, FORBIDDEN)
  t.same((await get('/users/init')).body, { initialized: true })

  // Login.
  const login = await post('/users/login', { email: 'admin@app.test', password: 'admin-pass' })
  t.equal(login.status, 200)
  t.same(Object.keys(login.body), ['message', 'exp', 'token', 'user'])
  t.equal(login.body.message, 'Authentication Passed')
  t.match(claimsOf(login.body.token), { collection: 'users', email: 'admin@app.test', role: 'admin' })
  const cookie = cookieParts(login.headers.get('set-cookie'))
  t.equal(cookie.name, 'tessera-token')
  t.equal(cookie.value, login.body.token)
  t.same(Object.keys(cookie.attributes), ['expires', 'path', 'httponly', 'samesite'], 'Payload\'s attribute order, no Secure by default')
  t.equal(cookie.attributes.path, '/')
  t.equal(cookie.attributes.samesite, 'Lax')
  t.ok(Math.abs(Date.parse(cookie.attributes.expires as string) / 1000 - login.body.exp) <= 2, 'the cookie expires with the token')
  const token = login.body.token as string
  const jwt = { authorization: `JWT ${token}` }

  const missing = await post('/users/login', { email: 'admin@app.test' })
  t.equal(missing.status, 400)
  t.same(missing.body, { errors: [{ name: 'ValidationError', data: { collection: 'users', errors: [{ message: 'This field is required.', path: 'password' }] }, message: 'The following field is invalid: password' }] })
  const noBody = await call(`${api}/users/login`, { method: 'POST' })
  t.equal(noBody.status, 400, 'no body: the email is missing')
  t.equal(noBody.body.errors[0].data.errors[0].path, 'email')
  for (const creds of [{ email: 'admin@app.test', password: 'wrong' }, { email: 'nobody@app.test', password: 'admin-pass' }]) {
    const wrong = await post('/users/login', creds)
    t.equal(wrong.status, 401)
    t.same(wrong.body, { errors: [{ message: 'The email or password provided is incorrect.' }] })
    t.equal(wrong.headers.get('set-cookie'), null)
  }

  // Me, through each way of presenting the token.
  const me = await get('/users/me', jwt)
  t.equal(me.status, 200)
  t.same(Object.keys(me.body), ['user', 'collection', 'strategy', 'exp', 'token', 'message'])
  t.match(me.body, { collection: 'users', strategy: 'local-jwt', exp: login.body.exp, token, message: 'Account', user: { email: 'admin@app.test', collection: 'users', _strategy: 'local-jwt' } })
  t.notOk('hash' in me.body.user || 'salt' in me.body.user, 'never the hash')
  t.equal((await get('/users/me', { authorization: `Bearer ${token}` })).body.user.email, 'admin@app.test', 'Bearer')
  const byCookie = (headers: Record<string, string>) => get('/users/me', { cookie: `other=1; tessera-token=${token}`, ...headers })
  t.equal((await byCookie({ origin: 'http://app.test' })).body.user?.email, 'admin@app.test', 'cookie from the configured origin')
  t.equal((await byCookie({ origin: 'http://evil.test' })).body.user, null, 'cookie from another origin: ignored')
  t.equal((await byCookie({})).body.user, null, 'cookie without Origin nor Sec-Fetch-Site: ignored when a csrf list exists')
  t.equal((await byCookie({ 'sec-fetch-site': 'same-origin' })).body.user?.email, 'admin@app.test', 'same-origin navigation')
  t.same((await get('/users/me')).body, { user: null, message: 'Account' })
  const tampered = token.slice(0, -3) + (token.endsWith('abc') ? 'xyz' : 'abc')
  t.same((await get('/users/me', { authorization: `JWT ${tampered}` })).body, { user: null, message: 'Account' }, 'a tampered token is nobody')
  t.same((await get('/members/me', jwt)).body, { user: null, message: 'Account' }, 'a user of another collection is nobody here')

  // Refresh.
  const refreshed = await call(`${api}/users/refresh-token`, { method: 'POST', headers: { ...jwt, 'content-type': 'application/json' } })
  t.equal(refreshed.status, 200)
  t.same(Object.keys(refreshed.body), ['message', 'exp', 'refreshedToken', 'strategy', 'user'])
  t.equal(refreshed.body.message, 'Token refresh successful.')
  t.equal(claimsOf(refreshed.body.refreshedToken).sid, claimsOf(token).sid, 'same session')
  t.equal(cookieParts(refreshed.headers.get('set-cookie')).value, refreshed.body.refreshedToken, 'the cookie is updated')
  const anonymousRefresh = await post('/users/refresh-token', { token: 'INVALID' })
  t.equal(anonymousRefresh.status, 403)
  t.same(anonymousRefresh.body, FORBIDDEN)

  // Access.
  for (const method of ['GET', 'POST']) {
    const access = await call(`${api}/access`, { method, headers: jwt })
    t.equal(access.status, 200)
    t.match(access.body, {
      canAccessAdmin: true,
      collections: { users: { create: true, read: true, update: true, delete: true, unlock: true, fields: { email: true, role: true, apiKey: { create: true, update: true } } } },
      globals: { settings: { fields: true, read: true, update: true } },
    })
    t.notOk('read' in access.body.collections.users.fields.apiKey, 'only its owner reads an API key')
    t.same((await call(`${api}/globals/settings/access`, { method })).body, { fields: true, read: true }, `${method} global access, anonymous`)
  }
  const anonymous = (await get('/access')).body
  t.same(Object.keys(anonymous), ['collections', 'globals'], 'anonymous: no canAccessAdmin')
  t.same(Object.keys(anonymous.collections), ['members', 'shorts'], 'only the collections open to anonymous creation')
  t.same(Object.keys(anonymous.collections.members), ['fields', 'create'])
  t.same(anonymous.collections.members.fields.email, { create: true })
  t.notOk('_verified' in anonymous.collections.members.fields, '_verified may not be set by anonymous users')
  t.same(anonymous.globals, { settings: { fields: true, read: true } })
  t.same((await get('/settings/access')).body, { fields: true, read: true }, 'the spec\'s /api/<global>/access')
  t.match((await post(`/users/access/${login.body.user.id}`, undefined, jwt)).body, { create: true, read: true, update: true, delete: true })
  t.equal((await get('/globals/nope/access')).status, 404)

  // Create, find, update, API key.
  const created = await post('/members', { email: 'Member@App.test', password: 'member-pass' })
  t.equal(created.status, 201)
  t.same(Object.keys(created.body), ['doc', 'message'])
  t.equal(created.body.message, 'Member successfully created.')
  t.match(created.body.doc, { email: 'member@app.test' })
  t.notOk('_verificationToken' in created.body.doc || 'hash' in created.body.doc)
  const duplicate = await post('/members', { email: 'member@app.test', password: 'member-pass' })
  t.equal(duplicate.status, 400)
  t.same(duplicate.body, { errors: [{ name: 'ValidationError', data: { collection: 'members', errors: [{ message: 'A user with the given email is already registered.', path: 'email' }] }, message: 'The following field is invalid: email' }] })
  const badEmail = await post('/members', { email: 'not an email', password: 'x' })
  t.same(badEmail.body.errors[0].data.errors, [{ message: 'Please enter a valid email address.', path: 'email' }])
  t.same((await post('/users', { email: 'u2@app.test', password: 'pass' })).body, FORBIDDEN, 'users: create needs a login')
  const list = await get('/members', jwt)
  t.match(list.body, { totalDocs: 1, page: 1, limit: 10, docs: [{ email: 'member@app.test' }] })
  t.equal((await get(`/members/${created.body.doc.id}`, jwt)).body.email, 'member@app.test')
  const notFound = await get('/members/000000000000000000000000', jwt)
  t.equal(notFound.status, 404)
  t.same(notFound.body, { errors: [{ message: 'The requested resource was not found.' }] })
  const apiKey = 'rest-test-api-key-0123'
  const patched = await call(`${api}/users/${login.body.user.id}`, { method: 'PATCH', headers: jwt, json: { enableAPIKey: true, apiKey } })
  t.equal(patched.status, 200)
  t.equal(patched.body.message, 'Updated successfully.')
  t.equal(patched.body.doc.apiKey, apiKey, 'the owner reads the key')
  const byKey = await get('/users/me', { authorization: `users API-Key ${apiKey}` })
  t.match(byKey.body, { strategy: 'api-key', user: { email: 'admin@app.test', apiKey } })
  t.notOk('token' in byKey.body)
  t.same((await get('/users/me', { authorization: `users API-Key nope` })).body, { user: null, message: 'Account' })

  // Verify (the token comes by email; here only the refusals and the log).
  const badVerify = await call(`${api}/members/verify/0123456789abcdef0123456789abcdef01234567`, { method: 'POST' })
  t.equal(badVerify.status, 403)
  t.same(badVerify.body, { errors: [{ message: 'Verification token is invalid.' }] })
  t.same((await post('/users/verify/abc')).body, { message: 'Route not found "/api/users/verify/abc"' }, 'no verify route without verification')
  const unverified = await post('/members/login', { email: 'member@app.test', password: 'member-pass' })
  t.equal(unverified.status, 403)
  t.same(unverified.body, { errors: [{ message: 'Please verify your email before logging in.' }] })

  // Unlock.
  const noEmail = await call(`${api}/members/unlock`, { method: 'POST', headers: { 'content-type': 'application/json' } })
  t.equal(noEmail.status, 400)
  t.same(noEmail.body, { errors: [{ message: 'Missing email.' }] })
  t.same((await post('/members/unlock', { email: 'member@app.test' })).body, FORBIDDEN)
  const unlocked = await post('/members/unlock', { email: 'member@app.test' }, jwt)
  t.equal(unlocked.status, 200)
  t.same(unlocked.body, { message: 'Success' })

  // Forgot and reset (the mail goes to the log here; the SMTP round trip is in email.test.ts).
  t.same((await post('/users/forgot-password', { email: 'nobody@app.test' })).body, { message: 'Success' }, 'no enumeration')
  t.same((await post('/users/forgot-password', { email: 'admin@app.test' })).body, { message: 'Success' })
  t.same((await post('/users/forgot-password', {})).body, { errors: [{ message: 'Missing email.' }] })
  const badReset = await post('/users/reset-password', { token: 'nope', password: 'whatever' })
  t.equal(badReset.status, 403)
  t.same(badReset.body, { errors: [{ message: 'Token is either invalid or has expired.' }] })

  // Expired tokens.
  await post('/shorts', { email: 's@app.test', password: 'short-pass' })
  const short = await post('/shorts/login', { email: 's@app.test', password: 'short-pass' })
  t.equal(short.status, 200)
  await new Promise((r) => setTimeout(r, 2100))
  t.same((await get('/shorts/me', { authorization: `JWT ${short.body.token}` })).body, { user: null, message: 'Account' }, 'an expired token is nobody')
  t.same((await post('/shorts/refresh-token', undefined, { authorization: `JWT ${short.body.token}` })).body, FORBIDDEN, 'an expired token cannot refresh')

  // Logout.
  const logout = await call(`${api}/users/logout`, { method: 'POST', headers: { ...jwt, 'content-type': 'application/json' } })
  t.equal(logout.status, 200)
  t.same(logout.body, { message: 'Logout successful.' })
  const expired = cookieParts(logout.headers.get('set-cookie'))
  t.equal(expired.name, 'tessera-token')
  t.equal(expired.value, '')
  t.ok(Date.parse(expired.attributes.expires as string) < Date.now(), 'expired')
  t.equal(expired.attributes.httponly, true)
  const twice = await post('/users/logout', undefined, jwt)
  t.equal(twice.status, 400)
  t.same(twice.body, { errors: [{ message: 'No User' }] })

  // Unknown routes.
  t.same((await get('/nope')).body, { message: 'Route not found "/api/nope"' })
  t.equal((await get('/nope')).status, 404)
  t.same((await call(`${api}/users/login`, { method: 'DELETE' })).body, { message: 'Route not found "/api/users/login"' })
  t.equal((await get('/users/login')).status, 403, 'GET /api/users/login is a read of the user "login", as in Payload')

  // Secrets never reach the log: passwords, tokens, the verification token in a path, the reset token in a mail.
  const logs = server.logs()
  t.match(logs, /POST \/api\/members\/verify\/\[withheld\] 403/, 'the verify path is logged without its token')
  t.notMatch(logs, /0123456789abcdef0123456789abcdef01234567/)
  t.match(logs, /email not sent \(no SMTP configured\): to admin@app\.test, subject "Reset Your Password".*\[token withheld\]/)
  for (const secret of ['admin-pass', 'member-pass', token, apiKey]) t.notOk(logs.includes(secret), 'no secret in the log')
})

t.test('members cookie attributes and 100 parallel wrong passwords over HTTP', async (t) => {
  const server = await authServer(t, CONFIG)
  const api = `${server.url}/api`
  await call(`${api}/users/first-register`, { method: 'POST', json: { email: 'a@app.test', password: 'admin-pass' } })
  await call(`${api}/members`, { method: 'POST', json: { email: 'm@app.test', password: 'member-pass' } })
  const answers = await Promise.all(Array.from({ length: 100 }, () => call(`${api}/members/login`, { method: 'POST', json: { email: 'm@app.test', password: 'wrong-pass' } })))
  const messages = answers.map((a) => `${a.status} ${a.body.errors[0].message}`)
  t.equal(messages.filter((m) => m === '401 The email or password provided is incorrect.').length, 2, 'at most maxLoginAttempts "incorrect"')
  t.equal(messages.filter((m) => m === '401 This user is locked due to having too many failed login attempts.').length, 98, 'the rest "locked"')

  // A verified, unlocked member logs in: its collection's cookie settings apply.
  const admin = await call(`${api}/users/login`, { method: 'POST', json: { email: 'a@app.test', password: 'admin-pass' } })
  const auth = { authorization: `JWT ${admin.body.token}` }
  await call(`${api}/members/unlock`, { method: 'POST', json: { email: 'm@app.test' }, headers: auth })
  const list = await call(`${api}/members`, { headers: auth })
  await call(`${api}/members/${list.body.docs[0].id}`, { method: 'PATCH', json: { _verified: true }, headers: auth })
  const member = await call(`${api}/members/login`, { method: 'POST', json: { email: 'm@app.test', password: 'member-pass' } })
  t.equal(member.status, 200)
  const cookie = cookieParts(member.headers.get('set-cookie'))
  t.same(Object.keys(cookie.attributes), ['expires', 'domain', 'path', 'secure', 'httponly', 'samesite'])
  t.match(cookie.attributes, { domain: 'app.test', path: '/', secure: true, httponly: true, samesite: 'Strict' })
})
