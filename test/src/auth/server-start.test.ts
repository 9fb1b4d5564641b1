/**
 * Starting the service with and without an auth config: without a secret, production signs with one derived from the
 * master key (a new master key ends the sessions); a .ts config works.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { call, startServer, serverFor, tempDir } from '../../helpers/server.js'
import { configFile } from '../../helpers/auth.js'

t.test('production without an auth secret signs with one derived from the master key', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const production = (masterKey: string) => ({ dbPath, args: ['--env', 'production', '--master-key', masterKey] })
  let server = await startServer(production('a-master-key-of-16-bytes'))
  t.notMatch(server.logs(), /DEVELOPMENT secret/, 'no development secret')
  const api = () => `${server.url}/api/users`
  t.equal((await call(`${api()}/first-register`, { method: 'POST', json: { email: 'a@app.test', password: 'admin-pass' } })).status, 200)
  const { token } = (await call(`${api()}/login`, { method: 'POST', json: { email: 'a@app.test', password: 'admin-pass' } })).body
  const me = () => call(`${api()}/me`, { headers: { authorization: `JWT ${token}` } })
  t.equal((await me()).body.user?.email, 'a@app.test', 'the token works')
  await server.stop()
  server = await startServer(production('a-master-key-of-16-bytes'))
  t.equal((await me()).body.user?.email, 'a@app.test', 'the same master key: the same secret after a restart')
  await server.stop()
  server = await startServer(production('another-master-key-of-16-bytes'))
  t.equal((await me()).body.user, null, 'a new master key: the old token no longer verifies')
  await server.stop()
  const noSecret = configFile(t, "export default { collections: [{ slug: 'users', auth: true }] }\n")
  server = await startServer({ args: ['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--config', noSecret] })
  t.notMatch(server.logs(), /DEVELOPMENT secret/, 'a config without a secret takes the derived one too')
  await server.stop()
  await t.rejects(startServer({ args: ['--config', configFile(t, 'export default 1\n')] }), /must have a default export/)
})

t.test('without a config: one users collection, a loud warning', async (t) => {
  const server = await serverFor(t)
  t.match(server.logs(), /AUTH: no secret configured: tokens are signed with a fixed DEVELOPMENT secret/)
  t.same((await call(`${server.url}/api/users/init`)).body, { initialized: false })
  t.equal((await call(`${server.url}/api/members/init`)).status, 404)
})

t.test('a TypeScript config through TESSERA_CONFIG', async (t) => {
  const ts = configFile(t, [
    "import type {} from 'node:fs'",
    "type Access = (args: { req: { user: unknown } }) => boolean",
    "const everyone: Access = () => true",
    "export default { secret: 'ts-secret', cookiePrefix: 'app', collections: [{ slug: 'members', labels: { singular: 'Member' }, auth: true, access: { create: everyone } }] }",
  ].join('\n'), '.ts')
  const server = await serverFor(t, { env: { TESSERA_CONFIG: ts } })
  t.notMatch(server.logs(), /DEVELOPMENT secret/)
  const created = await call(`${server.url}/api/members`, { method: 'POST', json: { email: 'm@app.test', password: 'member-pass' } })
  t.equal(created.status, 201)
  const login = await call(`${server.url}/api/members/login`, { method: 'POST', json: { email: 'm@app.test', password: 'member-pass' } })
  t.match(login.headers.get('set-cookie'), /^app-token=/, 'the cookie prefix applies')
})
