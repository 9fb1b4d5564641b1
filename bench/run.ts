/**
 * `npm run bench` / `tessera bench`: the benchmark suite (issues 2 to 6). Scenarios, chosen with `--only`, each
 * against its own server process and fresh data directory (or `--url` for search, tasks and sweeps):
 * - `register`, `cancel`, `health` (both HTTP adapters): durable task registration (`POST /indexes`, and
 *   `POST /tasks/cancel?uids=999999999`, which creates nothing) and `GET /health`; after the registration windows,
 *   `GET /tasks?limit=1` must count every acknowledged task, live and after SIGKILL and a restart;
 * - `documents`: payload acceptance and indexing throughput for JSON, NDJSON and CSV (documents.ts);
 * - `tasks`: one-document tasks, mixed document and settings tasks, settings-driven reindex times (tasks.ts);
 * - `search`: indexing, size on disk, latency, QPS at 1–64 clients, and the peers (search.ts, peers.ts);
 * - `facets`: filtered, faceted and sorted search (facets.ts);
 * - `sweeps`: maxTotalHits and searchCutoffMs (sweeps.ts).
 * The first four write bench/results/foundation.json and .md; the others a JSON and Markdown report of their own
 * (with SVG charts, charts.ts), each figure the median of `--repeat` runs (repeat.ts). `--help` lists the options.
 */
