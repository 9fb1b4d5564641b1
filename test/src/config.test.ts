/** Parsing of the options (no process started): the preview's switch. */
import t from 'tap'
import { ConfigError, helpText, parseArgs } from '../../src/config.js'

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseArgs(argv, env)
  if (parsed.kind !== 'run') throw new Error(parsed.kind)
  return parsed.config
}

t.test('the preview is on in development, off in production and with --no-preview', async (t) => {
  t.equal(run([]).preview, true)
  t.equal(run(['--no-preview']).preview, false, 'a switch: no value')
  t.equal(run(['--no-preview', '--log-level', 'WARN']).preview, false, 'the next argument is not its value')
  t.equal(run(['--no-preview=false']).preview, true)
  t.equal(run(['--no-preview=true']).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: 'true' }).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: '1' }).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: 'FALSE' }).preview, true)
  t.equal(run(['--no-preview=false'], { TESSERA_NO_PREVIEW: 'true' }).preview, true, 'the flag wins')
  t.equal(run(['--env', 'production', '--master-key', 'a-master-key-of-16-bytes']).preview, false, 'never in production')
  t.equal(run(['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--no-preview=false']).preview, false)
})

t.test('bad values', async (t) => {
  t.throws(() => run(['--no-preview=maybe']), new ConfigError('invalid --no-preview `maybe`: expected true or false'))
  t.throws(() => run([], { TESSERA_NO_PREVIEW: 'constructor' }), /invalid --no-preview `constructor`/, 'no prototype keys')
  t.throws(() => run([], { TESSERA_NO_PREVIEW: 'yes please' }), /expected true or false/)
})

t.test('--help shows it as a switch', async (t) => {
  const help = helpText()
  t.match(help, /\n {2}--no-preview\n {6}Do not serve the search preview page at \//)
  t.match(help, /\[env: TESSERA_NO_PREVIEW\]/)
})

t.test('embedder options: models folder, allowed networks, request timeout, query cache', async (t) => {
  const defaults = run(['--db-path', '/data/x.ms']).embedders
  t.same(defaults, { modelsPath: '/data/x.ms/models', allowRemoteModels: false, allowedIpNetworks: [], requestTimeoutMs: 30_000, queryCacheEntries: 0 })
  const given = run(['--models-dir', '/models', '--experimental-allowed-ip-networks', '127.0.0.0/8,::1/128', '--experimental-rest-embedder-timeout-seconds', '2.5', '--experimental-embedding-cache-entries', '100']).embedders
  t.same(given, { modelsPath: '/models', allowRemoteModels: false, allowedIpNetworks: ['127.0.0.0/8', '::1/128'], requestTimeoutMs: 2500, queryCacheEntries: 100 })
  t.equal(run([], { TESSERA_EXPERIMENTAL_ALLOWED_IP_NETWORKS: 'any' }).embedders.allowedIpNetworks, 'any', 'from the environment')
  t.equal(run([], { TESSERA_EXPERIMENTAL_EMBEDDING_CACHE_ENTRIES: '7' }).embedders.queryCacheEntries, 7)
  t.throws(() => run(['--experimental-allowed-ip-networks', '10.0.0.0/99']), /invalid --experimental-allowed-ip-networks `10.0.0.0\/99`/)
  t.throws(() => run(['--experimental-rest-embedder-timeout-seconds', '0']), new ConfigError('invalid --experimental-rest-embedder-timeout-seconds `0`: expected a number of seconds above 0'))
  t.throws(() => run(['--experimental-embedding-cache-entries', '-1']), new ConfigError('invalid --experimental-embedding-cache-entries `-1`: expected a whole number from 0'))
})

t.test('TESSERA_ROCKSDB_LOG: errors only by default, info on demand, anything else refused', async (t) => {
  t.equal(run([]).storageLog, 'error')
  t.equal(run([], { TESSERA_ROCKSDB_LOG: 'info' }).storageLog, 'info')
  t.equal(run([], { TESSERA_ROCKSDB_LOG: 'error' }).storageLog, 'error')
  t.throws(() => run([], { TESSERA_ROCKSDB_LOG: 'debug' }), new ConfigError('invalid TESSERA_ROCKSDB_LOG `debug`: expected `info` or `error`'))
})

t.test('search threads and their queue', async (t) => {
  t.equal(run([]).searchThreads, 2, 'two search threads by default')
  t.equal(run(['--search-threads', '0']).searchThreads, 0, '0: searches on the HTTP thread')
  t.equal(run([], { TESSERA_SEARCH_THREADS: '4' }).searchThreads, 4)
  t.equal(run([]).searchQueueSize, 1000)
  t.equal(run(['--experimental-search-queue-size', '5']).searchQueueSize, 5)
  t.throws(() => run(['--search-threads', '-1']), /invalid --search-threads `-1`/)
  t.throws(() => run(['--experimental-search-queue-size', '0']), /invalid --experimental-search-queue-size `0`/)
  t.match(helpText(), /\[default: 2\] \[env: TESSERA_SEARCH_THREADS\]/)
})

t.test('the query embedding deadlines: Meilisearch\'s unless the environment sets them', async (t) => {
  t.equal(run([]).embedders.queryDeadlinesMs, undefined)
  t.same(run([], { TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS: '1000' }).embedders.queryDeadlinesMs, { hybrid: 1000 })
  t.doesNotThrow(() => run([], { TESSERA_BACKGROUND_NICENESS: '0' }), 'the pool\'s niceness: 0 to 19')
  t.doesNotThrow(() => run([], { TESSERA_BACKGROUND_NICENESS: '19' }))
  t.throws(() => run([], { TESSERA_BACKGROUND_NICENESS: '20' }), { message: 'invalid TESSERA_BACKGROUND_NICENESS `20`: expected a whole number from 0 to 19' })
  t.throws(() => run([], { TESSERA_BACKGROUND_NICENESS: 'low' }), { message: 'invalid TESSERA_BACKGROUND_NICENESS `low`: expected a whole number from 0' })
  t.same(run([], { TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS: '1000', TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS: '1500' }).embedders.queryDeadlinesMs, { hybrid: 1000, semantic: 1500 })
  t.throws(() => run([], { TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS: '0' }), { message: 'invalid TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS `0`: expected a whole number from 1' })
  t.throws(() => run([], { TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS: '1.5' }), { message: /^invalid TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS `1.5`/ })
})
