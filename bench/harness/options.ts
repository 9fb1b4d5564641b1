/**
 * The bench's command line: every option with its default, `--quick`'s smaller sizes (explicit values win, whatever
 * their order), and the checks that turn a bad option into a usage error (exit code 2) before anything runs.
 */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { resolveCorpus } from '../data/corpora/registry.js'
import { PEERS, installedPeers, peerInstall } from '../peers/peers.js'
import { DEFAULT_DOCUMENTS_OPTIONS, quickDocumentsOptions, type DocumentsOptions } from '../scenarios/documents/options.js'
import { DEFAULT_FACETS_OPTIONS, quickFacetsOptions, type FacetsOptions } from '../scenarios/facets/run.js'
import type { LoadSettings } from '../scenarios/foundation/index.js'
import { DEFAULT_SEARCH_OPTIONS, quickSearchOptions, type SearchOptions } from '../scenarios/search/options.js'
import { DEFAULT_SWEEPS_OPTIONS, quickSweepsOptions, type SweepsOptions } from '../scenarios/sweeps/options.js'
import { DEFAULT_CONCURRENCY_OPTIONS, quickConcurrencyOptions, type ConcurrencyOptions } from '../scenarios/concurrency/options.js'
import { DEFAULT_TASKS_OPTIONS, quickTasksOptions, type TasksOptions } from '../scenarios/tasks/options.js'
import { DEFAULT_VECTORS_OPTIONS, quickVectorsOptions, type VectorsOptions } from '../scenarios/vectors/options.js'
import { DEFAULT_CLUSTER_OPTIONS, quickClusterOptions, type ClusterBenchOptions } from '../scenarios/cluster/options.js'
import { DEFAULT_EMBEDDINGS_OPTIONS, quickEmbeddingsOptions, type EmbeddingsOptions } from '../scenarios/embeddings/options.js'
import { ROOT, type Adapter } from './server.js'

export type RunKind = 'register' | 'cancel' | 'health' | 'documents' | 'search' | 'facets' | 'tasks' | 'sweeps' | 'concurrency' | 'vectors' | 'embeddings' | 'cluster'
export const ALL_KINDS = ['register', 'cancel', 'health', 'documents', 'tasks', 'search', 'facets', 'sweeps', 'concurrency', 'vectors', 'embeddings', 'cluster'] as const
/** Run only when named with --only (they need nats-server, and start several servers). */
const ONLY_WHEN_NAMED: readonly RunKind[] = ['cluster']
/** Scenarios that write their own report (not foundation.json). */
export const OWN_REPORT: readonly RunKind[] = ['search', 'facets', 'tasks', 'sweeps', 'concurrency', 'vectors', 'embeddings', 'cluster']
/** Scenarios that can measure a server given with `--url`. */
export const REMOTE_KINDS: readonly RunKind[] = ['search', 'tasks', 'sweeps']

export interface Options extends LoadSettings {
  kinds: RunKind[]
  adapters: Adapter[]
  dataDir: string
  outDir: string
  documents: DocumentsOptions
  search: SearchOptions
  facets: FacetsOptions
  tasks: TasksOptions
  sweeps: SweepsOptions
  concurrency: ConcurrencyOptions
  vectors: VectorsOptions
  cluster: ClusterBenchOptions
  embeddings: EmbeddingsOptions
  /** Runs of each of the search, facets, tasks and sweeps scenarios; their reports give the medians. */
  repeat: number
  /** `--url`: an already running server for the HTTP scenarios; null: fresh servers of this build. */
  url: string | null
  /** `--api-key`: the key that server wants. */
  apiKey: string | null
}