import { closeSync, existsSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { runLoad, type ClientKind, type Reply, type RequestSpec } from './load.js'
import {
  SCENARIO_TITLES, computeRatios, computeTarget, machineInfo, writeResults,
  type BenchReport, type DurabilityCheck, type FsyncProbe, type ScenarioKind, type ScenarioResult,
} from './report.js'
import { computeSearchTargets, writeFacetsResults, writeSearchResults, type DocumentsReport, type SearchReport } from './report.js'
import { ROOT, startServer, systemBusyMs, type Adapter, type BenchServer } from './server.js'
import {
  DEFAULT_DOCUMENTS_OPTIONS, DOCUMENTS_RUN_TITLES, DOCUMENTS_SERVER_ARGS, documentsRunKinds, runDocuments,
  type DocumentsOptions, type DocumentsRunResult,
} from './documents.js'
import { DEFAULT_SEARCH_OPTIONS, quickSearchOptions, runSearch, type SearchOptions } from './search.js'
import { PEERS, installedPeers } from './peers.js'
import { DEFAULT_FACETS_OPTIONS, facetsFailures, quickFacetsOptions, runFacets, type FacetsOptions } from './facets.js'
import { DEFAULT_TASKS_OPTIONS, quickTasksOptions, renderTasksMarkdown, runTasks, tasksFailures, tasksSeries, type TasksOptions } from './tasks.js'
import { DEFAULT_SWEEPS_OPTIONS, quickSweepsOptions, renderSweepsMarkdown, runSweeps, sweepsFailures, sweepsSeries, type SweepsOptions } from './sweeps.js'
import { openTarget, type Target } from './target.js'
import { progress } from './progress.js'
import { versionTag, writeReportWithCharts } from './report.js'
import type { ChartSpec } from './charts.js'
import { medianResult, noise, spreadOf } from './repeat.js'

type RunKind = ScenarioKind | 'documents' | 'search' | 'facets' | 'tasks' | 'sweeps'
const ALL_KINDS = ['register', 'cancel', 'health', 'documents', 'tasks', 'search', 'facets', 'sweeps'] as const
/** Scenarios that write their own report (not foundation.json). */
const OWN_REPORT: readonly RunKind[] = ['search', 'facets', 'tasks', 'sweeps']
const LOAD_KINDS = ['register', 'cancel', 'health'] as const
/** Scenarios that can measure a server given with `--url`. */
const REMOTE_KINDS: readonly RunKind[] = ['search', 'tasks', 'sweeps']

interface Options {
  durationSeconds: number
  warmupSeconds: number
  connections: number
  maxRequests: number
  kinds: RunKind[]
  adapters: Adapter[]
  client: ClientKind
  restartCheck: boolean
  dataDir: string
  outDir: string
  documents: DocumentsOptions
  search: SearchOptions
  facets: FacetsOptions
  tasks: TasksOptions
  sweeps: SweepsOptions
  /** Runs of each of the search, facets, tasks and sweeps scenarios; their reports give the medians. */
  repeat: number
  /** `--url`: an already running server for the HTTP scenarios; null: fresh servers of this build. */
  url: string | null
  /** `--api-key`: the key that server wants. */
  apiKey: string | null
}

const USAGE = `Usage: npm run bench -- [options]   (or, installed: tessera bench [options])
  --duration S          measurement window per scenario, seconds (default 5)
  --warmup S            warm-up before each window, seconds (default 1)
  --connections N       concurrent keep-alive connections, one request in flight each (default 64)
  --max-requests N      end a window early after N successful requests (default 200000)
  --only LIST           scenarios, comma-separated: register, cancel, health, documents, tasks, search,
                        facets, sweeps (default all); \`embeddings\` is reserved for the vectors work
  --adapters LIST       HTTP adapters, comma-separated: uws, node (default both)
  --client raw|node     load generator: minimal node:net client (default) or node:http Agent
  --no-restart-check    skip the SIGKILL + restart durability check after registration scenarios
  --data-dir DIR        parent of the servers' temporary data directories (default the OS temp dir)
  --out DIR             where to write foundation.json/.md and search.json/.md (default bench/results)
  --docs N              documents scenario: documents in the generated corpus (default 100000)
  --large               documents scenario: also ingest a large NDJSON corpus, streamed while generated
  --large-docs N        documents in that large corpus (default 500000)
  --quick               the whole suite in under 3 minutes on 2 cores: 2 s load windows (0.5 s warm-up);
                        documents and search scenarios: 20,000 generated documents,
                        2 rounds, 2 s QPS windows; facets scenario: 20,000 documents, 5 rounds;
                        tasks and sweeps scenarios: their smaller corpora and task counts
  --dataset FILE        search scenario: a real corpus instead of the generated one: JSON array, NDJSON
                        (.ndjson/.jsonl), CSV or TSV, optionally gzipped (.gz); \`id\` = row number if absent
  --searchable LIST     search scenario: searchableAttributes (default: inferred from the corpus)
  --search-docs N       search scenario: documents of the generated corpus (default 100000)
  --queries N           search scenario: queries in the seeded mix (default 500)
  --rounds N            search scenario: measured rounds over the mix, HTTP and in process (default 5)
  --search-connections N  search scenario: concurrent clients of the headline QPS window (default 16)
  --qps-clients LIST    search scenario: client counts of the QPS windows, comma-separated (default 1,4,16,64)
  --search-duration S   search scenario: QPS window, seconds (default 15; 5 with --quick)
  --server-cpu-prof DIR search scenario: run the server with --cpu-prof, profile written to DIR
  --peers LIST          search scenario: peers on the same documents and queries, comma-separated:
                        flexsearch, minisearch, orama, sqlite-fts5 (default all)
  --no-peers            search scenario: no peers
  --facet-docs N        facets scenario: documents of its generated corpus (default 200000)
  --facet-rounds N      facets scenario: measured passes over each case's variants (default 20)
  --repeat N            runs of each search, facets, tasks and sweeps scenario (default 3; 1 with --quick):
                        reports show the median of every figure, JSON also its min and max, and the
                        run-to-run noise of the headline figures
  --url URL             run the HTTP scenarios (search, tasks, sweeps) against an already running server
                        (Tessera or any Meilisearch-compatible engine; --api-key KEY for one with a key) instead of a
                        fresh one of this build: its indexes are left alone (the bench's own have unique
                        uids and are deleted afterwards); process, memory and disk figures are not measured`

class UsageError extends Error {}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    durationSeconds: 5,
    warmupSeconds: 1,
    connections: 64,
    maxRequests: 200_000,
    kinds: [...ALL_KINDS],
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
    repeat: 3,
    url: null,
    apiKey: null,
  }
  const facetOverrides: Partial<FacetsOptions> = {}
  // Explicit search flags apply after --quick, whatever their order.
  const searchOverrides: Partial<SearchOptions> = {}
  let quick = false
  let onlyGiven = false
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
        // The slot the vectors work fills: embedding throughput (REST, hosted, local model), with generate.ts's vectors.
        if (v.split(',').map((k) => k.trim()).includes('embeddings')) throw new UsageError('--only embeddings: the embedding throughput scenario comes with the vectors and embedders work; not available yet')
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
      case 'facet-docs': facetOverrides.documents = positive(flag, value(), true); break
      case 'facet-rounds': facetOverrides.rounds = positive(flag, value(), true); break
      default: throw new UsageError(`unknown argument \`${arg}\``)
    }
  }
  if (quick) {
    // The whole suite in under 3 minutes on 2 cores: shorter windows and smaller corpora, unless given.
    if (!given.has('duration')) options.durationSeconds = 2
    if (!given.has('warmup')) options.warmupSeconds = 0.5
    if (!given.has('docs')) options.documents.documents = 20_000
    if (!given.has('repeat')) options.repeat = 1
    options.search = quickSearchOptions(options.search)
    options.facets = quickFacetsOptions(options.facets)
    options.tasks = quickTasksOptions(options.tasks)
    options.sweeps = quickSweepsOptions(options.sweeps)
  }
  options.facets = { ...options.facets, ...facetOverrides }
  const dataset = searchOverrides.dataset
  if (typeof dataset === 'string' && !existsSync(dataset)) throw new UsageError(`--dataset: no such file \`${dataset}\``)
  if (typeof searchOverrides.serverCpuProfDir === 'string') searchOverrides.serverCpuProfDir = resolve(searchOverrides.serverCpuProfDir)
  if (options.apiKey !== null && options.url === null) throw new UsageError('--api-key goes with --url (a server of this build runs without a key)')
  options.search = { ...options.search, ...searchOverrides, url: options.url, apiKey: options.apiKey }
  // Peers not installed (a production install): left out by default, an error when asked for by name.
  const { installed, missing } = installedPeers(options.search.peers)
  if (missing.length > 0) {
    if (searchOverrides.peers !== undefined) throw new UsageError(`--peers: not installed: ${missing.join(', ')} (they are development dependencies: npm install in a checkout)`)
    process.stderr.write(`bench: peers not installed, left out: ${missing.join(', ')}\n`)
    options.search.peers = installed
  }
  if (options.url !== null) {
    const local = options.kinds.filter((k) => !REMOTE_KINDS.includes(k))
    if (onlyGiven && local.length > 0) throw new UsageError(`--url: ${local.join(', ')} need a server of this build (they restart it or read its process); with --url, choose among ${REMOTE_KINDS.join(', ')}`)
    options.kinds = options.kinds.filter((k) => REMOTE_KINDS.includes(k))
    options.search.peers = []
  }
  return options
}

