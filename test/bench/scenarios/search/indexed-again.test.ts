/**
 * The search scenario indexes its documents a second time on the same server, after the searches, into an index of
 * its own that it deletes afterwards (the rate a server that has been running gets), and reports it beside the
 * first, fresh-server figure. A small run end to end through `tessera bench`.
 */
import t from 'tap'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../../../src/version.js'
import { nodeSync, tempDir } from '../../../helpers/server.js'

const BIN = join(PACKAGE_ROOT, 'bin', 'tessera.js')

t.test('a second indexing of the same documents, on the warm server, is measured and reported', async (t) => {
  const out = tempDir('tessera-bench-again-')
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const run = nodeSync([BIN, 'bench', '--only', 'search', '--quick', '--search-docs', '600', '--queries', '20', '--rounds', '1',
    '--qps-clients', '1', '--search-connections', '1', '--search-duration', '0.3', '--no-peers', '--out', out], { timeout: 300_000 })
  t.equal(run.status, 0, run.stderr.slice(-2000))
  const { search } = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'))
  t.equal(search.indexing.numberOfDocuments, 600)
  t.equal(search.indexedAgain.ok, true, search.indexedAgain.error ?? 'ok')
  t.equal(search.indexedAgain.numberOfDocuments, 600, 'every document indexed again')
  t.ok(search.indexedAgain.docsPerSecond > 0)
  t.match(readFileSync(join(out, 'search.md'), 'utf8'), /Indexed again, the same documents into a second index of the same server .*: \*\*[\d,]+ docs\/s\*\*\. The table's figure is the first indexing/)
  t.match(run.stderr + run.stdout, /indexing the 600 documents again, into a second index … [\d.]+ s, \d+ docs\/s/)
})
