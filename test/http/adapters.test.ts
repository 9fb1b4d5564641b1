/** Both HTTP adapters behave the same; the CLI, configuration, logging and graceful shutdown. */
import t, { type Test } from 'tap'
import { rmSync } from 'node:fs'
import { serverFor, startServer, call, waitTask, tempDir, nodeSync, MAIN, type TestServer } from '../helpers/server.js'
import { OPTIONS } from '../../src/config.js'

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/
const DURATION = /^PT\d+(\.\d+)?S$/

/** A response with timestamps and durations replaced, for comparing two servers. */
function normalize(value: unknown): unknown {
  if (typeof value === 'string') return TIME.test(value) ? '<time>' : DURATION.test(value) ? '<duration>' : value
  if (Array.isArray(value)) return value.map(normalize)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]))
  return value
}

async function scenario(server: TestServer): Promise<unknown[]> {
  const url = server.url
  const out: unknown[] = []
  const record = async (what: string, res: Promise<{ status: number; text: string; body: any; headers: Headers }>) => {
    const r = await res
    out.push({ what, status: r.status, body: normalize(r.body ?? r.text), type: r.headers.get('content-type') })
    return r
  }
  await record('health', call(`${url}/health`))
  const created = await record('create', call(`${url}/indexes`, { method: 'POST', json: { uid: 'movies', primaryKey: 'id' } }))
  out.push({ what: 'task', task: normalize(await waitTask(url, created.body.taskUid)) })
  const second = await record('create 2', call(`${url}/indexes`, { method: 'POST', json: { uid: 'books' } }))
  await waitTask(url, second.body.taskUid)
  const dup = await record('duplicate', call(`${url}/indexes`, { method: 'POST', json: { uid: 'movies' } }))
  out.push({ what: 'duplicate task', task: normalize(await waitTask(url, dup.body.taskUid)) })
  await record('list', call(`${url}/indexes`))
  await record('get', call(`${url}/indexes/movies`))
  await record('tasks', call(`${url}/tasks`))
  await record('error', call(`${url}/indexes`, { method: 'POST', json: { uid: 'a b' } }))
  await record('malformed', call(`${url}/indexes`, { method: 'POST', body: '{"uid": ', headers: { 'content-type': 'application/json' } }))
  await record('query error', call(`${url}/indexes?limit=doggo`))
  await record('not found', call(`${url}/indexes/missing`))
  await record('no route', call(`${url}/nope`))
  await record('wrong method', call(`${url}/indexes`, { method: 'PUT' }))
  await record('head', call(`${url}/health`, { method: 'HEAD' }))
  await record('trailing slash', call(`${url}/indexes/movies/`))
  await record('percent-encoded', call(`${url}/indexes/mov%69es`))
  await record('stats', call(`${url}/indexes/movies/stats`))
  return out
}

/**
 * One server per adapter at the harness's default level (WARN), started once for the file: the identical-answers
 * test needs them fresh (it runs first), and the log test's quiet half only reads their logs.
 */
const atWarn = { uws: serverFor(t, { adapter: 'uws' }), node: serverFor(t, { adapter: 'node' }) }

t.test('uws and node:http give identical answers', async (t) => {
  const [uws, node] = await Promise.all([atWarn.uws, atWarn.node])
  const [a, b] = await Promise.all([scenario(uws), scenario(node)])
  t.same(b, a, 'same statuses, bodies and content types')
  // And the scenario itself is what it should be.
  const by = (what: string) => (a as any[]).find((x) => x.what === what)
  t.same(by('health'), { what: 'health', status: 200, body: { status: 'available' }, type: 'application/json' })
  t.same(by('create').body, { taskUid: 0, indexUid: 'movies', status: 'enqueued', type: 'indexCreation', enqueuedAt: '<time>' })
  t.equal(by('task').task.status, 'succeeded')
  t.equal(by('duplicate task').task.status, 'failed')
  t.equal(by('duplicate task').task.error.code, 'index_already_exists')
  t.same(by('list').body.results.map((i: any) => i.uid), ['books', 'movies'])
  t.equal(by('tasks').body.total, 3)
  t.equal(by('error').status, 400)
  t.equal(by('error').body.code, 'invalid_index_uid')
  t.equal(by('malformed').body.code, 'malformed_payload')
  t.equal(by('query error').body.code, 'invalid_index_limit')
  t.same(by('no route'), { what: 'no route', status: 404, body: '', type: null })
  t.same(by('wrong method'), { what: 'wrong method', status: 405, body: '', type: null })
  t.equal(by('head').status, 200)
  t.equal(by('head').body, '', 'HEAD has no body')
  t.equal(by('trailing slash').body.uid, 'movies')
  t.equal(by('percent-encoded').body.uid, 'movies')
  t.equal(uws.logs().includes('falling back'), false, 'uws really ran')
})