interface ScenarioSpec {
  request(seq: number): RequestSpec
  expectStatus: number
  label: string
  /** Registrations are checked against GET /tasks afterwards. */
  registers: boolean
}

function scenarioSpec(kind: ScenarioKind, adapter: Adapter): ScenarioSpec {
  switch (kind) {
    case 'register':
      // Index uids are unique across the run: the scenario id, then the request's sequence number.
      return { request: (seq) => ({ method: 'POST', path: '/indexes', body: `{"uid":"bench-${adapter}-${seq}"}` }), expectStatus: 202, label: 'POST /indexes', registers: true }
    case 'cancel':
      return { request: () => ({ method: 'POST', path: '/tasks/cancel?uids=999999999' }), expectStatus: 200, label: 'POST /tasks/cancel?uids=999999999', registers: true }
    case 'health':
      return { request: () => ({ method: 'GET', path: '/health' }), expectStatus: 200, label: 'GET /health', registers: false }
  }
}

/** `total` of `GET /tasks?limit=1`, or null (with the reason) if it cannot be read. */
async function taskTotal(server: BenchServer): Promise<{ total: number | null; error?: string }> {
  try {
    const res = await fetch(`${server.url}/tasks?limit=1`, { signal: AbortSignal.timeout(30_000) })
    const body = (await res.json()) as { total?: unknown }
    if (res.status !== 200 || typeof body.total !== 'number') return { total: null, error: `GET /tasks answered ${res.status}` }
    return { total: body.total }
  } catch (err) {
    return { total: null, error: `GET /tasks failed: ${(err as Error).message}` }
  }
}

async function checkDurability(server: BenchServer, acknowledged: number, restart: boolean): Promise<{ check: DurabilityCheck; server: BenchServer }> {
  const live = await taskTotal(server)
  let totalAfterRestart: number | null = null
  let note = live.error
  if (restart) {
    // A crash, not a graceful shutdown: whatever was acknowledged must already be on disk.
    await server.kill9()
    server = await startServer({ adapter: server.adapter, dbPath: server.dbPath })
    const after = await taskTotal(server)
    totalAfterRestart = after.total
    if (after.error) note = [note, `after restart: ${after.error}`].filter(Boolean).join('; ')
  }
  const totals = [live.total, totalAfterRestart].filter((t): t is number => t !== null)
  const consistent = totals.length > 0 && (live.total !== null) && totals.every((t) => t >= acknowledged)
  return { check: { acknowledged, totalLive: live.total, totalAfterRestart, consistent, ...(note ? { note } : {}) }, server }
}

/** The server's stderr, minus the expected start-up warning, last 20 lines; undefined if nothing is left. */
function unexpectedLogs(logs: string): string | undefined {
  const lines = logs.split('\n').filter((l) => l.trim() && !l.includes('no master key is set'))
  return lines.length > 0 ? lines.slice(-20).join('\n') : undefined
}

