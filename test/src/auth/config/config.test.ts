/** The auth config: defaults, refusals, and loading .json, .mjs and .ts modules. */
import t from 'tap'
import { sanitizeAuthConfig, AuthConfigError } from '../../../../src/auth/config/sanitize.js'
import { loadAuthConfigFile } from '../../../../src/auth/config/load.js'
import { configFile } from '../../../helpers/auth.js'

t.test('defaults are Payload\'s', async (t) => {
  const config = sanitizeAuthConfig({}, 'development')
  t.equal(config.developmentSecret, true)
  t.equal(config.cookiePrefix, 'tessera')
  t.equal(config.collections.length, 1)
  const [users] = config.collections
  t.equal(users!.slug, 'users')
  t.same(users!.labels, { singular: 'User', plural: 'Users' })
  t.same(users!.auth, {
    tokenExpiration: 7200, verify: false, maxLoginAttempts: 5, lockTime: 600000, useAPIKey: false, useSessions: true,
    cookies: { sameSite: 'Lax', secure: false, domain: undefined }, forgotPassword: { expiration: undefined },
  })
  t.same(config.csrf, [])
  t.same(sanitizeAuthConfig({ secret: 's', serverURL: 'https://x.io/' }, 'production').csrf, ['https://x.io'], 'serverURL is trusted for cookies')
})

t.test('bad configs are refused with a clear message', async (t) => {
  t.throws(() => sanitizeAuthConfig({}, 'production'), /needs a `secret`/, 'production needs a secret')
  t.ok((() => { try { sanitizeAuthConfig({}, 'production') } catch (e) { return e instanceof AuthConfigError } })(), 'as an AuthConfigError')
  t.throws(() => sanitizeAuthConfig({ collections: [{ slug: 'bad slug', auth: true }] }, 'development'), /invalid collection slug/)
  t.throws(() => sanitizeAuthConfig({ collections: [{ slug: 'users', auth: true }, { slug: 'users', auth: true }] }, 'development'), /used twice/)
  t.throws(() => sanitizeAuthConfig({ collections: [{ slug: 'users', auth: true, fields: [{ name: 'hash', type: 'text' }] }] }, 'development'), /reserved/)
  t.throws(() => sanitizeAuthConfig({ collections: [{ slug: 'users', auth: { maxLoginAttempts: -1 } }] }, 'development'), /maxLoginAttempts/)
  t.throws(() => sanitizeAuthConfig({ email: { smtp: 'http://x', fromName: 'a', fromAddress: 'b' } }, 'development'), /smtp/)
})

t.test('config modules: .json, .mjs and .ts (transpiled beside the file, then removed)', async (t) => {
  const json = configFile(t, JSON.stringify({ secret: 'from-json', collections: [{ slug: 'members', auth: true }] }), '.json')
  t.match(await loadAuthConfigFile(json), { secret: 'from-json', collections: [{ slug: 'members' }] })
  const mjs = configFile(t, "export default { secret: 'from-mjs', collections: [{ slug: 'users', auth: true, access: { read: () => true } }] }\n", '.mjs')
  const loaded = await loadAuthConfigFile(mjs)
  t.equal(loaded.secret, 'from-mjs')
  t.equal(typeof loaded.collections![0]!.access!.read, 'function', 'functions survive')
  const ts = configFile(t, "interface C { secret: string }\nconst c: C = { secret: 'from-ts' }\nexport default { ...c, collections: [{ slug: 'users', auth: true }] as const }\n", '.ts')
  t.equal((await loadAuthConfigFile(ts)).secret, 'from-ts')
  const { readdirSync } = await import('node:fs')
  const { dirname } = await import('node:path')
  t.same(readdirSync(dirname(ts)), ['config.ts'], 'the compiled copy is gone')
  await t.rejects(loadAuthConfigFile(configFile(t, '{ nope', '.json')), /not valid JSON/)
  await t.rejects(loadAuthConfigFile(configFile(t, 'export const x = 1\n', '.mjs')), /default export/)
  await t.rejects(loadAuthConfigFile('/nonexistent/config.js'), /cannot read/)
  await t.rejects(loadAuthConfigFile(configFile(t, 'x', '.yaml')), /unsupported/)
})