t.test('--help lists every option with its environment variable', async (t) => {
  const res = nodeSync([MAIN, '--help'])
  t.equal(res.status, 0)
  t.match(res.stdout, /^Usage: tessera \[options\]/)
  t.ok(OPTIONS.length >= 8)
  for (const o of OPTIONS) {
    t.ok(res.stdout.includes(o.switch ? `  --${o.flag}\n` : o.optionalValue ? `--${o.flag} [<${o.value}>]` : `--${o.flag} <${o.value}>`), `--${o.flag}`)
    t.ok(res.stdout.includes(`[env: TESSERA_${o.flag.toUpperCase().replace(/-/g, '_')}]`), `env of --${o.flag}`)
  }
  for (const flag of ['--db-path', '--http-addr', '--master-key', '--env', '--http-payload-size-limit', '--log-level', '--http-adapter', '--max-indexing-threads']) {
    t.ok(res.stdout.includes(flag), flag)
  }
  const version = nodeSync([MAIN, '--version'])
  t.equal(version.status, 0)
  t.match(version.stdout, /^tessera \d+\.\d+\.\d+/)
})

t.test('bad options exit 2 with a message', async (t) => {
  const dir = tempDir()
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const run = (args: string[], env: Record<string, string> = {}) =>
    nodeSync([MAIN, '--db-path', dir, '--http-addr', '127.0.0.1:0', ...args], { env: { ...process.env, ...env }, timeout: 15_000 })
  const cases: [string[], Record<string, string>, string][] = [
    [['--doggo', '1'], {}, 'error: unknown option `--doggo` (see --help)'],
    [['--log-level', 'LOUD'], {}, 'error: invalid --log-level `LOUD`: expected one of OFF, ERROR, WARN, INFO, DEBUG, TRACE'],
    [['--http-payload-size-limit', 'lots'], {}, 'error: invalid size `lots`: expected a number of bytes with an optional unit (B, KB, MB, GB, KiB, MiB, GiB)'],
    [['--http-adapter', 'apache'], {}, 'error: invalid --http-adapter `apache`: expected uws or node'],
    [['--max-indexing-threads', '0'], {}, 'error: invalid --max-indexing-threads `0`: expected a whole number from 1'],
    [['--log-level'], {}, 'error: option `--log-level` needs a value'],
    [['stray'], {}, 'error: unexpected argument `stray` (see --help)'],
    [[], { TESSERA_HTTP_PAYLOAD_SIZE_LIMIT: '-5' }, 'error: invalid size `-5`: expected a number of bytes with an optional unit (B, KB, MB, GB, KiB, MiB, GiB)'],
    [['--master-key', ''], {}, 'error: --master-key cannot be empty: leave it out to run without a master key'],
    [['--env', 'staging'], {}, 'error: invalid --env `staging`: expected development or production'],
    [['--no-preview=maybe'], {}, 'error: invalid --no-preview `maybe`: expected true or false'],
  ]
  for (const [args, env, message] of cases) {
    const res = run(args, env)
    t.equal(res.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: exit 2`)
    t.equal(res.stderr.trim(), message, 'message')
    t.equal(res.stdout, '', 'did not start')
  }
  // Production: Meilisearch's messages (main.rs), each followed by a freshly generated master key.
  const missing = 'error: You must provide a master key to secure your instance in a production environment. It can be specified via the TESSERA_MASTER_KEY environment variable or the --master-key launch option.\n\nWe generated a new secure master key for you (you can safely use this token):\n\n>> --master-key '
  const short = 'error: The master key must be at least 16 bytes in a production environment. The provided key is only 5 bytes.\n\nWe generated a new secure master key for you (you can safely use this token):\n\n>> --master-key '
  const production: [string[], Record<string, string>, string][] = [
    [['--env', 'production'], {}, missing],
    [[], { TESSERA_ENV: 'production' }, missing],
    [['--env', 'production', '--master-key', 'short'], {}, short],
  ]
  for (const [args, env, prefix] of production) {
    const res = run(args, env)
    t.equal(res.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: exit 2`)
    t.ok(res.stderr.startsWith(prefix), 'message')
    t.match(res.stderr.trim().slice(prefix.length), /^[A-Za-z0-9_-]{43} <<$/, 'a 32-byte key is suggested')
    t.equal(res.stdout, '', 'did not start')
  }
})

