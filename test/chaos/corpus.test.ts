/**
 * The fuzz corpus (chaos/corpus/*.json): inputs that once crashed, froze or confused the server, replayed against
 * both adapters. Each must get an answer below 500 (or a closed connection) and leave `/health` answering.
 * A failure the fuzzer finds becomes a file here: `{ issue, method, path, headers, body }` or `{ issue, raw }`.
 */
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, seedIndex, serverFor, ROOT } from '../helpers/server.js'
import { send } from '../../chaos/send.js'
import type { FuzzInput } from '../../chaos/inputs.js'

interface Entry { issue: string; method?: string; path?: string; headers?: Record<string, string>; body?: string; raw?: string }

const dir = join(ROOT, 'chaos', 'corpus')
const corpus = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Entry] as const)

function inputOf(entry: Entry): FuzzInput {
  if (entry.raw !== undefined) return { kind: 'raw', bytes: Buffer.from(entry.raw, 'latin1') }
  return { kind: 'http', method: entry.method!, path: entry.path!, headers: entry.headers ?? {}, body: entry.body === undefined ? undefined : Buffer.from(entry.body) }
}

t.ok(corpus.length > 0, 'the corpus is found')

for (const adapter of ['uws', 'node'] as const) {
  t.test(`corpus replayed on the ${adapter} adapter`, async (t) => {
    const server = await serverFor(t, { adapter })
    await seedIndex(server.url, 'fz0', { filterableAttributes: ['n', 'tag'] }, [{ id: 1, n: 1, tag: 't1', title: 'hello world' }, { id: 2, n: 2, tag: 't2', title: 'indigo' }])
    for (const [file, entry] of corpus) {
      await t.test(`${file}: ${entry.issue}`, async (t) => {
        const outcome = await send(server.port, inputOf(entry))
        t.notOk(outcome.hung, 'answered (or closed) within the bound')
        t.ok(outcome.status === null || outcome.status < 500, `no server error (${outcome.status ?? outcome.note})`)
        t.equal((await call(`${server.url}/health`)).status, 200, '/health answers after it')
        t.ok(server.proc.exitCode === null && server.proc.signalCode === null, 'the server is running')
      })
    }
  })
}
