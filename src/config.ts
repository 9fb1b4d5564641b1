/**
 * Configuration: every option is a CLI flag named as Meilisearch names it, and an environment variable
 * `TESSERA_<NAME>` (upper snake case). Flags win over the environment, which wins over the defaults.
 */
import { randomBytes } from 'node:crypto'
import { availableParallelism, totalmem } from 'node:os'
import { join } from 'node:path'
import type { EmbedderRuntime } from '../engine/embedders/index.js'
import { parseAllowedIpNetworks } from '../engine/embedders/ip-policy.js'
import { LOG_LEVELS, type LogLevel } from './log.js'
import type { ClusterOptions } from '../engine/cluster/index.js'

export interface Config {
  dbPath: string
  httpAddr: { host: string; port: number }
  masterKey: string | null
  env: 'development' | 'production'
  maxIndexingThreads: number
  /** Threads that run keyword and facet searches (`--search-threads`); 0: searches run on the HTTP thread. */
  searchThreads: number
  /** Searches that may wait for a search thread before one is refused with 503 (`--experimental-search-queue-size`). */
  searchQueueSize: number
  httpPayloadSizeLimit: number
  logLevel: LogLevel
  httpAdapter: 'uws' | 'node'
  /** Area A's auth config module (`--config`): collections, secret, email. Null: one `users` collection. */
  authConfigPath: string | null
  /** Bytes the indexing may use (Meilisearch's `--max-indexing-memory`): a batch takes at most half of it in payloads. */
  maxIndexingMemory: number
  /** Payload bytes one batch takes at most (default: half the indexing memory, at most 10 GiB). */
  batchedTasksTotalSize: number
  /** Tasks one batch takes at most. */
  maxBatchedTasks: number
  /** Serve the search preview page at `/` (off in production, and with `--no-preview`). */
  preview: boolean
  /** Test hook (env `TESSERA_TEST_BATCH_GATE` only): while this file exists, each batch waits in `processing`. */
  testBatchGate: string | null
  /** Test hook (env `TESSERA_TEST_NETWORK_ANSWER_GATE` only): while this file exists, a `PATCH /network` answer waits. */
  testNetworkAnswerGate: string | null
  /**
   * Test hooks (env `TESSERA_TEST_SEARCH_THREAD_GATE` and `TESSERA_TEST_SEARCH_THREAD_EXIT` only): a file while which
   * search threads hold before each search; a query text whose keyword search makes its thread exit mid-search.
   */
  testSearchThreadGate: string | null
  testSearchThreadExit: string | null
  /** Diagnostic (env `TESSERA_MEMORY_LOG_MS` only): log the process's memory (RSS, V8 heap, external) this often. */
  memoryLogMs: number
  /** Diagnostic (env `TESSERA_SEARCH_THREAD_READS=0` only): search threads ask the HTTP thread for documents. */
  searchThreadReads: boolean
  /** Diagnostic (env `TESSERA_ROCKSDB_LOG=info` only): RocksDB writes its flush and compaction events to `db/LOG`. */
  storageLog: 'error' | 'info'
  /**
   * What embedders are built with: `--models-dir`, `--experimental-allowed-ip-networks`,
   * `--experimental-rest-embedder-timeout-seconds`, `--experimental-embedding-cache-entries`.
   */
  embedders: EmbedderRuntime
  /**
   * Vector search tuning (env only): `TESSERA_VECTOR_EF`, the HNSW search breadth (default 200), and
   * `TESSERA_VECTOR_RESCORING`, the binary quantized rescoring depth as a multiple of the hits asked for (default 50).
   */
  vectorSearch: { ef?: number; rescoring?: number }
  /**
   * How long the remotes of a federated search may take (env `TESSERA_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`
   * only, as Meilisearch's `MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`; default 25 s, fractions allowed).
   */
  remoteSearchTimeoutMs: number
  /** Where `POST /dumps` writes `<dumpUid>.dump`. */
  dumpDir: string
  /** A dump to build the database from at start (only when the database does not exist yet). */
  importDump: string | null
  ignoreMissingDump: boolean
  ignoreDumpIfDbExists: boolean
  /** Where `POST /snapshots` writes `<db-name>.snapshot`. */
  snapshotDir: string
  /** Seconds between scheduled snapshots; null: none. */
  scheduleSnapshot: number | null
  /** A snapshot to start from (only when the database does not exist yet). */
  importSnapshot: string | null
  ignoreMissingSnapshot: boolean
  ignoreSnapshotIfDbExists: boolean
  /** Cluster mode (`--cluster`): the replicated task log's NATS servers and stream, and the read-your-writes bound. Null: a single node. */
  cluster: ClusterConfig | null
}