t.test('environment variables configure the server; flags win', async (t) => {
  const server = await serverFor(t, { env: { TESSERA_HTTP_PAYLOAD_SIZE_LIMIT: '100B' } })
  const res = await call(`${server.url}/indexes`, { method: 'POST', json: { uid: 'x'.repeat(100) } })
  t.equal(res.status, 413)
  t.equal(res.body.message, 'The provided payload reached the size limit. The maximum accepted payload size is 100 B.')
  const flagged = await serverFor(t, { env: { TESSERA_HTTP_PAYLOAD_SIZE_LIMIT: '100B' }, args: ['--http-payload-size-limit', '10KiB'] })
  const ok = await call(`${flagged.url}/indexes`, { method: 'POST', json: { uid: 'x'.repeat(100) } })
  t.equal(ok.status, 202, 'the flag wins over the environment')
  const big = await call(`${flagged.url}/indexes`, { method: 'POST', json: { uid: 'x'.repeat(20000) } })
  t.equal(big.body.message, 'The provided payload reached the size limit. The maximum accepted payload size is 10 KiB.')
  const production = await serverFor(t, { env: { TESSERA_ENV: 'production', TESSERA_MASTER_KEY: 'a-master-key-of-16-bytes' } })
  t.equal((await call(`${production.url}/health`)).status, 200, 'production starts with a long enough key')
})

t.test('the log has a line per request at INFO', async (t) => {
  for (const adapter of ['uws', 'node'] as const) {
    const server = await serverFor(t, { adapter, args: ['--log-level', 'INFO'] })
    await call(`${server.url}/health`)
    await call(`${server.url}/indexes/missing?x=1`)
    await call(`${server.url}/indexes`, { method: 'POST', json: { uid: 'logged' } })
    await new Promise((r) => setTimeout(r, 100))
    const logs = server.logs()
    t.match(logs, /^\d{4}-\d\d-\d\dT\S+Z INFO  GET \/health 200 \d+\.\d\dms$/m, `${adapter}: health line`)
    t.match(logs, /^\S+ INFO  GET \/indexes\/missing\?x=1 404 \d+\.\d\dms$/m, `${adapter}: query string and error status`)
    t.match(logs, /^\S+ INFO  POST \/indexes 202 \d+\.\d\dms$/m, `${adapter}: POST`)
    const quiet = await atWarn[adapter]
    await call(`${quiet.url}/health`)
    await new Promise((r) => setTimeout(r, 50))
    t.notMatch(quiet.logs(), /GET \/health/, `${adapter}: no request lines at WARN`)
  }
})

/**
 * SIGTERM, then exit code 0. Seen ending by a signal (code null) twice under load, in CI, not reproduced in 55
 * tries at a load of 2-4: if it happens again, say which signal, with the end of what the server wrote.
 */
async function stopsCleanly(t: Test, server: TestServer, label: string): Promise<void> {
  const code = await server.stop()
  if (code !== 0) t.comment(`${label}: stopped by ${server.proc.signalCode}; stderr:\n${server.logs().slice(-4000)}`)
  t.equal(code, 0, label)
}

t.test('SIGTERM shuts down gracefully and a restart sees the same state', async (t) => {
  for (const adapter of ['uws', 'node'] as const) {
    const dbPath = tempDir()
    t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
    const first = await startServer({ dbPath, adapter, args: ['--log-level', 'INFO'] })
    const a = await call(`${first.url}/indexes`, { method: 'POST', json: { uid: 'kept', primaryKey: 'id' } })
    await waitTask(first.url, a.body.taskUid)
    const b = await call(`${first.url}/indexes`, { method: 'POST', json: { uid: 'also' } })
    await waitTask(first.url, b.body.taskUid)
    const tasksBefore = (await call(`${first.url}/tasks`)).body
    const indexesBefore = (await call(`${first.url}/indexes`)).body
    await stopsCleanly(t, first, `${adapter}: exit code 0`)
    t.match(first.logs(), /SIGTERM received: shutting down/)
    const second = await startServer({ dbPath, adapter })
    t.teardown(() => second.stop())
    t.same((await call(`${second.url}/indexes`)).body, indexesBefore, 'same indexes')
    t.same((await call(`${second.url}/tasks`)).body, tasksBefore, 'same tasks')
    const c = await call(`${second.url}/indexes`, { method: 'POST', json: { uid: 'after' } })
    t.equal(c.body.taskUid, 2, 'task uids continue')
    t.equal((await waitTask(second.url, c.body.taskUid)).status, 'succeeded')
    await stopsCleanly(t, second, `${adapter}: exit code 0 after a restart`)
  }
})

t.test('the start-up log warns about a short master key, not about a good one (a missing one: test/http/keys/keys-api.test.ts)', async (t) => {
  const short = await serverFor(t, { args: ['--master-key', 'short', '--log-level', 'WARN'] })
  t.match(short.logs(), /WARN {2}Tessera started with a master key considered unsafe for use in a production environment\./)
  t.equal((await call(`${short.url}/indexes`)).status, 401, 'and the key is enforced')
  const good = await serverFor(t, { args: ['--master-key', 'a-master-key-of-16-bytes', '--log-level', 'WARN'] })
  t.notMatch(good.logs(), /master key/)
  t.equal((await call(`${good.url}/indexes`)).status, 401, 'routes need a key')
  t.equal((await call(`${good.url}/indexes`, { headers: { authorization: 'Bearer a-master-key-of-16-bytes' } })).status, 200)
})
