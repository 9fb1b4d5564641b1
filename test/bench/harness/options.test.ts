/** `tessera bench`: the installed command runs the benchmark suite's option parser and usage. */
import t from 'tap'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../../src/version.js'
import { nodeSync } from '../../helpers/server.js'

const BIN = join(PACKAGE_ROOT, 'bin', 'tessera.js')

t.test('tessera bench --help prints the suite\'s usage', async (t) => {
  const res = nodeSync([BIN, 'bench', '--help'])
  t.equal(res.status, 0)
  t.match(res.stdout, /^Usage: npm run bench -- \[options\]\s+\(or, installed: tessera bench \[options\]\)/)
  for (const flag of ['--only', '--quick', '--dataset', '--corpus', '--url', '--peers', '--qps-clients']) t.match(res.stdout, `  ${flag} `, `documents ${flag}`)
})

t.test('tessera bench rejects unknown scenarios and flags with exit code 2', async (t) => {
  const bad = nodeSync([BIN, 'bench', '--only', 'nope'])
  t.equal(bad.status, 2)
  t.match(bad.stderr, /^error: --only: expected a comma-separated list of /)
  const flag = nodeSync([BIN, 'bench', '--doggo'])
  t.equal(flag.status, 2)
  t.match(flag.stderr, /^error: unknown argument `--doggo`/)
})

t.test('tessera without bench still runs the service\'s CLI', async (t) => {
  const res = nodeSync([BIN, '--help'])
  t.equal(res.status, 0)
  t.match(res.stdout, /^Usage: tessera \[options\]\n {7}tessera bench \[bench options\]/)
})

t.test('the embeddings scenario is a scenario of its own, run against a server of this build', async (t) => {
  const help = nodeSync([BIN, 'bench', '--help'])
  t.match(help.stdout, /--only LIST .*\n.*vectors, embeddings \(default all\)/)
  t.match(help.stdout, /  --embed-docs N +embeddings scenario/)
  const remote = nodeSync([BIN, 'bench', '--url', 'http://127.0.0.1:9', '--only', 'embeddings'])
  t.equal(remote.status, 2)
  t.match(remote.stderr, /^error: --url: embeddings need a server of this build/)
  const bad = nodeSync([BIN, 'bench', '--only', 'embeddings', '--embed-docs', '0'])
  t.equal(bad.status, 2)
  t.match(bad.stderr, /^error: --embed-docs: expected a positive whole number/)
})

t.test('--url is checked, and refuses scenarios that need a server of this build', async (t) => {
  const bad = nodeSync([BIN, 'bench', '--url', 'https://example.com/x'])
  t.equal(bad.status, 2)
  t.match(bad.stderr, /^error: --url: expected http:\/\/HOST:PORT/)
  const local = nodeSync([BIN, 'bench', '--url', 'http://127.0.0.1:9', '--only', 'search,facets'])
  t.equal(local.status, 2)
  t.match(local.stderr, /^error: --url: facets need a server of this build/)
})

t.test('--corpus takes the name of a corpus `npm run corpora` builds', async (t) => {
  const res = nodeSync([BIN, 'bench', '--only', 'search', '--corpus', 'wiki'])
  t.equal(res.status, 2)
  t.match(res.stderr, /^error: --corpus: unknown corpus `wiki`: expected one of gcide, manpages, spamassassin, npm\n/)
})