export interface ClusterConfig extends ClusterOptions {
  /** How long a request naming a task (`X-Tessera-After-Task`) waits for it to be applied here. */
  readWaitMs: number
}

interface OptionSpec {
  flag: string
  value: string
  help: string
  default: string
  /** A switch: given without a value (`--no-preview`) or as `--no-preview=false`; its variable takes true, false, 1 or 0. */
  switch?: true
  /** The value may be left out (`--schedule-snapshot` alone): it is then `true`. */
  optionalValue?: true
}

export const OPTIONS: OptionSpec[] = [
  { flag: 'db-path', value: 'PATH', default: './data.ms', help: 'Directory of the database (RocksDB).' },
  { flag: 'http-addr', value: 'HOST:PORT', default: '127.0.0.1:7700', help: 'Address to listen on. Port 0 picks a free port.' },
  { flag: 'master-key', value: 'KEY', default: '', help: 'Master key. With one, every route but /health needs an API key (Authorization: Bearer <key>); keys are managed on /keys and their values derive from it. Without one, every route is open and /keys is refused.' },
  { flag: 'env', value: 'development|production', default: 'development', help: 'Production refuses to start without a master key of at least 16 bytes; development warns about a missing or short one.' },
  { flag: 'max-indexing-threads', value: 'N', default: 'number of cores', help: 'Threads of the worker pool (parsing, indexing, embedding).' },
  { flag: 'search-threads', value: 'N', default: '2', help: 'Threads that run keyword, placeholder and facet searches on the published index (shared memory), so a slow search does not hold the others; 0 runs searches on the HTTP thread. Semantic and hybrid searches stay on the HTTP thread.' },
  { flag: 'experimental-search-queue-size', value: 'N', default: '1000', help: 'Searches that may wait for a search thread; one more is answered 503 too_many_search_requests.' },
  { flag: 'max-indexing-memory', value: 'SIZE', default: 'two thirds of the memory', help: 'Memory the indexing may use: a batch takes at most half of it in document payloads (as Meilisearch\'s autobatching does).' },
  { flag: 'experimental-limit-batched-tasks-total-size', value: 'SIZE', default: 'half of --max-indexing-memory, at most 10 GiB', help: 'Document payload bytes one batch takes at most (the first task of a batch always goes).' },
  { flag: 'experimental-max-number-of-batched-tasks', value: 'N', default: '10000', help: 'Tasks one batch takes at most.' },
  { flag: 'http-payload-size-limit', value: 'SIZE', default: '100 MB', help: 'Largest accepted request body, e.g. 100MB, 1 GiB, 5000000.' },
  { flag: 'log-level', value: 'LEVEL', default: 'INFO', help: `One of ${LOG_LEVELS.join(', ')}.` },
  { flag: 'http-adapter', value: 'uws|node', default: 'uws', help: 'HTTP server: uWebSockets.js, or node:http (also the fallback where uWS cannot load).' },
  { flag: 'no-preview', value: '', switch: true, default: 'false', help: 'Do not serve the search preview page at / (it is never served with --env production).' },
  { flag: 'models-dir', value: 'PATH', default: '<db-path>/models', help: 'Folder of the local models `huggingFace`/`localHub` embedders run (`<model>/config.json`, `tokenizer.json`, `onnx/model.onnx`). Models are never downloaded.' },
  { flag: 'experimental-allowed-ip-networks', value: 'CIDRS|any', default: 'none', help: 'Loopback, private and link-local networks that embedders (and every outbound request) may reach, comma-separated CIDRs or `any`; other non-global addresses are refused. Checked on the address connected to.' },
  { flag: 'experimental-rest-embedder-timeout-seconds', value: 'N', default: '30', help: 'Timeout of one request to a remote embedder, in seconds.' },
  { flag: 'experimental-embedding-cache-entries', value: 'N', default: '0', help: 'Search query vectors cached per embedder (least recently used evicted); 0 disables the cache.' },
  { flag: 'dump-dir', value: 'DIR', default: 'dumps/', help: 'Directory where POST /dumps writes its dumps (`<dumpUid>.dump`, Meilisearch\'s v6 format).' },
  { flag: 'import-dump', value: 'FILE', default: 'none', help: 'Build the database from this dump (v6, from Meilisearch or Tessera) before starting. Refused when the database already exists.' },
  { flag: 'ignore-missing-dump', value: '', switch: true, default: 'false', help: 'Start without importing when the --import-dump file does not exist (instead of failing).' },
  { flag: 'ignore-dump-if-db-exists', value: '', switch: true, default: 'false', help: 'Start on the existing database, ignoring --import-dump, when the database already exists (instead of failing).' },
  { flag: 'snapshot-dir', value: 'DIR', default: 'snapshots/', help: 'Directory where snapshots are written (`<db-name>.snapshot`, a gzipped tar of the data directory).' },
  { flag: 'schedule-snapshot', value: 'SECONDS', optionalValue: true, default: 'disabled; 86400 when given without a value', help: 'Register a snapshot task every SECONDS seconds (`false` disables it).' },
  { flag: 'import-snapshot', value: 'FILE', default: 'none', help: 'Start from this snapshot (unpacked as the database). Refused when the database already exists.' },
  { flag: 'ignore-missing-snapshot', value: '', switch: true, default: 'false', help: 'Start without importing when the --import-snapshot file does not exist (instead of failing).' },
  { flag: 'ignore-snapshot-if-db-exists', value: '', switch: true, default: 'false', help: 'Start on the existing database, ignoring --import-snapshot, when the database already exists (instead of failing).' },
  { flag: 'cluster', value: '', switch: true, default: 'false', help: 'Cluster mode: tasks are registered through a replicated NATS JetStream log that every node applies to its own database; any node answers reads (see README, Cluster).' },
  { flag: 'cluster-nats', value: 'URLS', default: 'nats://127.0.0.1:4222', help: 'With --cluster: the NATS servers (JetStream enabled) to connect to, comma-separated.' },
  { flag: 'cluster-stream', value: 'NAME', default: 'tessera', help: 'With --cluster: the JetStream stream holding the task log (letters, digits, - and _); every node of one cluster names the same.' },
  { flag: 'cluster-replicas', value: 'N', default: '3 with three or more --cluster-nats servers, else 1', help: 'With --cluster: replicas of the stream and of its payloads bucket, when this node creates them.' },
  { flag: 'cluster-read-timeout-seconds', value: 'N', default: '10', help: 'With --cluster: how long a request with `X-Tessera-After-Task: <uid>` waits for that task to be applied on this node before `task_not_applied`.' },
  { flag: 'config', value: 'FILE', default: 'one `users` collection, development secret', help: 'Auth config module (.js, .mjs, .ts or .json) whose default export sets the secret, collections and email of /api. Production requires one with a secret.' },
]