/** The filesystem type holding `path` (from /proc/mounts, longest matching mount point), or 'unknown'. */
function filesystemOf(path: string): string {
  try {
    let best = { mount: '', type: 'unknown' }
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [, mount, type] = line.split(' ')
      if (!mount || !type) continue
      const inside = path === mount || path.startsWith(mount.endsWith('/') ? mount : mount + '/')
      if (inside && mount.length > best.mount.length) best = { mount, type }
    }
    return best.type
  } catch {
    return 'unknown'
  }
}

/**
 * Latency of an append + fdatasync in `dir` (what every group commit pays, in RocksDB's write-ahead log), for up
 * to `count` appends or `maxMs`: durable registration throughput is bounded by it, and on virtual disks it
 * drifts from run to run.
 */
function probeFsync(dir: string, count = 300, maxMs = 1000): FsyncProbe {
  const file = join(dir, 'fsync-probe')
  const fd = openSync(file, 'a')
  const block = Buffer.alloc(512, 0x61)
  const samples: number[] = []
  const start = performance.now()
  try {
    while (samples.length < count && performance.now() - start < maxMs) {
      const t = performance.now()
      writeSync(fd, block)
      fdatasyncSync(fd)
      samples.push(performance.now() - t)
    }
  } finally {
    closeSync(fd)
    rmSync(file, { force: true })
  }
  samples.sort((a, b) => a - b)
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil(p * samples.length) - 1)]!
  return { count: samples.length, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: samples.reduce((a, b) => a + b, 0) / samples.length }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * Other sessions may share the machine (builds, test suites). Before a scenario, wait while the machine is busy
 * (more than `threshold` % of one core over a 300 ms sample), at most `maxMs`. Returns the time waited.
 */
async function waitForQuiet(maxMs: number, threshold = 15): Promise<number> {
  const start = performance.now()
  while (performance.now() - start < maxMs) {
    const before = systemBusyMs()
    const t = performance.now()
    await sleep(300)
    const after = systemBusyMs()
    if (before === null || after === null) break
    if ((100 * (after - before)) / (performance.now() - t) <= threshold) break
  }
  return performance.now() - start
}

/** Waits before scenarios: at most 5 s each and 20 s per run, to stay within the run's time budget. */
class QuietBudget {
  private used = 0

  async wait(): Promise<void> {
    const waited = await waitForQuiet(Math.min(5000, Math.max(0, 20_000 - this.used)))
    this.used += waited
    if (waited > 1000) process.stderr.write(`bench: waited ${(waited / 1000).toFixed(1)} s for other processes to quieten\n`)
  }
}

async function runScenario(kind: ScenarioKind, adapter: Adapter, options: Options, dataParent: string): Promise<ScenarioResult> {
  const spec = scenarioSpec(kind, adapter)
  const dbPath = mkdtempSync(join(dataParent, `${kind}-${adapter}-`))
  let server = await startServer({ adapter, dbPath })
  try {
    const load = await runLoad({
      host: server.host,
      port: server.port,
      connections: options.connections,
      warmupMs: options.warmupSeconds * 1000,
      durationMs: options.durationSeconds * 1000,
      maxRequests: options.maxRequests,
      client: options.client,
      request: spec.request,
      ok: (reply: Reply) => reply.status === spec.expectStatus,
      serverPid: server.pid,
    })
    const result: ScenarioResult = { id: `${kind}-${adapter}`, kind, adapter, request: spec.label, load }
    if (spec.registers) {
      const checked = await checkDurability(server, load.acknowledged, options.restartCheck)
      server = checked.server
      result.durability = checked.check
    }
    const logs = unexpectedLogs(server.logs())
    if (logs) result.serverLogTail = logs
    return result
  } finally {
    await server.stop({ keepData: true })
    rmSync(dbPath, { recursive: true, force: true })
  }
}

/**
 * The documents scenario: each run (JSON, NDJSON, CSV, concurrent NDJSON, and the large NDJSON with --large)
 * against its own fresh uws server and data directory. A failed run is reported, not thrown.
 */
