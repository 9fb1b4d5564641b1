/** Starting the service with and without an auth config: production needs a secret; a .ts config works. */
import t from 'tap'
import { call, startServer, serverFor } from '../../helpers/server.js'
import { configFile } from '../../helpers/auth.js'

t.test('production refuses to start without an auth secret', async (t) => {
  await t.rejects(startServer({ args: ['--env', 'production', '--master-key', 'a-master-key-of-16-bytes'] }), /needs a `secret`/)
  const noSecret = configFile(t, "export default { collections: [{ slug: 'users', auth: true }] }\n")
  await t.rejects(startServer({ args: ['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--config', noSecret] }), /needs a `secret`/)
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