export class ConfigError extends Error {}

/** The shortest master key production accepts (Meilisearch's `MASTER_KEY_MIN_SIZE`). */
export const MASTER_KEY_MIN_BYTES = 16

/** Meilisearch's suggestion of a fresh master key: 32 random bytes, base64url. */
export function generatedMasterKeyMessage(): string {
  return `We generated a new secure master key for you (you can safely use this token):\n\n>> --master-key ${randomBytes(32).toString('base64url')} <<`
}

const envName = (flag: string) => 'TESSERA_' + flag.toUpperCase().replace(/-/g, '_')

export function helpText(): string {
  const lines = ['Usage: tessera [options]', '       tessera bench [bench options]   (the benchmark suite: tessera bench --help)', '', 'A search engine with a Meilisearch-compatible HTTP API.', '', 'Options:']
  for (const o of OPTIONS) {
    lines.push(o.switch ? `  --${o.flag}` : o.optionalValue ? `  --${o.flag} [<${o.value}>]` : `  --${o.flag} <${o.value}>`)
    lines.push(`      ${o.help}`)
    lines.push(`      [default: ${o.default}] [env: ${envName(o.flag)}]`)
  }
  lines.push('  -h, --help', '      Print this help.', '  -V, --version', '      Print the version.')
  return lines.join('\n')
}

const UNITS: Record<string, number> = {
  b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, k: 1e3, m: 1e6, g: 1e9,
}

