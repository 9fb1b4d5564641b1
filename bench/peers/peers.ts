/**
 * Peers of the search benchmark (issue 6): FlexSearch, MiniSearch, Orama (in process) and SQLite FTS5 (through
 * better-sqlite3, on disk), each given the same documents, searchable fields and queries as Tessera, each in its
 * own process (peer-child.ts), one after the other. The documents scenario uses FTS5 alone, for indexing only.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import type { LatencySummary } from '../harness/latency.js'
import { ROOT, nodeCommand } from '../harness/server.js'

export const PEERS = ['flexsearch', 'minisearch', 'orama', 'sqlite-fts5'] as const
export type PeerName = (typeof PEERS)[number]

/** What peer-child.ts prints for one peer. */
export interface PeerMeasure {
  peer: PeerName
  version: string
  documents: number
  indexSeconds: number
  docsPerSecond: number
  search: LatencySummary
  /** Searches measured: `rounds` passes over the mix, or fewer once they took over 15 s (at least 100). */
  samples: number
  /** Queries of the warm-up pass, which counts results: the whole mix, or fewer once it took over 15 s (≥ 100). */
  warmupQueries: number
  /** Mean number of results returned (at most 20). */
  meanReturned: number
  /** Queries with no result, over the mix. */
  zeroHits: number
  /** RSS once the corpus is parsed, before indexing; VmHWM at the end. MiB. */
  baselineMiB: number
  peakMiB: number
}

export interface PeerRun {
  peer: PeerName
  ok: boolean
  error?: string
  measure?: PeerMeasure
}

/** What each peer does and does not do, for reading the comparison fairly. */
export const PEER_NOTES: Record<PeerName, string> = {
  flexsearch: 'in memory, no persistence; prefix matching (forward tokenizer), no typo tolerance; scores by term position only',
  minisearch: 'in memory, no persistence; prefix and fuzzy matching (edit distance ≤ 20 % of the word); BM25+',
  orama: 'in memory, no persistence; typo tolerance 1; BM25',
  'sqlite-fts5': 'on disk (WAL, synchronous=NORMAL), persistent; every word must match, the last as a prefix; no typo tolerance; BM25',
}

/**
 * The npm package each peer needs: development dependencies of Tessera, but better-sqlite3, which `npm run peers`
 * installs into PEER_PROJECT.
 */
export const PEER_PACKAGES: Record<PeerName, string> = { flexsearch: 'flexsearch', minisearch: 'minisearch', orama: '@orama/orama', 'sqlite-fts5': 'better-sqlite3' }

/**
 * Where `npm run peers` (scripts/install-peers.sh) installs better-sqlite3: a scratch project of its own, out of git
 * and of Tessera's package.json. On Node 20 it compiles SQLite from source (no prebuilt binary is on the npm
 * registry): 140 s of the 290 s every `npm install`, and so every CI run, took while it was a development dependency.
 */
export const PEER_PROJECT = join(ROOT, 'bench', 'peer-packages')

/** Tessera's own node_modules. */
const TESSERA_MODULES = createRequire(import.meta.url)
/** The peers' scratch project, for the packages `npm run peers` installs there (and no other). */
const PEER_MODULES = createRequire(join(PEER_PROJECT, 'package.json'))
const INSTALLED_APART: ReadonlySet<string> = new Set([PEER_PACKAGES['sqlite-fts5']])

/** How a peer's package is installed. */
export function peerInstall(peer: PeerName): string {
  return INSTALLED_APART.has(PEER_PACKAGES[peer]) ? 'npm run peers' : 'a development dependency: npm install in a checkout'
}

/** The package name of a request (`pkg`, `pkg/file`, `@scope/pkg/file`). */
const packageOf = (request: string): string => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/')

/**
 * The file `request` (a peer package, or a file of one) resolves to: from Tessera's node_modules, then, for
 * better-sqlite3, from the peers' project; throws as require.resolve does.
 */
export function resolvePeer(request: string): string {
  try {
    return TESSERA_MODULES.resolve(request)
  } catch (err) {
    if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND' || !INSTALLED_APART.has(packageOf(request))) throw err
    return PEER_MODULES.resolve(request)
  }
}

/** A CommonJS peer package (better-sqlite3), wherever it is installed. */
export function requirePeer(pkg: string): unknown {
  return TESSERA_MODULES(resolvePeer(pkg))
}