async function runDocumentsScenario(options: Options, dataParent: string, quiet: QuietBudget): Promise<DocumentsReport> {
  const started = performance.now()
  const runs: DocumentsRunResult[] = []
  const adapter: Adapter = 'uws'
  const kinds = documentsRunKinds(options.documents)
  const bar = progress(`documents, ${kinds.length} payload runs`, kinds.length)
  for (const [k, kind] of kinds.entries()) {
    await quiet.wait()
    bar.update(k, DOCUMENTS_RUN_TITLES[kind])
    const dbPath = mkdtempSync(join(dataParent, `documents-${kind}-`))
    const server = await startServer({ adapter, dbPath, args: DOCUMENTS_SERVER_ARGS })
    let result: DocumentsRunResult
    try {
      result = await runDocuments(kind, server, options.documents, dataParent)
      const logs = unexpectedLogs(server.logs())
      if (logs) result.serverLogTail = logs
      if (!server.isRunning()) result = { ...result, ok: false, error: `the server exited${result.error ? `; ${result.error}` : ''}` }
    } finally {
      await server.stop({ keepData: true })
      rmSync(dbPath, { recursive: true, force: true })
    }
    const r = result
    const f = (n: number | null, d = 1) => (n === null ? 'n/a' : n.toFixed(d))
    const title = `bench: documents, ${DOCUMENTS_RUN_TITLES[kind]}:`
    if (r.ok) {
      bar.log(`${title} ${(r.bytes / 1e6).toFixed(1)} MB accepted in ${f(r.acceptSeconds, 2)} s (${f(r.acceptMBps)} MB/s), indexed in ${f(r.indexSeconds, 2)} s (${Math.round(r.indexDocsPerSecond ?? 0)} docs/s), end to end ${Math.round(r.endToEndDocsPerSecond ?? 0)} docs/s, peak RSS ${f(r.memory.hwmMiB)} MiB`)
    } else {
      bar.log(`${title} FAILED: ${r.error}`)
      if (r.serverLogTail) bar.log(`bench: server log tail:\n${r.serverLogTail}`)
    }
    bar.update(k + 1)
    runs.push(result)
  }
  bar.done()
  return { adapter, serverArgs: DOCUMENTS_SERVER_ARGS, options: options.documents, runs, totalSeconds: (performance.now() - started) / 1000 }
}

/** A scenario with a report of its own (tasks, sweeps): its result, Markdown, failures and charts. */
interface OwnScenario<R> {
  name: 'tasks' | 'sweeps'
  title: string
  run(open: (part: string) => Promise<Target>): Promise<R>
  markdown(result: R): string
  failures(result: R): string[]
  charts(result: R): Record<string, ChartSpec>
  /** The headline figures whose run-to-run spread the report states. */
  noise: Record<string, (result: R) => number | null | undefined>
}

/** `run` `count` times, one after the other (each run starts from scratch: its own server and data). */
async function repeatRuns<R>(name: string, count: number, run: () => Promise<R>): Promise<R[]> {
  const runs: R[] = []
  for (let k = 0; k < count; k++) {
    if (count > 1) process.stderr.write(`bench: ${name}, run ${k + 1} of ${count}\n`)
    runs.push(await run())
  }
  return runs
}

/** `repeatRuns`, each run with a data directory of its own under `parent`, removed after it. */
function repeatInFreshDirs<R>(name: string, count: number, parent: string, run: (dbPath: string) => Promise<R>): Promise<R[]> {
  return repeatRuns(name, count, async () => {
    const dbPath = mkdtempSync(join(parent, `${name}-`))
    try {
      return await run(dbPath)
    } finally {
      rmSync(dbPath, { recursive: true, force: true })
    }
  })
}

/** The report line that says how figures were aggregated over runs, and how noisy they were. */
function repeatLine(runs: number, name: string, spread: ReturnType<typeof noise>): string {
  if (runs < 2) return 'Figures of one run (`--repeat N` for medians of N runs).'
  const worst = spread.map((s) => `${s.figure} ±${(s.spreadPercent / 2).toFixed(0)} % (${s.min.toFixed(s.median < 10 ? 2 : 0)}–${s.max.toFixed(s.median < 10 ? 2 : 0)})`).join(', ')
  return `Every figure is the median of ${runs} runs (each run: its own fresh server and warm-up); min, median and max of every figure are in ${name}.json. Run-to-run noise (half the max − min range over the median): ${worst || 'n/a'}.`
}

/**
 * Run `scenario` (against fresh servers of this build, or the `--url` server) and write `<out>/<name>.json` and
 * `<name>.md` with its charts. Returns the Markdown and the failures (a scenario that threw is one failure).
 */
