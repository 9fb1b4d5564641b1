/**
 * What a server loads before its first request: route groups that most servers never use load on first use. The
 * Rhai interpreter (edit by function) loads with the first edition, in the HTTP thread (the route's compile check)
 * and in the pool's threads (the job); the embedders and the HNSW graph builder with their first job in a pool thread;
 * the workflow store with the first workflow API request that passes its checks;
 * the auth collections' endpoints and operations with the first `/api` request. Read in a process of its own through a module loader hook that logs every
 * module it is asked for; importing the modules is enough (their static imports are what loads at start-up).
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeSync, tempDir } from '../helpers/server.js'

const dist = fileURLToPath(new URL('../../', import.meta.url))
const hook = `
import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs'
export async function load(url, context, next) { appendFileSync(process.env.MODULE_LOG, url + '\\\\n'); return next(url, context) }
\`))
`

function loadedBy(entries: string[]): string[] {
  const log = join(tempDir(), 'modules.log')
  const imports = entries.map((e) => `await import(${JSON.stringify(join(dist, e))})`).join('\n')
  const run = nodeSync(['--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', imports], { env: { ...process.env, MODULE_LOG: log } })
  if (run.status !== 0) throw new Error(run.stderr)
  return readFileSync(log, 'utf8').split('\n').filter((u) => u.includes('/dist/')).map((u) => u.slice(u.indexOf('/dist/') + 6))
}

/** What the HTTP thread loads at start-up (the server module's static imports), read once for the tests below. */
const server = loadedBy(['src/server.js'])

t.test('the HTTP thread and the pool threads load no Rhai before an edition', async (t) => {
  t.ok(server.includes('src/routes/documents.js'), `the route table loaded (${server.length} modules)`)
  t.same(server.filter((m) => m.startsWith('engine/rhai/')), [], 'not in the HTTP thread')
  const pool = loadedBy(['workers/job-worker.js'])
  t.ok(pool.includes('engine/pool/jobs.js'), `the jobs loaded (${pool.length} modules)`)
  t.same(pool.filter((m) => m.startsWith('engine/rhai/')), [], 'not in a pool thread')
})

t.test('a pool thread loads the embedders and the graph builder with their first job, not at start-up', async (t) => {
  const pool = loadedBy(['workers/job-worker.js'])
  t.ok(pool.includes('engine/documents/prepare.js'), 'what prepares chunks is loaded')
  t.same(pool.filter((m) => m.startsWith('engine/embedders/') || m === 'engine/vectors/graph-build.js'), [])
})

t.test('the HTTP thread declares the workflow routes without loading the workflow store', async (t) => {
  t.ok(server.includes('src/workflows/routes.js'), 'the routes are declared')
  t.same(server.filter((m) => /^src\/workflows\/(service|db|listing|workflows|tags|projects|cursor)\.js$/.test(m)), [])
})

t.test('the HTTP thread declares the /api routes without loading the auth endpoints', async (t) => {
  t.ok(server.includes('src/auth/rest/api-routes.js'), 'the routes are declared')
  t.ok(server.includes('src/auth/service.js'), 'the service is created at start-up (its config is checked there)')
  t.same(server.filter((m) => /^src\/auth\/(rest\/(routes|endpoints)|operations\/)/.test(m)), [])
})