export function parseByteSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text)
  const unit = UNITS[(m?.[2] || 'b').toLowerCase()]
  if (!m || unit === undefined) throw new ConfigError(`invalid size \`${text}\`: expected a number of bytes with an optional unit (B, KB, MB, GB, KiB, MiB, GiB)`)
  const bytes = Math.floor(Number(m[1]) * unit)
  if (bytes <= 0) throw new ConfigError(`invalid size \`${text}\`: must be more than 0 bytes`)
  return bytes
}

function parseAddr(text: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(text)
  if (!m || !m[1] || Number(m[2]) > 65535) throw new ConfigError(`invalid --http-addr \`${text}\`: expected HOST:PORT`)
  return { host: m[1].replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) }
}

/** Values a switch takes from the command line (`--no-preview=false`) or its environment variable. */
const SWITCH_VALUES = new Map([['true', true], ['false', false], ['1', true], ['0', false]])

/** A whole-number option: `fallback` when absent, else `text` as an integer of at least `min` (a ConfigError otherwise). */
function wholeNumber<T>(label: string, text: string | undefined, fallback: T, min = 1): number | T {
  if (text === undefined) return fallback
  const n = Number(text)
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`invalid ${label} \`${text}\`: expected a whole number from ${min}`)
  return n
}

function storageLogLevel(text: string | undefined): 'error' | 'info' {
  if (text === undefined || text === '' || text === 'error') return 'error'
  if (text === 'info') return 'info'
  throw new ConfigError(`invalid TESSERA_ROCKSDB_LOG \`${text}\`: expected \`info\` or \`error\``)
}

/** Meilisearch's default interval of scheduled snapshots: a day. */
export const DEFAULT_SNAPSHOT_INTERVAL_SECONDS = 86_400

/** `--schedule-snapshot`: absent or `false` → none; `true` (or no value) → a day; else whole seconds from 1. */
function parseSchedule(text: string | undefined): number | null {
  if (text === undefined || text.toLowerCase() === 'false') return null
  if (text.toLowerCase() === 'true' || text === '') return DEFAULT_SNAPSHOT_INTERVAL_SECONDS
  const seconds = Number(text)
  if (!Number.isInteger(seconds) || seconds < 1) throw new ConfigError(`invalid --schedule-snapshot \`${text}\`: expected a whole number of seconds from 1, true or false`)
  return seconds
}