async function runOwnScenario<R>(scenario: OwnScenario<R>, options: Options, dataParent: string, common: { date: string; machine: BenchReport['machine']; filesystem: string }): Promise<{ markdown: string; failures: string[]; json: string; md: string }> {
  const started = performance.now()
  const remote = options.url === null ? null : { url: options.url, apiKey: options.apiKey }
  let runs: R[]
  try {
    runs = await repeatRuns(scenario.name, options.repeat, () => scenario.run((part) => openTarget(remote, dataParent, `${scenario.name}-${part}`)))
  } catch (err) {
    return { markdown: `# ${scenario.title}\n\nFAILED: ${(err as Error).message}\n`, failures: [(err as Error).message], json: '', md: '' }
  }
  const result = medianResult(runs)
  const spread = noise(runs, scenario.noise)
  const header = [
    `# ${scenario.title}`, '',
    `${common.date} · ${common.machine.cpus} × ${common.machine.cpuModel} · Node ${common.machine.node} · ${common.machine.platform} ${common.machine.release} (${common.machine.arch})${versionTag(common.machine)}${options.url ? ` · server ${options.url} (--url)` : ` · fresh servers of this build, data on ${common.filesystem}`}`, '',
    repeatLine(runs.length, scenario.name, spread), '',
  ].join('\n')
  const report = { benchmark: scenario.name, issue: 6, date: common.date, machine: common.machine, url: options.url, repeats: runs.length, result, spread: spreadOf(runs), noise: spread, runs, totalSeconds: (performance.now() - started) / 1000 }
  const written = await writeReportWithCharts(options.outDir, scenario.name, report, `${header}\n${scenario.markdown(result)}`, scenario.charts(result))
  return { markdown: written.markdown, failures: scenario.failures(result), json: written.json, md: written.md }
}

function tasksScenario(options: Options): OwnScenario<Awaited<ReturnType<typeof runTasks>>> {
  return {
    name: 'tasks', title: 'Tessera task throughput benchmark (issue 6)',
    run: (open) => runTasks(options.tasks, open),
    markdown: renderTasksMarkdown, failures: tasksFailures,
    noise: {
      'one-document tasks/s': (r) => r.oneDoc.processingTasksPerSecond,
      'mixed tasks/s': (r) => r.mixed.tasksPerSecond,
    },
    charts: (r) => ({ 'tasks-reindex': { title: 'Settings-driven reindex time (s)', kind: 'bar', rows: tasksSeries(r).reindex, x: { field: 'change', title: 'settings change' }, y: { field: 'seconds', title: 'seconds to succeeded' } } }),
  }
}

function sweepsScenario(options: Options): OwnScenario<Awaited<ReturnType<typeof runSweeps>>> {
  return {
    name: 'sweeps', title: 'Tessera maxTotalHits and searchCutoffMs sweeps (issue 6)',
    run: (open) => runSweeps(options.sweeps, open),
    markdown: renderSweepsMarkdown, failures: sweepsFailures,
    noise: {
      'indexing docs/s': (r) => r.indexing.docsPerSecond,
      'frequent word first page p50 ms (largest maxTotalHits)': (r) => [...r.maxTotalHitsRows].reverse().find((row) => row.request === 'word-first')?.roundTripMs?.p50,
    },
    charts: (r) => {
      const series = sweepsSeries(r)
      return {
        'sweeps-max-total-hits': { title: 'Round-trip p50 by maxTotalHits (ms)', kind: 'line', rows: series.maxTotalHits, x: { field: 'maxTotalHits', title: 'pagination.maxTotalHits', log: true }, y: { field: 'p50Ms', title: 'p50 ms' }, series: 'request' },
        'sweeps-cutoff-latency': { title: 'Round-trip p50 by searchCutoffMs (ms)', kind: 'line', rows: series.cutoff, x: { field: 'cutoffMs', title: 'searchCutoffMs', log: true }, y: { field: 'p50Ms', title: 'p50 ms' }, series: 'query' },
        'sweeps-cutoff-completeness': { title: 'Top-20 completeness by searchCutoffMs', kind: 'line', rows: series.cutoff, x: { field: 'cutoffMs', title: 'searchCutoffMs', log: true }, y: { field: 'completeness', title: 'share of the uncut top 20' }, series: 'query' },
      }
    },
  }
}

