/** A login, logout or failed attempt that answered survives kill -9: it was committed (fsynced) before the answer. */
import t from 'tap'
import { rmSync } from 'node:fs'
import { call, startServer, tempDir } from '../../helpers/server.js'
import { configFile } from '../../helpers/auth.js'

const CONFIG = `export default { secret: 'durability-secret', collections: [{ slug: 'users', auth: { maxLoginAttempts: 2 } }] }\n`

t.test('kill -9 right after the answers', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const config = configFile(t, CONFIG)
  const start = async () => {
    const server = await startServer({ dbPath, args: ['--config', config] })
    t.teardown(() => server.kill9())
    return server
  }
  const first = await start()
  const api = `${first.url}/api/users`
  await call(`${api}/first-register`, { method: 'POST', json: { email: 'dev@app.test', password: 'dev-pass' } })
  await call(`${api}`, { method: 'POST', json: { email: 'locked@app.test', password: 'lock-pass' }, headers: { authorization: `JWT ${(await call(`${api}/login`, { method: 'POST', json: { email: 'dev@app.test', password: 'dev-pass' } })).body.token}` } })
  const [kept, dropped] = await Promise.all([1, 2].map(() => call(`${api}/login`, { method: 'POST', json: { email: 'dev@app.test', password: 'dev-pass' } })))
  t.equal(kept!.status, 200)
  t.equal((await call(`${api}/logout`, { method: 'POST', headers: { authorization: `JWT ${dropped!.body.token}` } })).status, 200)
  for (let i = 0; i < 2; i++) t.equal((await call(`${api}/login`, { method: 'POST', json: { email: 'locked@app.test', password: 'wrong' } })).status, 401)
  await first.kill9()

  const second = await start()
  const api2 = `${second.url}/api/users`
  const me = await call(`${api2}/me`, { headers: { authorization: `JWT ${kept!.body.token}` } })
  t.equal(me.body.user?.email, 'dev@app.test', 'the session of an answered login survived')
  t.same((await call(`${api2}/me`, { headers: { authorization: `JWT ${dropped!.body.token}` } })).body, { user: null, message: 'Account' }, 'an answered logout survived')
  const locked = await call(`${api2}/login`, { method: 'POST', json: { email: 'locked@app.test', password: 'lock-pass' } })
  t.same(locked.body, { errors: [{ message: 'This user is locked due to having too many failed login attempts.' }] }, 'counted attempts survived')
  await second.stop()
})
