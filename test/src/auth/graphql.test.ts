/** Area A over GraphQL (POST /api/graphql) with a real client: the documented operations, cookies, errors. */
import t from 'tap'
import { ClientError, GraphQLClient, gql } from 'graphql-request'
import { call } from '../../helpers/server.js'
import { authServer, claimsOf, cookieParts } from '../../helpers/auth.js'

const CONFIG = `
export default {
  secret: 'graphql-test-secret',
  collections: [
    { slug: 'users', labels: { singular: 'User', plural: 'Users' }, auth: { maxLoginAttempts: 2 }, fields: [{ name: 'role', type: 'text', saveToJWT: true }] },
    { slug: 'members', labels: { singular: 'Member', plural: 'Members' }, auth: { verify: true }, access: { create: () => true } },
  ],
}
`

/** The first GraphQL error of a failed request. */
async function errorOf(p: Promise<unknown>): Promise<{ message: string; path?: string[]; locations?: unknown; extensions: { name?: string; statusCode: number; data?: unknown } }> {
  try {
    await p
  } catch (err) {
    if (err instanceof ClientError) return err.response.errors![0] as never
    throw err
  }
  throw new Error('expected a GraphQL error')
}

t.test('GraphQL operations of area A', async (t) => {
  const server = await authServer(t, CONFIG)
  const endpoint = `${server.url}/api/graphql`
  const client = new GraphQLClient(endpoint)
  await call(`${server.url}/api/users/first-register`, { method: 'POST', json: { email: 'dev@app.test', password: 'dev-pass', role: 'admin' } })

  const loginDoc = gql`mutation ($email: String, $password: String) { loginUser(email: $email, password: $password) { exp token user { id email role } } }`
  const raw = await client.rawRequest<{ loginUser: { exp: number; token: string; user: { id: string; email: string; role: string } } }>(loginDoc, { email: 'dev@app.test', password: 'dev-pass' })
  const { exp, token, user } = raw.data.loginUser
  t.match(user, { email: 'dev@app.test', role: 'admin' })
  t.match(claimsOf(token), { id: user.id, collection: 'users', email: 'dev@app.test', role: 'admin', exp })
  t.equal(cookieParts(raw.headers.get('set-cookie')).value, token, 'login sets the cookie, as REST does')
  const authed = new GraphQLClient(endpoint, { headers: { authorization: `JWT ${token}` } })

  const me = await authed.request<{ meUser: Record<string, unknown> }>(gql`{ meUser { collection exp strategy token user { id email } } }`)
  t.same(me.meUser, { collection: 'users', exp, strategy: 'local-jwt', token, user: { id: user.id, email: 'dev@app.test' } })
  t.same((await client.request(gql`{ meUser { user { id } exp } }`)), { meUser: { user: null, exp: null } }, 'nobody: user null')
  t.same(await client.request(gql`{ initializedUser initializedMember }`), { initializedUser: true, initializedMember: false })

  const accessDoc = gql`{ Access { canAccessAdmin users { create { permission } read { permission } unlock { permission } fields { email { read { permission } } } } members { create { permission } read { permission } } } }`
  t.same(await authed.request(accessDoc), { Access: { canAccessAdmin: true, users: { create: { permission: true }, read: { permission: true }, unlock: { permission: true }, fields: { email: { read: { permission: true } } } }, members: { create: { permission: true }, read: { permission: true } } } })
  t.same(await client.request(accessDoc), { Access: { canAccessAdmin: false, users: { create: { permission: false }, read: { permission: false }, unlock: { permission: false }, fields: { email: { read: { permission: false } } } }, members: { create: { permission: true }, read: { permission: false } } } }, 'denials answer false')
  t.same(await authed.request(gql`query ($id: String!) { docAccessUser(id: $id) { read { permission } delete { permission } } }`, { id: user.id }), { docAccessUser: { read: { permission: true }, delete: { permission: true } } })

  const refreshed = await authed.rawRequest<{ refreshTokenUser: { exp: number; refreshedToken: string; strategy: string; user: { email: string } } }>(gql`mutation { refreshTokenUser { exp refreshedToken strategy user { email } } }`)
  t.match(refreshed.data.refreshTokenUser, { strategy: 'local-jwt', user: { email: 'dev@app.test' } })
  t.equal(claimsOf(refreshed.data.refreshTokenUser.refreshedToken).sid, claimsOf(token).sid)
  t.equal(cookieParts(refreshed.headers.get('set-cookie')).value, refreshed.data.refreshTokenUser.refreshedToken)

  t.same(await client.request(gql`mutation { forgotPasswordUser(email: "dev@app.test") }`), { forgotPasswordUser: true })
  t.same(await client.request(gql`mutation { forgotPasswordUser(email: "nobody@app.test") }`), { forgotPasswordUser: true }, 'no enumeration')
  t.same(await authed.request(gql`mutation { unlockUser(email: "dev@app.test") }`), { unlockUser: true })

  // Errors, shaped as Payload's.
  const wrong = await errorOf(client.request(loginDoc, { email: 'dev@app.test', password: 'nope' }))
  t.same(wrong, { message: 'The email or password provided is incorrect.', locations: [{ line: 1, column: 48 }], path: ['loginUser'], extensions: { name: 'AuthenticationError', statusCode: 401 } })
  t.same(await errorOf(client.request(loginDoc, { email: 'dev@app.test' })), {
    message: 'The following field is invalid: password', locations: [{ line: 1, column: 48 }], path: ['loginUser'],
    extensions: { name: 'ValidationError', data: { collection: 'users', errors: [{ message: 'This field is required.', path: 'password' }] }, statusCode: 400 },
  })
  t.match(await errorOf(client.request(loginDoc, { email: 'dev@app.test', password: 'nope' })), { extensions: { name: 'AuthenticationError' } }, 'the second attempt reaches the limit: still incorrect')
  t.match(await errorOf(client.request(loginDoc, { email: 'dev@app.test', password: 'dev-pass' })), { message: 'This user is locked due to having too many failed login attempts.', extensions: { name: 'LockedAuth', statusCode: 401 } })
  t.same(await authed.request(gql`mutation { unlockUser(email: "dev@app.test") }`), { unlockUser: true }, 'unlocked by the logged-in admin')
  t.match(await errorOf(client.request(gql`mutation { unlockUser(email: "dev@app.test") }`)), { message: 'You are not allowed to perform this action.', extensions: { name: 'Forbidden', statusCode: 403 } })
  t.match(await errorOf(client.request(gql`mutation { resetPasswordUser(token: "bad", password: "new-pass") { token } }`)), { message: 'Token is either invalid or has expired.', extensions: { statusCode: 403 } })
  t.match(await errorOf(client.request(gql`mutation { verifyEmailMember(token: "bad") }`)), { message: 'Verification token is invalid.', extensions: { statusCode: 403 } })
  t.match(await errorOf(client.request(gql`mutation { refreshTokenUser { exp } }`)), { message: 'You are not allowed to perform this action.', extensions: { statusCode: 403 } })
  t.match(await errorOf(client.request(gql`mutation { logoutUser }`)), { message: 'No User', extensions: { statusCode: 400 } })

  // Logout ends the session: the token stops working.
  const logout = await authed.rawRequest<{ logoutUser: string }>(gql`mutation { logoutUser }`)
  t.equal(logout.data.logoutUser, 'true')
  t.equal(cookieParts(logout.headers.get('set-cookie')).value, '', 'the cookie is expired')
  t.same(await authed.request(gql`{ meUser { user { id } } }`), { meUser: { user: null } })

  // Not a valid document: 400.
  const bad = await call(endpoint, { method: 'POST', json: { query: '{ meUser { nope } }' } })
  t.equal(bad.status, 400)
  t.match(bad.body.errors[0], { message: /Cannot query field "nope"/, extensions: { statusCode: 400 } })
  const syntax = await call(endpoint, { method: 'POST', json: { query: '{' } })
  t.equal(syntax.status, 400)
  t.same((await call(endpoint, { method: 'POST', json: {} })).body, { errors: [{ message: 'Missing query' }] })
  t.notOk('verifyEmailUser' in ((await call(endpoint, { method: 'POST', json: { query: '{ __type(name: "Mutation") { fields { name } } }' } })).body.data.__type.fields.map((f: { name: string }) => f.name).reduce((o: Record<string, true>, n: string) => ({ ...o, [n]: true }), {})), 'no verifyEmail<Label> without verification')
})