async function main(): Promise<void> {
  let options: Options
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (err) {
    if (err instanceof UsageError) { process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`); process.exit(2) }
    throw err
  }
  const started = performance.now()
  const date = new Date().toISOString()
  const machine = machineInfo()
  // All of the run's data directories live under one parent, removed at the end whatever happens.
  const dataParent = mkdtempSync(join(options.dataDir, 'tessera-bench-'))
  const filesystem = filesystemOf(dataParent)
  const scenarios: ScenarioResult[] = []
  let fsyncProbe: FsyncProbe | null = null
  const quiet = new QuietBudget()
  let documents: DocumentsReport | null = null
  let search: { report: SearchReport; written: { json: string; md: string; markdown: string } } | null = null
  let facets: { json: string; md: string; markdown: string } | null = null
  let facetsFailed: string[] = []
  const own: Array<{ markdown: string; failures: string[]; json: string; md: string }> = []
  try {
    if (options.kinds.some((k) => k !== 'health' && !OWN_REPORT.includes(k))) {
      fsyncProbe = probeFsync(dataParent)
      process.stderr.write(`bench: append + fdatasync on ${filesystem}: p50 ${fsyncProbe.p50Ms.toFixed(2)} ms, p99 ${fsyncProbe.p99Ms.toFixed(2)} ms\n`)
    }
    // Both adapters of a scenario run back to back, so that their ratio compares like with like.
    for (const kind of LOAD_KINDS.filter((k) => options.kinds.includes(k))) {
      for (const adapter of options.adapters) {
        await quiet.wait()
        const windowSeconds = options.warmupSeconds + options.durationSeconds
        const bar = progress(`${SCENARIO_TITLES[kind]} on ${adapter}`, windowSeconds)
        const t = performance.now()
        const timer = setInterval(() => bar.update((performance.now() - t) / 1000), 250)
        let result: ScenarioResult
        try {
          result = await runScenario(kind, adapter, options, dataParent)
        } finally {
          clearInterval(timer)
        }
        const l = result.load
        bar.done(`${Math.round(l.requestsPerSecond)} req/s, p99 ${l.latencyMs.p99.toFixed(1)} ms, ${l.errors} errors${result.durability ? `, durability ${result.durability.consistent ? 'ok' : 'INCONSISTENT'}` : ''}`)
        scenarios.push(result)
      }
    }
    if (options.kinds.includes('documents')) documents = await runDocumentsScenario(options, dataParent, quiet)
    if (options.kinds.includes('tasks')) {
      await quiet.wait()
      own.push(await runOwnScenario(tasksScenario(options), options, dataParent, { date, machine, filesystem }))
    }
    if (options.kinds.includes('search')) {
      await quiet.wait()
      const searchStarted = performance.now()
      const runs = await repeatInFreshDirs('search', options.repeat, dataParent, (dbPath) => runSearch(options.search, dbPath))
      const result = medianResult(runs)
      const searchNoise = noise(runs, {
        'indexing docs/s': (r) => r.indexing.docsPerSecond,
        'in-process p50 ms': (r) => r.inProcess.ms?.p50,
        'in-process p99 ms': (r) => r.inProcess.ms?.p99,
        [`QPS at ${options.search.connections} clients`]: (r) => r.qps?.requestsPerSecond,
        'peak RSS MiB': (r) => r.memory.hwmMiB,
      })
      const report: SearchReport = {
        benchmark: 'search', issue: 4, date, machine, storage: { dataDir: options.dataDir, filesystem }, search: result,
        targets: computeSearchTargets(result),
        notes: [
          `The load generator runs on the same ${machine.cpus} cores as the server: QPS is a lower bound for this machine, and the round trip includes the client's own event loop.`,
          'processingTimeMs is the server\'s own figure, an integer number of ms (p50 0 means under 1 ms for at least half of the searches); the round trip and the in-process times are measured with performance.now().',
          'Peak RSS is the server process\'s VmHWM (the kernel\'s high-water mark, all threads, start-up included) at the end of the HTTP part (indexing, latency rounds and QPS window).',
          repeatLine(runs.length, 'search', searchNoise),
        ],
        repeats: runs.length, spread: spreadOf(runs), noise: searchNoise,
        totalSeconds: (performance.now() - searchStarted) / 1000,
      }
      search = { report, written: await writeSearchResults(options.outDir, report) }
    }
    if (options.kinds.includes('facets')) {
      await quiet.wait()
      const facetsStarted = performance.now()
      const runs = await repeatInFreshDirs('facets', options.repeat, dataParent, (dbPath) => runFacets(options.facets, dbPath))
      const result = medianResult(runs)
      facets = writeFacetsResults(options.outDir, { benchmark: 'facets', issue: 5, date, machine, storage: { dataDir: options.dataDir, filesystem }, facets: result, repeats: runs.length, spread: spreadOf(runs), totalSeconds: (performance.now() - facetsStarted) / 1000 })
      facetsFailed = facetsFailures(result)
    }
    if (options.kinds.includes('sweeps')) {
      await quiet.wait()
      own.push(await runOwnScenario(sweepsScenario(options), options, dataParent, { date, machine, filesystem }))
    }
  } finally {
    rmSync(dataParent, { recursive: true, force: true })
  }

  for (const o of own) {
    process.stdout.write('\n' + o.markdown)
    if (o.json) process.stderr.write(`bench: wrote ${o.json} and ${o.md}\n`)
    if (o.failures.length > 0) {
      process.stderr.write(`bench: SCENARIO FAILED: ${o.failures.join(' | ')}\n`)
      process.exitCode = 1
    }
  }
  if (facets) {
    process.stdout.write('\n' + facets.markdown)
    process.stderr.write(`bench: wrote ${facets.json} and ${facets.md}\n`)
    if (facetsFailed.length > 0) {
      process.stderr.write(`bench: FACETS SCENARIO FAILED: ${facetsFailed.join(' | ')}\n`)
      process.exitCode = 1
    }
  }
  if (search) {
    process.stdout.write('\n' + search.written.markdown)
    process.stderr.write(`bench: wrote ${search.written.json} and ${search.written.md}\n`)
    const s = search.report.search
    const failures = [
      ...(s.indexing.ok ? [] : [`indexing: ${s.indexing.error}`]),
      ...(s.latency && !s.latency.ok ? [`latency: ${s.latency.error ?? 'no successful search'}`] : []),
      ...(s.qps && (s.qps.errors > 0 || s.qps.ok === 0) ? [`QPS window: ${s.qps.errors} errors`] : []),
      ...(s.inProcess.note?.startsWith('failed') ? [`in process: ${s.inProcess.note}`] : []),
      ...s.peers.filter((p) => !p.ok).map((p) => `peer ${p.peer}: ${p.error}`),
    ]
    if (failures.length > 0) {
      process.stderr.write(`bench: SEARCH SCENARIO FAILED: ${failures.join(' | ')}\n`)
      process.exitCode = 1
    }
  }
  // The foundation report covers the other scenarios; a run of only search and facets leaves it as it was.
  if (options.kinds.every((k) => OWN_REPORT.includes(k))) return

  const loadKinds = LOAD_KINDS.filter((k) => options.kinds.includes(k))
  const notes = loadKinds.length === 0 ? [] : [
    `The load generator is JavaScript running on the same ${machine.cpus} cores as the server, so it competes for CPU (see Client CPU): the absolute figures are lower bounds for this machine. The meaningful comparison is between adapters measured in this same run (the uws / node ratios).`,
    'Server CPU and Client CPU are CPU time over the window in % of one core, all threads included (event loop, libuv pool, RocksDB, worker pool), from /proc and process.cpuUsage(); Other CPU is every other process of the machine (from /proc/stat), which should be near 0 % for undisturbed figures.',
    `Registration is durable: the server answers only once the task is fsynced (group commit), so its throughput follows the disk's fsync latency, which on a virtual disk drifts between runs (see the fsync probe); compare registration figures across runs with that in mind. The scheduler also processes the registered tasks during the window (creating the indexes for POST /indexes), on the same cores.`,
    'p50/p99 are closed-loop latencies of the successful requests of the window (nearest rank), from write to the last byte of the reply.',
  ]
  const foundationKinds = options.kinds.filter((k) => !OWN_REPORT.includes(k))
  if (foundationKinds.length < 4 || (loadKinds.length > 0 && options.adapters.length < 2)) {
    notes.push(`Partial run: scenarios ${foundationKinds.join(', ')}${loadKinds.length > 0 ? `; adapters ${options.adapters.join(', ')}` : ''}.`)
  }
  if (scenarios.some((s) => s.serverLogTail)) notes.push('Some servers logged warnings or errors: see serverLogTail in foundation.json.')

  const report: BenchReport = {
    benchmark: 'foundation',
    issue: 2,
    date,
    machine,
    storage: { dataDir: options.dataDir, filesystem, fsyncProbe },
    settings: {
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      maxRequests: options.maxRequests,
      client: options.client,
      restartCheck: options.restartCheck,
    },
    scenarios,
    documents,
    ratios: computeRatios(scenarios),
    target: computeTarget(scenarios),
    notes,
    totalSeconds: (performance.now() - started) / 1000,
  }
  const written = writeResults(options.outDir, report)
  process.stdout.write('\n' + written.markdown)
  process.stderr.write(`bench: wrote ${written.json} and ${written.md}\n`)
  // A failed durability check is a failed run.
  if (scenarios.some((s) => s.durability && !s.durability.consistent)) process.exitCode = 1
  // So is a failed documents run (an error, a failed task, a wrong document count or content).
  const failedDocuments = documents?.runs.filter((r) => !r.ok) ?? []
  if (failedDocuments.length > 0) {
    process.stderr.write(`bench: DOCUMENTS SCENARIO FAILED: ${failedDocuments.map((r) => `${r.id}: ${r.error}`).join(' | ')}\n`)
    process.exitCode = 1
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})
