/**
 * The peers, run as the bench runs them (the compiled child process): FTS5 indexing in batches with no queries (the
 * documents scenario's comparison), and FlexSearch with queries. Needs dist/ (npm test builds it first); FTS5's test
 * needs `npm run peers`.
 */
import t from 'tap'
import { join } from 'node:path'
import { ROOT } from '../../../bench/harness/server.js'
import { tempDir } from '../../helpers/server.js'

type Peers = typeof import('../../../bench/peers/peers.js')
const { runPeers, installedPeers }: Peers = await import(join(ROOT, 'dist', 'bench', 'peers', 'peers.js'))
// better-sqlite3 is installed apart (`npm run peers`, bench/peer-packages/): without it, FTS5's test says so and skips.
const fts5 = installedPeers(['sqlite-fts5']).installed.length === 1

const documents = Array.from({ length: 1000 }, (_, id) => ({ id, name: `pkg-${id}`, summary: id % 2 === 0 ? 'a tiny parser of dates' : 'fast json schema checker' }))

t.test('FTS5 indexes every document in batches, with no query to run', { skip: fts5 ? false : 'better-sqlite3 is not installed (npm run peers)' }, async (t) => {
  const lines: string[] = []
  const [run] = await runPeers({
    peers: ['sqlite-fts5'], documents, searchable: ['name', 'summary'], primaryKey: 'id', queries: [], rounds: 0,
    scratchParent: tempDir('tessera-peers-'), timeoutMs: 60_000, log: (line) => lines.push(line), batchDocuments: 100, scenario: 'documents',
  })
  t.equal(run!.ok, true, run!.error ?? 'ok')
  t.equal(run!.measure!.documents, 1000)
  t.equal(run!.measure!.samples, 0)
  t.ok(run!.measure!.docsPerSecond > 0)
  t.match(lines.join(''), /^bench: documents, peer sqlite-fts5 … \d+ docs\/s, peak RSS \d+ MiB\n$/, 'no search figures without queries')
})

t.test('FlexSearch answers the queries', async (t) => {
  const [run] = await runPeers({
    peers: ['flexsearch'], documents, searchable: ['name', 'summary'], primaryKey: 'id', queries: ['parser', 'json schema', 'nothing'], rounds: 2,
    scratchParent: tempDir('tessera-peers-'), timeoutMs: 60_000, log: () => {},
  })
  t.equal(run!.ok, true, run!.error ?? 'ok')
  t.equal(run!.measure!.samples, 6)
  t.equal(run!.measure!.zeroHits, 1)
  t.equal(run!.measure!.meanReturned, 40 / 3)
})