export type ParsedArgs = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; config: Config }

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  const given = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') return { kind: 'help' }
    if (arg === '-V' || arg === '--version') return { kind: 'version' }
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument \`${arg}\` (see --help)`)
    const eq = arg.indexOf('=')
    const flag = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    const spec = OPTIONS.find((o) => o.flag === flag)
    if (!spec) throw new ConfigError(`unknown option \`--${flag}\` (see --help)`)
    const bare = spec.switch || (spec.optionalValue && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--')))
    let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : bare ? 'true' : argv[++i]
    if (value === undefined) throw new ConfigError(`option \`--${flag}\` needs a value`)
    given.set(flag, value)
  }
  const get = (flag: string): string | undefined => given.get(flag) ?? (env[envName(flag)] || undefined)

  const envValue = get('env') ?? 'development'
  if (envValue !== 'development' && envValue !== 'production') throw new ConfigError(`invalid --env \`${envValue}\`: expected development or production`)
  const logLevel = (get('log-level') ?? 'INFO').toUpperCase()
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError(`invalid --log-level \`${logLevel}\`: expected one of ${LOG_LEVELS.join(', ')}`)
  const adapter = get('http-adapter') ?? 'uws'
  if (adapter !== 'uws' && adapter !== 'node') throw new ConfigError(`invalid --http-adapter \`${adapter}\`: expected uws or node`)
  const threads = wholeNumber('--max-indexing-threads', get('max-indexing-threads'), availableParallelism())
  const searchThreads = wholeNumber('--search-threads', get('search-threads'), 2, 0)
  const searchQueueSize = wholeNumber('--experimental-search-queue-size', get('experimental-search-queue-size'), 1000)
  const masterKey = get('master-key') ?? null
  // An empty key would make `Bearer ` (an empty token) the master key: refused rather than taken as one.
  if (masterKey === '') throw new ConfigError('--master-key cannot be empty: leave it out to run without a master key')
  if (envValue === 'production') {
    if (masterKey === null) {
      throw new ConfigError(`You must provide a master key to secure your instance in a production environment. It can be specified via the TESSERA_MASTER_KEY environment variable or the --master-key launch option.\n\n${generatedMasterKeyMessage()}`)
    }
    const bytes = Buffer.byteLength(masterKey)
    if (bytes < MASTER_KEY_MIN_BYTES) {
      throw new ConfigError(`The master key must be at least ${MASTER_KEY_MIN_BYTES} bytes in a production environment. The provided key is only ${bytes} bytes.\n\n${generatedMasterKeyMessage()}`)
    }
  }
  const memoryText = get('max-indexing-memory')
  const maxIndexingMemory = memoryText === undefined ? Math.floor((totalmem() * 2) / 3) : parseByteSize(memoryText)
  const totalText = get('experimental-limit-batched-tasks-total-size')
  const batchedTasksTotalSize = totalText === undefined ? Math.min(Math.floor(maxIndexingMemory / 2), 10 * 2 ** 30) : parseByteSize(totalText)
  const maxBatchedTasks = wholeNumber('--experimental-max-number-of-batched-tasks', get('experimental-max-number-of-batched-tasks'), 10_000)
  const switchOn = (flag: string): boolean => {
    const on = SWITCH_VALUES.get((get(flag) ?? 'false').toLowerCase())
    if (on === undefined) throw new ConfigError(`invalid --${flag} \`${get(flag)}\`: expected true or false`)
    return on
  }
  const noPreview = switchOn('no-preview')
  const importDump = get('import-dump') ?? null
  const importSnapshot = get('import-snapshot') ?? null
  if (importDump !== null && importSnapshot !== null) throw new ConfigError('--import-dump and --import-snapshot cannot be used together')
  const cluster = switchOn('cluster') ? clusterConfig(get, env) : null
  // A dump renumbers tasks; a snapshot of a cluster node keeps its place in the log (a new node starts from it).
  if (cluster && importDump !== null) throw new ConfigError('--cluster cannot import a dump: a node joins a cluster with an empty database, or a snapshot of a node of the cluster, and catches up from the task log')
  const dbPath = get('db-path') ?? './data.ms'
  // Read by the pool's threads themselves (engine/util/thread-priority.ts); a value they would ignore is refused here.
  const niceness = wholeNumber('TESSERA_BACKGROUND_NICENESS', env.TESSERA_BACKGROUND_NICENESS || undefined, undefined, 0)
  if (niceness !== undefined && niceness > 19) throw new ConfigError(`invalid TESSERA_BACKGROUND_NICENESS \`${niceness}\`: expected a whole number from 0 to 19`)
  const vectorSearch = {
    ef: wholeNumber('TESSERA_VECTOR_EF', env.TESSERA_VECTOR_EF, undefined),
    rescoring: wholeNumber('TESSERA_VECTOR_RESCORING', env.TESSERA_VECTOR_RESCORING, undefined),
  }
  const remoteTimeout = Number(env.TESSERA_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS ?? 25)
  return {
    kind: 'run',
    config: {
      dbPath,
      httpAddr: parseAddr(get('http-addr') ?? '127.0.0.1:7700'),
      masterKey,
      env: envValue,
      maxIndexingThreads: threads,
      searchThreads,
      searchQueueSize,
      httpPayloadSizeLimit: parseByteSize(get('http-payload-size-limit') ?? '100 MB'),
      logLevel: logLevel as LogLevel,
      httpAdapter: adapter,
      authConfigPath: get('config') ?? null,
      maxIndexingMemory,
      batchedTasksTotalSize,
      maxBatchedTasks,
      preview: envValue === 'development' && !noPreview,
      testBatchGate: env.TESSERA_TEST_BATCH_GATE || null,
      testNetworkAnswerGate: env.TESSERA_TEST_NETWORK_ANSWER_GATE || null,
      testSearchThreadGate: env.TESSERA_TEST_SEARCH_THREAD_GATE || null,
      testSearchThreadExit: env.TESSERA_TEST_SEARCH_THREAD_EXIT || null,
      memoryLogMs: wholeNumber('TESSERA_MEMORY_LOG_MS', env.TESSERA_MEMORY_LOG_MS, 0),
      searchThreadReads: env.TESSERA_SEARCH_THREAD_READS !== '0',
      storageLog: storageLogLevel(env.TESSERA_ROCKSDB_LOG),
      embedders: { ...embedderRuntime(get, dbPath), ...queryDeadlines(env) },
      vectorSearch,
      remoteSearchTimeoutMs: Number.isFinite(remoteTimeout) && remoteTimeout > 0 ? remoteTimeout * 1000 : 25_000,
      dumpDir: get('dump-dir') ?? 'dumps/',
      importDump,
      ignoreMissingDump: switchOn('ignore-missing-dump'),
      ignoreDumpIfDbExists: switchOn('ignore-dump-if-db-exists'),
      snapshotDir: get('snapshot-dir') ?? 'snapshots/',
      scheduleSnapshot: parseSchedule(get('schedule-snapshot')),
      importSnapshot,
      ignoreMissingSnapshot: switchOn('ignore-missing-snapshot'),
      ignoreSnapshotIfDbExists: switchOn('ignore-snapshot-if-db-exists'),
      cluster,
    },
  }
}