/**
 * A peer's version from its package.json: where it resolves, else read by path in Tessera's node_modules (some
 * packages' `exports` hide their package.json); 'unknown' when neither works.
 */
export function peerVersion(pkg: string): string {
  const read = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
  try {
    return read(resolvePeer(`${pkg}/package.json`))
  } catch {
    try {
      return read(join(ROOT, 'node_modules', pkg, 'package.json'))
    } catch {
      return 'unknown'
    }
  }
}

/**
 * The peers whose package is installed. The peers are development dependencies (FTS5's is `npm run peers`'s):
 * `tessera bench` without them runs without them (and says so) instead of failing.
 */
export function installedPeers(peers: readonly PeerName[]): { installed: PeerName[]; missing: PeerName[] } {
  const installed: PeerName[] = []
  const missing: PeerName[] = []
  for (const peer of peers) {
    try {
      resolvePeer(`${PEER_PACKAGES[peer]}/package.json`)
      installed.push(peer)
    } catch (err) {
      // A package whose `exports` hide package.json is there all the same; only a package not found is missing.
      if ((err as { code?: string }).code === 'MODULE_NOT_FOUND') missing.push(peer)
      else installed.push(peer)
    }
  }
  return { installed, missing }
}

const CHILD = join(fileURLToPath(new URL('.', import.meta.url)), 'peer-child.js')

function runChild(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const node = nodeCommand([CHILD, ...args])
    const child = spawn(node.command, node.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    child.stderr.on('data', (d: Buffer) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

/** How long a peer's search pass may run once it has 100 queries, unless told (`--quick`: 2 s). */
export const DEFAULT_PEER_SEARCH_BUDGET_MS = 15_000

/** Index and query every peer of `peers`; a failed peer is reported, not thrown. */
export async function runPeers(options: {
  peers: readonly PeerName[]
  documents: ReadonlyArray<object>
  searchable: string[]
  primaryKey: string
  queries: string[]
  rounds: number
  scratchParent: string
  timeoutMs: number
  log: (text: string) => void
  /** Documents per `add` call (one transaction for FTS5); 10,000 by default. */
  batchDocuments?: number
  /** The scenario named in the progress lines (`search` by default). */
  scenario?: string
  /** How long a search pass may run once it has 100 queries (DEFAULT_PEER_SEARCH_BUDGET_MS by default). */
  searchBudgetMs?: number
}): Promise<PeerRun[]> {
  const dir = mkdtempSync(join(options.scratchParent, 'peers-'))
  const runs: PeerRun[] = []
  try {
    const corpus = join(dir, 'corpus.ndjson')
    const queries = join(dir, 'queries.json')
    writeFileSync(corpus, options.documents.map((d) => JSON.stringify(d)).join('\n') + '\n')
    writeFileSync(queries, JSON.stringify(options.queries))
    for (const peer of options.peers) {
      options.log(`bench: ${options.scenario ?? 'search'}, peer ${peer} …`)
      const scratch = mkdtempSync(join(dir, `${peer}-`))
      const res = await runChild([peer, corpus, queries, options.searchable.join(','), options.primaryKey, String(options.rounds), scratch, String(options.batchDocuments ?? 10_000), String(options.searchBudgetMs ?? DEFAULT_PEER_SEARCH_BUDGET_MS)], options.timeoutMs)
      rmSync(scratch, { recursive: true, force: true })
      const line = res.stdout.trim().split('\n').pop() ?? ''
      try {
        if (res.code !== 0) throw new Error(`exited with ${res.code}: ${res.stderr.trim().split('\n').slice(-3).join(' | ')}`)
        const measure = JSON.parse(line) as PeerMeasure
        runs.push({ peer, ok: true, measure })
        options.log(` ${Math.round(measure.docsPerSecond)} docs/s, ${measure.samples > 0 ? `search p50 ${measure.search.p50.toFixed(3)} / p99 ${measure.search.p99.toFixed(3)} ms, ` : ''}peak RSS ${measure.peakMiB.toFixed(0)} MiB\n`)
      } catch (err) {
        runs.push({ peer, ok: false, error: (err as Error).message })
        options.log(` FAILED: ${(err as Error).message}\n`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return runs
}