export const USAGE = `Usage: npm run bench -- [options]   (or, installed: tessera bench [options])
  --duration S          measurement window per scenario, seconds (default 5)
  --warmup S            warm-up before each window, seconds (default 1)
  --connections N       concurrent keep-alive connections, one request in flight each (default 64)
  --max-requests N      end a window early after N successful requests (default 200000)
  --only LIST           scenarios, comma-separated: register, cancel, health, documents, tasks, search,
                        facets, sweeps, concurrency, vectors, embeddings (default all)
                        and cluster, run only when named (a single node, then 1 and 3 nodes in cluster mode
                        over nats-server; see README, Cluster)
  --vectors N           vectors scenario: generated 384-dimension vectors (default 100000; --quick 2000)
  --vector-queries N    vectors scenario: queries, plain and filtered (default 1000; --quick 50)
  --embed-docs N        embeddings scenario: documents embedded through a rest embedder (default 50000; --quick 5000)
  --adapters LIST       HTTP adapters, comma-separated: uws, node (default both; --quick uws)
  --client raw|node     load generator: minimal node:net client (default) or node:http Agent
  --no-restart-check    skip the SIGKILL + restart durability check after registration scenarios
  --data-dir DIR        parent of the servers' temporary data directories (default the OS temp dir)
  --out DIR             where to write foundation.json/.md and search.json/.md (default bench/results)
  --docs N              documents scenario: documents in the generated corpus (default 100000)
  --large               documents scenario: also ingest a large NDJSON corpus, streamed while generated
  --large-docs N        documents in that large corpus (default 500000)
  --quick               the whole suite in about 2.5 minutes on 2 cores: 1 s load windows (0.25 s warm-up), on uws;
                        documents scenario: 10,000 generated documents; search scenario: 10,000, 200
                        queries, 2 rounds, 2 s QPS windows at 1 and 16 clients; facets scenario: 20,000
                        documents, 5 rounds;
                        tasks and sweeps scenarios: their smaller corpora and task counts
  --dataset FILE        search scenario: a real corpus instead of the generated one: JSON array, NDJSON
                        (.ndjson/.jsonl), CSV or TSV, optionally gzipped (.gz); \`id\` = row number if absent
  --corpus NAME         search scenario: a real corpus built by \`npm run corpora\` (bench/corpora/): gcide,
                        manpages, spamassassin; or npm (../shared/data/npm-packages.tsv.gz, where it exists)
  --searchable LIST     search scenario: searchableAttributes (default: the corpus's own, or inferred)
  --search-docs N       search scenario: documents of the generated corpus (default 100000)
  --queries N           search scenario: queries in the seeded mix (default 500)
  --rounds N            search scenario: measured rounds over the mix, HTTP and in process (default 5)
  --search-connections N  search scenario: concurrent clients of the headline QPS window (default 16)
  --qps-clients LIST    search scenario: client counts of the QPS windows, comma-separated (default 1,4,16,64)
  --search-duration S   search scenario: QPS window, seconds (default 15; 2 with --quick)
  --server-cpu-prof DIR search scenario: run the server with --cpu-prof, profile written to DIR
  --peers LIST          search scenario: peers on the same documents and queries, comma-separated:
                        flexsearch, minisearch, orama, sqlite-fts5 (default all; with sqlite-fts5, the documents
                        scenario's short-documents run is compared with FTS5 too)
  --no-peers            search scenario: no peers (documents scenario: no FTS5 comparison)
  --ingest-corpus NAME  concurrency scenario: what another index ingests while the small one is searched: a corpus
                        of \`npm run corpora\` (gcide, manpages, spamassassin) or generated (default gcide;
                        --quick generated, 30,000 documents)
  --facet-docs N        facets scenario: documents of its generated corpus (default 200000)
  --facet-rounds N      facets scenario: measured passes over each case's variants (default 20)
  --repeat N            runs of each search, facets, tasks and sweeps scenario (default 3; 1 with --quick):
                        reports show the median of every figure, JSON also its min and max, and the
                        run-to-run noise of the headline figures
  --url URL             run the HTTP scenarios (search, tasks, sweeps) against an already running server
                        (Tessera or any Meilisearch-compatible engine; --api-key KEY for one with a key) instead of a
                        fresh one of this build: its indexes are left alone (the bench's own have unique
                        uids and are deleted afterwards); process, memory and disk figures are not measured`

export class UsageError extends Error {}