/** `--cluster`'s options from their flags. */
function clusterConfig(get: (flag: string) => string | undefined, env: Readonly<Record<string, string | undefined>>): ClusterConfig {
  const servers = (get('cluster-nats') ?? 'nats://127.0.0.1:4222').split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (servers.length === 0) throw new ConfigError('invalid --cluster-nats: expected one or more NATS URLs, comma-separated')
  const stream = get('cluster-stream') ?? 'tessera'
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(stream)) throw new ConfigError(`invalid --cluster-stream \`${stream}\`: expected 1 to 64 letters, digits, - or _`)
  const replicas = wholeNumber('--cluster-replicas', get('cluster-replicas'), undefined)
  if (replicas !== undefined && replicas > 5) throw new ConfigError(`invalid --cluster-replicas \`${replicas}\`: JetStream allows at most 5`)
  const readText = get('cluster-read-timeout-seconds')
  const seconds = readText === undefined ? 10 : Number(readText)
  if (!Number.isFinite(seconds) || seconds <= 0) throw new ConfigError(`invalid --cluster-read-timeout-seconds \`${readText}\`: expected a number of seconds above 0`)
  // Env only: how long a write keeps trying the log before `task_log_unavailable` (tests of a lost log need not wait 15 s).
  const publishDeadlineMs = wholeNumber('TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS', env.TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS || undefined, undefined)
  return { servers, stream, replicas, readWaitMs: Math.round(seconds * 1000), ...(publishDeadlineMs === undefined ? {} : { publishDeadlineMs }) }
}

/** The query embedding deadlines (env only; see EmbedderRuntime.queryDeadlinesMs): Meilisearch's when unset. */
function queryDeadlines(env: Readonly<Record<string, string | undefined>>): Pick<EmbedderRuntime, 'queryDeadlinesMs'> {
  const hybrid = wholeNumber('TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS', env.TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS || undefined, undefined)
  const semantic = wholeNumber('TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS', env.TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS || undefined, undefined)
  if (hybrid === undefined && semantic === undefined) return {}
  return { queryDeadlinesMs: { ...(hybrid === undefined ? {} : { hybrid }), ...(semantic === undefined ? {} : { semantic }) } }
}

/** The embedders' options from their flags. */
function embedderRuntime(get: (flag: string) => string | undefined, dbPath: string): EmbedderRuntime {
  const networksText = get('experimental-allowed-ip-networks')
  let allowedIpNetworks: EmbedderRuntime['allowedIpNetworks'] = []
  if (networksText !== undefined) {
    try {
      allowedIpNetworks = parseAllowedIpNetworks(networksText)
    } catch (err) {
      throw new ConfigError(`invalid --experimental-allowed-ip-networks \`${networksText}\`: ${(err as Error).message}`)
    }
  }
  const timeoutText = get('experimental-rest-embedder-timeout-seconds')
  const timeout = timeoutText === undefined ? 30 : Number(timeoutText)
  if (!Number.isFinite(timeout) || timeout <= 0) throw new ConfigError(`invalid --experimental-rest-embedder-timeout-seconds \`${timeoutText}\`: expected a number of seconds above 0`)
  const cache = wholeNumber('--experimental-embedding-cache-entries', get('experimental-embedding-cache-entries'), 0, 0)
  return {
    modelsPath: get('models-dir') ?? join(dbPath, 'models'),
    allowRemoteModels: false,
    allowedIpNetworks,
    requestTimeoutMs: Math.round(timeout * 1000),
    queryCacheEntries: cache,
  }
}