export function parseOptions(argv: string[]): Options {
  const options: Options = {
    durationSeconds: 5,
    warmupSeconds: 1,
    connections: 64,
    maxRequests: 200_000,
    kinds: ALL_KINDS.filter((k) => !ONLY_WHEN_NAMED.includes(k)),
    adapters: ['uws', 'node'],
    client: 'raw',
    restartCheck: true,
    dataDir: tmpdir(),
    outDir: join(ROOT, 'bench', 'results'),
    documents: { ...DEFAULT_DOCUMENTS_OPTIONS },
    search: { ...DEFAULT_SEARCH_OPTIONS },
    facets: { ...DEFAULT_FACETS_OPTIONS },
    tasks: { ...DEFAULT_TASKS_OPTIONS },
    sweeps: { ...DEFAULT_SWEEPS_OPTIONS },
    concurrency: { ...DEFAULT_CONCURRENCY_OPTIONS },
    vectors: { ...DEFAULT_VECTORS_OPTIONS },
    embeddings: { ...DEFAULT_EMBEDDINGS_OPTIONS },
    cluster: { ...DEFAULT_CLUSTER_OPTIONS },
    repeat: 3,
    url: null,
    apiKey: null,
  }
  const facetOverrides: Partial<FacetsOptions> = {}
  const vectorOverrides: Partial<VectorsOptions> = {}
  const embeddingOverrides: Partial<EmbeddingsOptions> = {}
  // Explicit search flags apply after --quick, whatever their order.
  const searchOverrides: Partial<SearchOptions> = {}
  let quick = false
  let onlyGiven = false
  let corpus: ReturnType<typeof resolveCorpus> | null = null
  /** Flags given on the command line (explicit values win over --quick's). */
  const given = new Set<string>()
  const list = <T extends string>(flag: string, text: string, allowed: readonly T[]): T[] => {
    const items = text.split(',').map((s) => s.trim()).filter(Boolean)
    const bad = items.find((s) => !(allowed as readonly string[]).includes(s))
    if (bad !== undefined || items.length === 0) throw new UsageError(`--${flag}: expected a comma-separated list of ${allowed.join(', ')}, got \`${text}\``)
    return [...new Set(items)] as T[]
  }
  const positive = (flag: string, text: string, integer: boolean): number => {
    const n = Number(text)
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new UsageError(`--${flag}: expected a positive ${integer ? 'whole ' : ''}number, got \`${text}\``)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') { process.stdout.write(USAGE + '\n'); process.exit(0) }
    if (arg === '--no-restart-check') { options.restartCheck = false; continue }
    if (arg === '--large') { options.documents.large = true; continue }
    if (arg === '--quick') { quick = true; continue }
    if (arg === '--no-peers') { searchOverrides.peers = []; continue }
    const eq = arg.indexOf('=')
    const flag = arg.startsWith('--') ? (eq > 0 ? arg.slice(2, eq) : arg.slice(2)) : ''
    given.add(flag)
    const value = (): string => {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i]
      if (v === undefined) throw new UsageError(`--${flag} needs a value`)
      return v
    }
    switch (flag) {
      case 'duration': options.durationSeconds = positive(flag, value(), false); break
      // A zero warm-up is allowed.
      case 'warmup': { const v = value(); options.warmupSeconds = v === '0' ? 0 : positive(flag, v, false); break }
      case 'connections': options.connections = positive(flag, value(), true); break
      case 'max-requests': options.maxRequests = positive(flag, value(), true); break
      case 'only': {
        const v = value()
        options.kinds = list(flag, v, ALL_KINDS)
        onlyGiven = true
        break
      }
      case 'adapters': case 'adapter': options.adapters = list(flag, value(), ['uws', 'node'] as const); break
      case 'client': options.client = list(flag, value(), ['raw', 'node'] as const)[0]!; break
      case 'data-dir': options.dataDir = value(); break
      case 'out': options.outDir = value(); break
      case 'docs': options.documents.documents = positive(flag, value(), true); break
      case 'large-docs': options.documents.largeDocuments = positive(flag, value(), true); break
      case 'dataset': searchOverrides.dataset = value(); break
      case 'corpus': {
        try {
          corpus = resolveCorpus(value())
        } catch (err) {
          throw new UsageError(`--corpus: ${(err as Error).message}`)
        }
        break
      }
      case 'searchable': searchOverrides.searchable = value().split(',').map((s) => s.trim()).filter(Boolean); break
      case 'search-docs': searchOverrides.generatedDocuments = positive(flag, value(), true); break
      case 'queries': searchOverrides.queries = positive(flag, value(), true); break
      case 'rounds': { const n = positive(flag, value(), true); searchOverrides.rounds = n; searchOverrides.inProcessRounds = n; break }
      case 'search-connections': searchOverrides.connections = positive(flag, value(), true); break
      case 'repeat': options.repeat = positive(flag, value(), true); break
      case 'qps-clients': searchOverrides.qpsClients = value().split(',').map((c) => positive(flag, c.trim(), true)); break
      case 'api-key': options.apiKey = value(); break
      case 'url': {
        const v = value()
        if (!/^http:\/\/[^/]+\/?$/.test(v)) throw new UsageError(`--url: expected http://HOST:PORT, got \`${v}\``)
        options.url = v.replace(/\/$/, '')
        break
      }
      case 'search-duration': searchOverrides.qpsSeconds = positive(flag, value(), false); break
      case 'server-cpu-prof': searchOverrides.serverCpuProfDir = value(); break
      case 'peers': searchOverrides.peers = list(flag, value(), PEERS); break
      case 'ingest-corpus': {
        const name = value()
        options.concurrency.ingestCorpus = name === 'generated' ? null : name
        break
      }
      case 'facet-docs': facetOverrides.documents = positive(flag, value(), true); break
      case 'facet-rounds': facetOverrides.rounds = positive(flag, value(), true); break
      case 'vectors': vectorOverrides.count = positive(flag, value(), true); break
      case 'vector-queries': vectorOverrides.queries = positive(flag, value(), true); break
      case 'embed-docs': embeddingOverrides.documents = positive(flag, value(), true); break
      default: throw new UsageError(`unknown argument \`${arg}\``)
    }
  }
  if (quick) {
    // The whole suite in about 2.5 minutes on 2 cores: shorter windows and smaller corpora, unless given.
    if (!given.has('duration')) options.durationSeconds = 1
    if (!given.has('warmup')) options.warmupSeconds = 0.25
    // The registration windows on uws alone (the node adapter's own tests are in the suite): 11 s of CI less.
    if (!given.has('adapters') && !given.has('adapter')) options.adapters = ['uws']
    options.documents = quickDocumentsOptions(options.documents, given.has('docs'))
    if (!given.has('repeat')) options.repeat = 1
    options.search = quickSearchOptions(options.search)
    options.facets = quickFacetsOptions(options.facets)
    options.tasks = quickTasksOptions(options.tasks)
    options.sweeps = quickSweepsOptions(options.sweeps)
    if (!given.has('ingest-corpus')) options.concurrency = quickConcurrencyOptions(options.concurrency)
    options.vectors = quickVectorsOptions()
    options.embeddings = quickEmbeddingsOptions()
    options.cluster = quickClusterOptions()
  }
  options.facets = { ...options.facets, ...facetOverrides }
  options.vectors = { ...options.vectors, ...vectorOverrides }
  options.embeddings = { ...options.embeddings, ...embeddingOverrides }
  if (corpus !== null) {
    if (searchOverrides.dataset !== undefined) throw new UsageError('--corpus and --dataset: give one of them')
    searchOverrides.dataset = corpus.path
    if (searchOverrides.searchable === undefined && corpus.searchable !== null) searchOverrides.searchable = corpus.searchable
  }
  const dataset = searchOverrides.dataset
  if (typeof dataset === 'string' && !existsSync(dataset)) throw new UsageError(`--dataset: no such file \`${dataset}\``)
  if (typeof searchOverrides.serverCpuProfDir === 'string') searchOverrides.serverCpuProfDir = resolve(searchOverrides.serverCpuProfDir)
  if (options.apiKey !== null && options.url === null) throw new UsageError('--api-key goes with --url (a server of this build runs without a key)')
  options.search = { ...options.search, ...searchOverrides, url: options.url, apiKey: options.apiKey }
  if (options.url !== null) {
    const local = options.kinds.filter((k) => !REMOTE_KINDS.includes(k))
    if (onlyGiven && local.length > 0) throw new UsageError(`--url: ${local.join(', ')} need a server of this build (they restart it or read its process); with --url, choose among ${REMOTE_KINDS.join(', ')}`)
    options.kinds = options.kinds.filter((k) => REMOTE_KINDS.includes(k))
    options.search.peers = []
  }
  // Peers not installed: left out by default (saying how to install them), an error when asked for by name.
  const { installed, missing } = installedPeers(options.search.peers)
  if (missing.length > 0) {
    const how = missing.map((peer) => `${peer} (${peerInstall(peer)})`).join(', ')
    if (searchOverrides.peers !== undefined) throw new UsageError(`--peers: not installed: ${how}`)
    process.stderr.write(`bench: peers not installed, left out: ${how}\n`)
    options.search.peers = installed
  }
  options.documents.compareFts5 = options.search.peers.includes('sqlite-fts5')
  return options
}
