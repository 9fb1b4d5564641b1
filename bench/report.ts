/** Benchmark results: the JSON document and its Markdown rendering, written under bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { PACKAGE_ROOT, VERSION } from '../src/version.js'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { join } from 'node:path'
import type { ClientKind, LatencySummary, LoadResult } from './load.js'
import type { Adapter } from './server.js'
import { DOCUMENTS_RUN_TITLES, type DocumentsOptions, type DocumentsRunResult } from './documents.js'
import type { SearchResult } from './search.js'
import type { FacetsResult } from './facets.js'
import { PEER_NOTES } from './peers.js'
import { chartsMarkdown, type ChartSpec } from './charts.js'

export type ScenarioKind = 'register' | 'cancel' | 'health'

export const SCENARIO_TITLES: Record<ScenarioKind, string> = {
  register: 'Task registration (`POST /indexes`)',
  cancel: 'Task registration (`POST /tasks/cancel?uids=999999999`)',
  health: '`GET /health`',
}

/** The throughput target of issue 2, for durable task registration (`register`). */
export const TARGET_TASKS_PER_SECOND = 5000

export interface DurabilityCheck {
  /** Successful registrations acknowledged to the client over the whole run (warm-up and drain included). */
  acknowledged: number
  /** `total` of `GET /tasks?limit=1` on the live server right after the load. */
  totalLive: number | null
  /** The same after SIGKILL and a restart on the same data directory (null when skipped). */
  totalAfterRestart: number | null
  /** Every total that was read is ≥ acknowledged. */
  consistent: boolean
  note?: string
}

export interface ScenarioResult {
  id: string
  kind: ScenarioKind
  adapter: Adapter
  request: string
  load: LoadResult
  durability?: DurabilityCheck
  /** The server's stderr (its WARN/ERROR logs), last lines only, when it logged anything unexpected. */
  serverLogTail?: string
}

export interface Ratio {
  kind: ScenarioKind
  uws: number
  node: number
  /** uws req/s divided by node req/s, both measured in this run. */
  uwsOverNode: number
}

/** Latency of appending 512 bytes + fdatasync in the data directory's filesystem, measured before the scenarios. */
export interface FsyncProbe {
  count: number
  p50Ms: number
  p99Ms: number
  meanMs: number
}

/** The documents scenario (issue 3): payload acceptance, indexing throughput and server memory. */
export interface DocumentsReport {
  adapter: Adapter
  serverArgs: string[]
  options: DocumentsOptions
  runs: DocumentsRunResult[]
  /** Wall time of the whole scenario (corpus generation included), seconds. */
  totalSeconds: number
}

export interface BenchReport {
  benchmark: 'foundation'
  issue: 2
  date: string
  machine: {
    cpus: number
    cpuModel: string
    platform: string
    release: string
    arch: string
    node: string
    totalMemoryGiB: number
    loadAverageAtStart: number[]
    /** Tessera's package version, and the git commit of the checkout (null outside one; `dirty` with local changes). */
    tessera?: string
    gitCommit?: string | null
    gitDirty?: boolean | null
  }
  storage: {
    dataDir: string
    filesystem: string
    fsyncProbe: FsyncProbe | null
  }
  settings: {
    connections: number
    warmupSeconds: number
    durationSeconds: number
    maxRequests: number
    client: ClientKind
    restartCheck: boolean
  }
  scenarios: ScenarioResult[]
  /** Null when the documents scenario was not run. */
  documents: DocumentsReport | null
  ratios: Ratio[]
  target: {
    description: string
    tasksPerSecond: number
    /** Registration req/s per adapter (POST /indexes), where measured. */
    measured: Partial<Record<Adapter, number>>
    /** Judged on the default adapter (uws); null when it was not measured. */
    met: boolean | null
  }
  notes: string[]
  totalSeconds: number
}

export function machineInfo(): BenchReport['machine'] {
  const list = cpus()
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    platform: platform(),
    release: release(),
    arch: arch(),
    node: process.version,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    tessera: VERSION.pkgVersion,
    ...gitState(),
  }
}

/** ` · Tessera 0.1.0 @ abc1234` (`+` with local changes), for report headers. */
export function versionTag(machine: BenchReport['machine']): string {
  if (!machine.tessera) return ''
  return ` · Tessera ${machine.tessera}${machine.gitCommit ? ` @ ${machine.gitCommit.slice(0, 7)}${machine.gitDirty ? '+' : ''}` : ''}`
}

/** The checkout's commit and whether it has local changes (nulls without git or outside a checkout). */
function gitState(): { gitCommit: string | null; gitDirty: boolean | null } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim()
  try {
    return { gitCommit: git(['rev-parse', 'HEAD']), gitDirty: git(['status', '--porcelain', '--untracked-files=no']).length > 0 }
  } catch {
    return { gitCommit: null, gitDirty: null }
  }
}

export function computeRatios(scenarios: ScenarioResult[]): Ratio[] {
  const ratios: Ratio[] = []
  for (const kind of Object.keys(SCENARIO_TITLES) as ScenarioKind[]) {
    const uws = scenarios.find((s) => s.kind === kind && s.adapter === 'uws')
    const node = scenarios.find((s) => s.kind === kind && s.adapter === 'node')
    if (!uws || !node || node.load.requestsPerSecond === 0) continue
    ratios.push({ kind, uws: uws.load.requestsPerSecond, node: node.load.requestsPerSecond, uwsOverNode: uws.load.requestsPerSecond / node.load.requestsPerSecond })
  }
  return ratios
}

export function computeTarget(scenarios: ScenarioResult[]): BenchReport['target'] {
  const measured: Partial<Record<Adapter, number>> = {}
  for (const s of scenarios) if (s.kind === 'register') measured[s.adapter] = s.load.requestsPerSecond
  return {
    description: `≥ ${TARGET_TASKS_PER_SECOND.toLocaleString('en-US')} durable tasks/s (POST /indexes, fsynced before the 202) with 64 concurrent clients on 2 cores, default (uws) adapter`,
    tasksPerSecond: TARGET_TASKS_PER_SECOND,
    measured,
    met: measured.uws === undefined ? null : measured.uws >= TARGET_TASKS_PER_SECOND,
  }
}

/** Other processes' CPU use (% of one core) above which a window counts as disturbed. */
export const DISTURBED_OTHER_CPU_PERCENT = 15

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1))
const pct = (n: number | null) => (n === null ? 'n/a' : `${Math.round(n)} %`)

export function renderMarkdown(report: BenchReport): string {
  const { machine, settings, storage } = report
  const lines: string[] = []
  lines.push('# Tessera foundation benchmark (issue 2)', '')
  lines.push(`${report.date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})${versionTag(machine)}`)
  if (report.scenarios.length > 0) lines.push(`${settings.connections} concurrent keep-alive connections (one request in flight each, ${settings.client} client) · warm-up ${settings.warmupSeconds} s · window ${settings.durationSeconds} s or ${int(settings.maxRequests)} successful requests, whichever comes first · one fresh server process and data directory per row`)
  const probe = storage.fsyncProbe
  lines.push(`Data directories on ${storage.filesystem} (${storage.dataDir})${probe ? ` · append + fdatasync there: p50 ${ms(probe.p50Ms)} ms, p99 ${ms(probe.p99Ms)} ms (${probe.count} samples)` : ''}`, '')

  if (report.scenarios.length > 0) {
    lines.push('| Scenario | Adapter | OK | Errors | Req/s | p50 ms | p99 ms | Server CPU | Client CPU | Other CPU |')
    lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|')
    for (const s of report.scenarios) {
      const l = s.load
      lines.push(`| ${SCENARIO_TITLES[s.kind]} | ${s.adapter} | ${int(l.ok)} | ${int(l.errors)} | **${int(l.requestsPerSecond)}** | ${ms(l.latencyMs.p50)} | ${ms(l.latencyMs.p99)} | ${pct(l.serverCpuPercent)} | ${pct(l.clientCpuPercent)} | ${pct(l.otherCpuPercent)} |`)
    }
    lines.push('')
    const disturbed = report.scenarios.filter((s) => (s.load.otherCpuPercent ?? 0) > DISTURBED_OTHER_CPU_PERCENT)
    if (disturbed.length > 0) {
      lines.push(`**Warning: other processes used more than ${DISTURBED_OTHER_CPU_PERCENT} % of a core during ${disturbed.map((s) => `${s.kind}/${s.adapter}`).join(', ')} (Other CPU column): those figures are disturbed; rerun on an idle machine.**`, '')
    }

    if (report.ratios.length > 0) {
      lines.push('| Same-run comparison | uws req/s | node req/s | uws / node |')
      lines.push('|---|--:|--:|--:|')
      for (const r of report.ratios) lines.push(`| ${SCENARIO_TITLES[r.kind]} | ${int(r.uws)} | ${int(r.node)} | **${r.uwsOverNode.toFixed(2)}×** |`)
      lines.push('')
    }

    const t = report.target
    if (t.met === null) {
      lines.push(`**Target ${t.description}: not measured in this run.**`)
    } else {
      const others = Object.entries(t.measured).filter(([a]) => a !== 'uws').map(([a, v]) => `; ${a} adapter: ${int(v)} tasks/s`).join('')
      lines.push(`**Target ${t.description}: ${t.met ? 'MET' : 'NOT MET'}** — uws: ${int(t.measured.uws!)} tasks/s${others}.`)
    }
    lines.push('')

    const checks = report.scenarios.filter((s) => s.durability)
    if (checks.length > 0) {
      lines.push('Durability consistency (`GET /tasks?limit=1` → `total` ≥ registrations acknowledged over the whole run, warm-up included):', '')
      for (const s of checks) {
        const d = s.durability!
        const restart = d.totalAfterRestart === null ? '' : `, after SIGKILL + restart ${int(d.totalAfterRestart)}`
        lines.push(`- ${SCENARIO_TITLES[s.kind]}, ${s.adapter}: acknowledged ${int(d.acknowledged)}, total live ${d.totalLive === null ? 'n/a' : int(d.totalLive)}${restart} → ${d.consistent ? 'consistent' : '**INCONSISTENT**'}${d.note ? ` (${d.note})` : ''}`)
      }
      lines.push('')
    }

    const failures = report.scenarios.filter((s) => Object.keys(s.load.errorKinds).length > 0)
    if (failures.length > 0) {
      lines.push('Errors over the whole run (warm-up and drain included):', '')
      for (const s of failures) lines.push(`- ${SCENARIO_TITLES[s.kind]}, ${s.adapter}: ${Object.entries(s.load.errorKinds).map(([k, v]) => `${k} × ${v}`).join(', ')}`)
      lines.push('')
    }
  }

  if (report.notes.length > 0) {
    lines.push('Notes:', '')
    for (const n of report.notes) lines.push(`- ${n}`)
    lines.push('')
  }

  if (report.documents) lines.push(...renderDocuments(report.documents))
  if (lines[lines.length - 1] !== '') lines.push('')
  lines.push(`Total bench time: ${report.totalSeconds.toFixed(0)} s.`)
  return lines.join('\n') + '\n'
}

const num = (n: number | null, digits = 1) => (n === null ? 'n/a' : n.toFixed(digits))
const intOrNa = (n: number | null) => (n === null ? 'n/a' : int(n))

/** The documents section: a throughput table, a memory table, and what failed. */
export function renderDocuments(d: DocumentsReport): string[] {
  const lines: string[] = []
  const o = d.options
  lines.push('## Documents: payload acceptance, indexing throughput, server memory (issue 3)', '')
  lines.push(`Generated corpus (deterministic PRNG): ${int(o.documents)} documents \`{id, title, description, price, stock, tags, published}\`${o.large ? `; large run ${int(o.largeDocuments)} documents` : ''} · one fresh server per row (${d.adapter} adapter, \`${d.serverArgs.join(' ')}\`) · \`POST /indexes/{uid}/documents\`, then \`GET /tasks\` polled every ${o.pollMs} ms · VmRSS sampled every ${o.sampleMs} ms`, '')
  lines.push('| Run | Docs | Payloads | Payload MB | To 202 s | Accept MB/s | 202 → succeeded s | Indexing docs/s | End-to-end s | End-to-end docs/s | Task wait / span / commit s | Batches | Server CPU upload / indexing | Other CPU | Check |')
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|')
  for (const r of d.runs) {
    const check = r.ok ? `ok (${int(r.numberOfDocuments ?? 0)} docs, ${r.samplesMatched}/${r.samplesChecked} samples)` : '**FAILED**'
    lines.push(`| ${DOCUMENTS_RUN_TITLES[r.id]} | ${int(r.documents)} | ${r.payloads} | ${num(r.bytes / 1e6)} | ${num(r.acceptSeconds, 2)} | **${num(r.acceptMBps)}** | ${num(r.indexSeconds, 2)} | **${intOrNa(r.indexDocsPerSecond)}** | ${num(r.endToEndSeconds, 2)} | **${intOrNa(r.endToEndDocsPerSecond)}** | ${num(r.taskWaitSeconds, 2)} / ${num(r.taskSpanSeconds, 2)} / ${num(r.commitLagSeconds, 2)} | ${r.batchUids.length} | ${pct(r.serverCpuUploadPercent)} / ${pct(r.serverCpuIndexingPercent)} | ${pct(r.otherCpuPercent)} | ${check} |`)
  }
  lines.push('')
  lines.push('| Run | Payload MiB | Idle RSS MiB | Peak RSS upload MiB | Peak RSS indexing MiB | VmHWM MiB | Peak − idle / payload | Samples |')
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|')
  for (const r of d.runs) {
    const m = r.memory
    const peak = Math.max(m.peakUploadMiB ?? 0, m.peakIndexingMiB ?? 0, m.hwmMiB ?? 0)
    const growth = m.idleMiB === null || peak === 0 ? 'n/a' : `${((peak - m.idleMiB) / (r.bytes / 2 ** 20)).toFixed(2)}×`
    lines.push(`| ${DOCUMENTS_RUN_TITLES[r.id]} | ${num(r.bytes / 2 ** 20)} | ${num(m.idleMiB)} | ${num(m.peakUploadMiB)} | ${num(m.peakIndexingMiB)} | **${num(m.hwmMiB)}** | ${growth} | ${m.samples} |`)
  }
  lines.push('')
  const failed = d.runs.filter((r) => !r.ok)
  if (failed.length > 0) {
    lines.push('**Failed runs:**', '')
    for (const r of failed) lines.push(`- ${DOCUMENTS_RUN_TITLES[r.id]} (\`${r.indexUid}\`): ${r.error ?? 'unknown error'}`)
    lines.push('')
  }
  const disturbed = d.runs.filter((r) => (r.otherCpuPercent ?? 0) > DISTURBED_OTHER_CPU_PERCENT)
  if (disturbed.length > 0) {
    lines.push(`**Warning: other processes used more than ${DISTURBED_OTHER_CPU_PERCENT} % of a core during ${disturbed.map((r) => r.id).join(', ')} (Other CPU column): those figures are disturbed.**`, '')
  }
  lines.push(
    'Documents notes:', '',
    '- *To 202* runs from the first byte sent to the 202 (the last one for concurrent payloads); the service stores the payload durably (fsync) and validates it in the worker pool before answering, so *Accept MB/s* (10^6 bytes/s) covers upload, disk write and validation.',
    `- *202 → succeeded* runs from the (last) 202 until polling sees every task \`succeeded\` (±${o.pollMs} ms); *End-to-end* from the first byte sent. *Task wait / span / commit*, from the tasks\' own dates: queue wait (\`enqueuedAt\` → \`startedAt\`), processing (earliest \`startedAt\` → latest \`finishedAt\`), and \`finishedAt\` → the poll that saw \`succeeded\` (the service stamps \`finishedAt\` before the batch\'s final atomic commit, so this is mostly that commit, its fsync and publishing; ±${o.pollMs} ms).`,
    '- *Batches*: distinct `batchUid`s of the run\'s tasks (the concurrent run shows whether autobatching merged its payloads).',
    '- Memory is the server process (all threads): VmRSS sampled during the upload and the indexing, and VmHWM (the kernel\'s peak, start-up included) at the end; the JSON report has the whole VmRSS timeline of each run. *Peak − idle / payload* is the growth over the idle server relative to the payload size: it should stay well below 1× and not grow with the payload if memory is bounded.',
    `- Check: \`GET /indexes/{uid}/stats\` must count every document, and documents 0, 1, n/2 and n−1 must read back exactly as sent (CSV: \`id\` and \`tags\` as strings, typed columns as numbers and booleans); otherwise the run fails.`,
    `- Documents scenario wall time: ${d.totalSeconds.toFixed(0)} s (corpus generation and server start-ups included).`,
    '',
  )
  return lines
}

/** Write `<dir>/<name>.json` (the report) and `<dir>/<name>.md` (its Markdown); returns the paths and Markdown. */
/**
 * Write `<dir>/<name>.json` and `<dir>/<name>.md`; the charts (SVG files under `<dir>/charts/`, when vega is
 * installed) are appended to the Markdown in a "Charts" section.
 */
export async function writeReportWithCharts(dir: string, name: string, report: unknown, markdown: string, charts: Record<string, ChartSpec>): Promise<{ json: string; md: string; markdown: string }> {
  mkdirSync(dir, { recursive: true })
  const drawn = await chartsMarkdown(dir, charts)
  return writeReportFiles(dir, name, report, drawn ? `${markdown.trimEnd()}\n\n## Charts\n\n${drawn}` : markdown)
}

function writeReportFiles(dir: string, name: string, report: unknown, markdown: string): { json: string; md: string; markdown: string } {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, `${name}.json`)
  const md = join(dir, `${name}.md`)
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
  writeFileSync(md, markdown)
  return { json, md, markdown }
}

/** Write `<dir>/foundation.json` and `<dir>/foundation.md`; returns the Markdown. */
export function writeResults(dir: string, report: BenchReport): { json: string; md: string; markdown: string } {
  return writeReportFiles(dir, 'foundation', report, renderMarkdown(report))
}

// ---- the search benchmark (issue 4): bench/results/search.json and search.md ----------------------------------------

/** The targets of issue 4. */
export const SEARCH_TARGETS = {
  /** Indexing throughput on the npm package corpus, docs/s (first byte sent → task succeeded). */
  docsPerSecond: 50_000,
  /** Server-side processingTimeMs, ms. */
  p50Ms: 1,
  p99Ms: 10,
  /** Peak RSS of the server process, MB (10^6 bytes). */
  peakRssMB: 500,
}

export interface SearchTarget {
  description: string
  target: number
  measured: number | null
  /** null: not measured, or not applicable to this dataset. */
  met: boolean | null
  note?: string
}

export interface SearchReport {
  benchmark: 'search'
  issue: 4
  date: string
  machine: BenchReport['machine']
  storage: { dataDir: string; filesystem: string }
  search: SearchResult
  targets: SearchTarget[]
  notes: string[]
  /** Runs of the scenario (`--repeat`); `search` holds the median of every figure, `spread` min/median/max. */
  repeats?: number
  spread?: unknown
  noise?: unknown
  totalSeconds: number
}

const MB = (mib: number | null) => (mib === null ? null : (mib * 2 ** 20) / 1e6)

/** Whether the dataset is the npm package list the indexing target of issue 4 is stated for. */
export function isNpmCorpus(s: SearchResult): boolean {
  return s.dataset.source === 'file' && /npm/i.test(s.dataset.name)
}

export function computeSearchTargets(s: SearchResult): SearchTarget[] {
  const npm = isNpmCorpus(s)
  const docsPerSecond = s.indexing.ok ? s.indexing.docsPerSecond : null
  const server = s.latency?.samples ? s.latency.serverMs : null
  const rss = MB(s.memory.hwmMiB)
  return [
    {
      description: `Indexing ≥ ${SEARCH_TARGETS.docsPerSecond.toLocaleString('en-US')} docs/s on the npm corpus (first byte sent → task succeeded)`,
      target: SEARCH_TARGETS.docsPerSecond, measured: docsPerSecond,
      met: docsPerSecond === null || !npm ? null : docsPerSecond >= SEARCH_TARGETS.docsPerSecond,
      ...(npm ? {} : { note: 'the target is stated for the npm corpus; shown for reference' }),
    },
    { description: `processingTimeMs p50 ≤ ${SEARCH_TARGETS.p50Ms} ms`, target: SEARCH_TARGETS.p50Ms, measured: server ? server.p50 : null, met: server ? server.p50 <= SEARCH_TARGETS.p50Ms : null },
    { description: `processingTimeMs p99 ≤ ${SEARCH_TARGETS.p99Ms} ms`, target: SEARCH_TARGETS.p99Ms, measured: server ? server.p99 : null, met: server ? server.p99 <= SEARCH_TARGETS.p99Ms : null },
    { description: `Server peak RSS (VmHWM) < ${SEARCH_TARGETS.peakRssMB} MB`, target: SEARCH_TARGETS.peakRssMB, measured: rss, met: rss === null ? null : rss < SEARCH_TARGETS.peakRssMB },
  ]
}

const trio = (l: { p50: number; p95: number; p99: number } | null | undefined, digits: number) =>
  l ? `${l.p50.toFixed(digits)} / ${l.p95.toFixed(digits)} / ${l.p99.toFixed(digits)}` : 'n/a'

/** The peers table: each figure absolute and as Tessera's ratio to the peer, then issue 6's targets against them. */
export function renderPeers(s: SearchResult): string[] {
  if (s.peers.length === 0) return []
  const lines: string[] = []
  const t = { docsPerSecond: s.indexing.docsPerSecond, p50: s.inProcess.ms?.p50 ?? null, p99: s.inProcess.ms?.p99 ?? null, peakMiB: s.memory.hwmMiB }
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? 'n/a' : `${num(a / b, 2)}×`)
  lines.push('Peers, on the same documents and queries in this run (search: in process, one warm-up round then the same rounds as Tessera\'s in-process figure, cut short once a peer has spent 15 s and made 100 measured searches (the Searches column; the warm-up pass that counts results is cut the same way, and its zero-result count is then out of the queries it got through); each peer in its own process). Tessera ÷ peer: above 1× is better for Tessera in docs/s, below 1× in times and memory. Tessera\'s docs/s are over HTTP until `succeeded` (durable); the peers\' are in-process calls. A peer\'s peak RSS includes the parsed corpus it indexes from (in parentheses: RSS once it is loaded).', '')
  lines.push('| Engine | Version | Docs/s | Tessera ÷ peer | Searches | Search ms p50 / p95 / p99 | Tessera ÷ peer (p50, p99) | Mean results | Zero-result queries | Peak RSS MB (corpus loaded) | Tessera ÷ peer | What it does |')
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|')
  lines.push(`| **Tessera** | | ${t.docsPerSecond === null ? 'n/a' : int(t.docsPerSecond)} | | ${int(s.inProcess.samples)} | ${s.inProcess.ms ? trio(s.inProcess.ms, 3) : 'n/a'} | | | ${s.latency ? Object.values(s.latency.zeroHits).reduce((a, b) => a + b, 0) : 'n/a'} | ${num(MB(t.peakMiB), 0)} | | over HTTP, persistent (RocksDB), typo tolerance, prefix, ranking rules |`)
  for (const run of s.peers) {
    const m = run.measure
    if (!run.ok || !m) { lines.push(`| ${run.peer} | | FAILED: ${run.error} | | | | | | | | | ${PEER_NOTES[run.peer]} |`); continue }
    lines.push(`| ${run.peer} | ${m.version} | ${int(m.docsPerSecond)} | ${ratio(t.docsPerSecond, m.docsPerSecond)} | ${m.samples === undefined ? 'n/a' : int(m.samples)} | ${trio(m.search, 3)} | ${ratio(t.p50, m.search.p50)}, ${ratio(t.p99, m.search.p99)} | ${num(m.meanReturned, 1)} | ${m.zeroHits}${m.warmupQueries !== undefined && m.warmupQueries < s.queries.count ? ` of ${m.warmupQueries}` : ''} | ${num(MB(m.peakMiB), 0)} (${num(MB(m.baselineMiB), 0)}) | ${ratio(t.peakMiB, m.peakMiB)} | ${PEER_NOTES[run.peer]} |`)
  }
  lines.push('')
  const by = (p: string) => s.peers.find((r) => r.peer === p && r.ok)?.measure
  const fts = by('sqlite-fts5')
  const flex = by('flexsearch')
  const measured = s.peers.flatMap((r) => (r.ok && r.measure ? [r.measure] : []))
  const verdict = (ok: boolean | null) => (ok === null ? 'NOT MEASURED' : ok ? 'MET' : '**NOT MET**')
  const long = s.dataset.source === 'generated'
  lines.push('Targets against peers (issue 6):', '')
  if (fts && t.docsPerSecond !== null) lines.push(`- Indexing ≥ ${long ? '1.0' : '0.5'}× FTS5's docs/s (${long ? 'long' : 'short'} documents): ${ratio(t.docsPerSecond, fts.docsPerSecond)} → ${verdict(t.docsPerSecond >= (long ? 1 : 0.5) * fts.docsPerSecond)}`)
  if (flex && t.p50 !== null) lines.push(`- Search p50 ≤ 3× FlexSearch's in-process p50: ${ratio(t.p50, flex.search.p50)} → ${verdict(t.p50 <= 3 * flex.search.p50)}`)
  if (measured.length > 0 && t.p99 !== null) lines.push(`- Search p99 below every peer's: Tessera ${num(t.p99, 3)} ms, peers ${measured.map((m) => `${m.peer} ${num(m.search.p99, 3)}`).join(', ')} → ${verdict(measured.every((m) => t.p99! < m.search.p99))}`)
  if (fts && t.peakMiB !== null) lines.push(`- Peak RSS ≤ 1.5× FTS5's: ${ratio(t.peakMiB, fts.peakMiB)} → ${verdict(t.peakMiB <= 1.5 * fts.peakMiB)}`)
  const q16 = (s.qpsSweep ?? []).find((q) => q.connections === 16)
  if (q16) lines.push(`- ≥ 5,000 searches/s over HTTP at 16 clients: ${int(q16.requestsPerSecond)} → ${verdict(q16.requestsPerSecond >= 5000)}`)
  lines.push('')
  return lines
}

export function renderSearchMarkdown(report: SearchReport): string {
  const { machine, search: s } = report
  const o = s.options
  const lines: string[] = []
  lines.push('# Tessera search benchmark (issue 4)', '')
  lines.push(`${report.date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})${versionTag(machine)}`)
  lines.push(`Data directory on ${report.storage.filesystem} (${report.storage.dataDir}) · one fresh server (uws adapter, \`${s.serverArgs.join(' ')}\`)${o.quick ? ' · **--quick**' : ''}`, '')
  const d = s.dataset
  lines.push(`Dataset: **${d.name}**${d.path ? ` (\`${d.path}\`, ${d.format}${d.gzip ? ', gzip' : ''}${d.idsAdded ? ', `id` = row number' : ''})` : ' (corpus.ts, seeded)'} · ${int(d.documents)} documents · fields ${d.fields.map((f) => `\`${f}\``).join(', ')} · searchableAttributes ${d.searchableAttributes.map((f) => `\`${f}\``).join(', ')}`, '')

  const i = s.indexing
  const l = s.latency
  const p = s.inProcess
  const rssMB = MB(s.memory.hwmMiB)
  lines.push('| Dataset | Docs | Docs/s | Index MB live / closed | Peak RSS MB | Server ms p50 / p95 / p99 | In-process ms p50 / p95 / p99 | Round trip ms p50 / p95 / p99 | QPS@' + o.connections + ' |')
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
  lines.push(`| ${d.name} | ${int(d.documents)} | **${i.ok && i.docsPerSecond !== null ? int(i.docsPerSecond) : 'FAILED'}** | ${i.indexBytes === null ? 'n/a' : num(i.indexBytes / 1e6)} / ${i.indexBytesAfterShutdown === null ? 'n/a' : num(i.indexBytesAfterShutdown / 1e6)} | ${num(rssMB, 0)} | ${l?.samples ? `**${trio(l.serverMs, 0)}**` : 'n/a'} | ${p.ok ? trio(p.ms, 2) : 'n/a'} | ${l?.samples ? trio(l.clientMs, 2) : 'n/a'} | ${s.qps ? `**${int(s.qps.requestsPerSecond)}**` : 'n/a'} |`)
  lines.push('')

  lines.push(...renderPeers(s))

  lines.push('Targets (issue 4):', '')
  for (const t of report.targets) {
    const measured = t.measured === null ? 'not measured' : t.target >= 1000 ? int(t.measured) : num(t.measured, t.measured < 10 ? 2 : 0)
    const verdict = t.met === null ? (t.measured === null ? 'NOT MEASURED' : 'n/a') : t.met ? 'MET' : '**NOT MET**'
    lines.push(`- ${t.description}: ${measured} → ${verdict}${t.note ? ` (${t.note})` : ''}`)
  }
  lines.push('')

  lines.push('Details:', '')
  if (i.ok) {
    lines.push(`- Indexing: ${i.payloads} NDJSON payload(s), ${num(i.bytes / 1e6)} MB; 202 after ${num(i.acceptSeconds, 2)} s; every task \`succeeded\` after ${num(i.seconds, 2)} s (task queue wait / processing span / \`finishedAt\` → seen succeeded: ${num(i.taskWaitSeconds, 2)} / ${num(i.taskSpanSeconds, 2)} / ${num(i.commitLagSeconds, 2)} s; ${i.batchUids.length} batch(es)); server CPU ${pct(i.serverCpuPercent)}, other processes ${pct(i.otherCpuPercent)}; \`numberOfDocuments\` ${intOrNa(i.numberOfDocuments)}.`)
  } else {
    lines.push(`- **Indexing failed**: ${i.error ?? 'unknown error'}`)
  }
  const mb = (b: number | null) => (b === null ? 'n/a' : num(b / 1e6))
  const kinds = Object.entries(i.diskByKind).sort((a, b) => b[1] - a[1]).filter(([, b]) => b >= 100_000).map(([k, b]) => `${k} ${mb(b)}`).join(', ')
  lines.push(`- On disk: *Index MB live* is the size of the data directory's files right after indexing, the server running, without the upload staging directory \`payloads/\`: ${mb(i.indexBytes)} MB; *closed*: the same after the server's graceful shutdown (memtables flushed, write-ahead log dropped): ${mb(i.indexBytesAfterShutdown)} MB. All files live: ${mb(i.diskApparentBytes)} MB (${kinds || 'n/a'}), ${mb(i.diskBytes)} MB allocated (RocksDB preallocates its write-ahead log and MANIFEST); closed: ${mb(i.diskApparentBytesAfterShutdown)} MB, ${mb(i.diskBytesAfterShutdown)} MB allocated. Raw NDJSON: ${mb(i.bytes)} MB.`)
  const m = s.memory
  lines.push(`- Server memory (MB): idle ${num(MB(m.idleMiB), 0)}, peak while indexing ${num(MB(m.indexingPeakMiB), 0)}, peak while searching ${num(MB(m.searchPeakMiB), 0)}, after searching ${num(MB(m.afterSearchMiB), 0)}, VmHWM ${num(rssMB, 0)}.`)
  if (l) {
    const kinds = (['plain', 'typo', 'prefix'] as const).map((k) => `${k} ${l.zeroHits[k]}/${l.queriesByKind[k]}`).join(', ')
    lines.push(`- Latency: ${int(l.samples)} searches (${l.rounds} rounds × ${s.queries.count} queries after one warm-up round), one keep-alive connection. processingTimeMs (integer ms) p50 / p95 / p99 / max ${l.serverMs.p50} / ${l.serverMs.p95} / ${l.serverMs.p99} / ${l.serverMs.max}, mean ${num(l.serverMs.mean, 2)}; round trip p50 / p95 / p99 / max ${trio(l.clientMs, 2)} / ${num(l.clientMs.max, 2)} ms, mean ${num(l.clientMs.mean, 2)}; server CPU ${pct(l.serverCpuPercent)}.`)
    lines.push(`- Hits: mean \`estimatedTotalHits\` ${num(l.meanHits, 0)}, mean hits returned ${num(l.meanReturned, 1)}, mean reply ${num(l.meanReplyBytes === null ? null : l.meanReplyBytes / 1000, 1)} kB; queries with no hit: ${kinds}.${l.error ? ` **${l.error}**` : ''}`)
  }
  const sweep = s.qpsSweep ?? (s.qps ? [s.qps] : [])
  if (sweep.length > 0) {
    const q0 = sweep[0]!
    lines.push(`- QPS: concurrent keep-alive clients, each with one search in flight, cycling through the mix; ${num(q0.warmupMs / 1000, 0)} s warm-up then ${num(q0.measuredMs / 1000, 1)} s per window:`, '')
    lines.push('| Clients | Searches | QPS | Latency ms p50 / p95 / p99 | Errors | Server CPU | Client CPU | Other CPU |')
    lines.push('|--:|--:|--:|--:|--:|--:|--:|--:|')
    for (const q of sweep) {
      const headline = q.connections === o.connections
      lines.push(`| ${headline ? `**${q.connections}**` : q.connections} | ${int(q.ok)} | ${headline ? `**${int(q.requestsPerSecond)}**` : int(q.requestsPerSecond)} | ${trio(q.latencyMs, 1)} | ${int(q.errors)} | ${pct(q.serverCpuPercent)} | ${pct(q.clientCpuPercent)} | ${pct(q.otherCpuPercent)} |`)
    }
    lines.push('')
  }
  if (p.ok && p.ms) {
    lines.push(`- In process: \`Engine.open\` on the stopped server's data directory (${num(p.openSeconds, 2)} s), one warm-up round, then ${p.rounds} rounds: ${int(p.samples)} calls of \`await engine.search(uid, parseSearchBody({q}))\`, p50 / p95 / p99 / max ${trio(p.ms, 3)} / ${num(p.ms.max, 2)} ms, mean ${num(p.ms.mean, 3)} ms.`)
  } else {
    lines.push(`- In process: ${p.note ?? 'not measured'}.`)
  }
  const byKind = s.queries.byKind
  lines.push(`- Query mix: ${s.queries.count} queries (seed ${s.queries.seed}): 1–3 consecutive words of a random document's searchable text (by word count: ${Object.entries(s.queries.byWords).map(([w, n]) => `${w}: ${n}`).join(', ')}); ${byKind.plain} as is, ${byKind.typo} with one typo (substitution or transposition, not on the first letter, in a word of ≥ 5 letters), ${byKind.prefix} with the last word cut to 3–5 letters. Bodies are \`{"q": …}\` only (default limit 20). The whole mix is in search.json.`)
  lines.push('')
  lines.push('| # | Query | Kind | From | Hits |')
  lines.push('|--:|---|---|---|--:|')
  s.queries.examples.forEach((q, n) => lines.push(`| ${n + 1} | \`${q.q}\` | ${q.kind} | ${q.kind === 'plain' ? '' : `\`${q.source}\``} | ${q.hits === null ? 'n/a' : int(q.hits)} |`))
  lines.push('')

  if (l && l.samples > 0) {
    lines.push('`processingTimeMs` by query (p50 / p95 / p99 / max):', '')
    lines.push('| Queries | p50 / p95 / p99 | max | mean |')
    lines.push('|---|--:|--:|--:|')
    const row = (name: string, x: LatencySummary) => lines.push(`| ${name} | ${trio(x, 0)} | ${x.max} | ${num(x.mean, 1)} |`)
    for (const k of ['plain', 'typo', 'prefix'] as const) row(`${k} (${l.queriesByKind[k]})`, l.serverMsByKind[k])
    for (const [w, x] of Object.entries(l.serverMsByWords)) row(`${w} word${w === '1' ? '' : 's'} (${s.queries.byWords[w] ?? 0})`, x)
    lines.push('')
  }
  if (l && l.slowest.length > 0) {
    lines.push('Slowest queries (median `processingTimeMs` over the rounds):', '')
    lines.push('| Query | Kind | Hits | Median ms | Max ms |')
    lines.push('|---|---|--:|--:|--:|')
    for (const q of l.slowest) lines.push(`| \`${q.q}\` | ${q.kind} | ${q.hits === null ? 'n/a' : int(q.hits)} | ${q.medianMs} | ${q.maxMs} |`)
    lines.push('')
  }

  const disturbed = [
    ...((i.otherCpuPercent ?? 0) > DISTURBED_OTHER_CPU_PERCENT ? [`indexing (${pct(i.otherCpuPercent)})`] : []),
    ...((s.qps?.otherCpuPercent ?? 0) > DISTURBED_OTHER_CPU_PERCENT ? [`the QPS window (${pct(s.qps!.otherCpuPercent)})`] : []),
  ]
  if (disturbed.length > 0) {
    lines.push(`**Warning: other processes used more than ${DISTURBED_OTHER_CPU_PERCENT} % of a core during ${disturbed.join(' and ')}: those figures are disturbed; rerun on an idle machine.**`, '')
  }

  const notes = [...s.notes, ...report.notes]
  if (s.serverLogTail) notes.push('The server logged warnings or errors: see serverLogTail in search.json.')
  if (s.serverCpuProfile) notes.push(`The server's CPU profile (--cpu-prof) was written to ${s.serverCpuProfile}.`)
  if (notes.length > 0) {
    lines.push('Notes:', '')
    for (const n of notes) lines.push(`- ${n}`)
    lines.push('')
  }
  lines.push(`Total bench time: ${report.totalSeconds.toFixed(0)} s.`)
  return lines.join('\n') + '\n'
}

/** Write `<dir>/search.json` and `<dir>/search.md`; returns the Markdown. */
/** The search report's charts: QPS and latency by concurrent clients, and the peers side by side. */
export function searchCharts(report: SearchReport): Record<string, ChartSpec> {
  const s = report.search
  const sweep = s.qpsSweep ?? []
  const peers = s.peers.filter((p) => p.ok && p.measure)
  const tessera = { engine: 'tessera', p50: s.inProcess.ms?.p50 ?? null, p99: s.inProcess.ms?.p99 ?? null, docsPerSecond: s.indexing.docsPerSecond }
  const engines = [tessera, ...peers.map((p) => ({ engine: p.peer, p50: p.measure!.search.p50, p99: p.measure!.search.p99, docsPerSecond: p.measure!.docsPerSecond }))]
  return {
    'search-qps': { title: 'Searches per second by concurrent clients (HTTP)', kind: 'line', rows: sweep.map((q) => ({ clients: q.connections, qps: Math.round(q.requestsPerSecond) })), x: { field: 'clients', title: 'concurrent clients', log: true }, y: { field: 'qps', title: 'searches/s' } },
    'search-latency-clients': { title: 'Round-trip latency by concurrent clients', kind: 'line', rows: sweep.flatMap((q) => [{ clients: q.connections, ms: q.latencyMs.p50, percentile: 'p50' }, { clients: q.connections, ms: q.latencyMs.p99, percentile: 'p99' }]), x: { field: 'clients', title: 'concurrent clients', log: true }, y: { field: 'ms', title: 'ms' }, series: 'percentile' },
    ...(peers.length === 0 ? {} : {
      'search-peers-latency': { title: 'In-process search latency, same queries (ms)', kind: 'bar', rows: engines.flatMap((e) => [{ engine: e.engine, ms: e.p50, percentile: 'p50' }, { engine: e.engine, ms: e.p99, percentile: 'p99' }]).filter((r) => r.ms !== null), x: { field: 'engine', title: 'engine' }, y: { field: 'ms', title: 'ms' }, series: 'percentile' },
      'search-peers-indexing': { title: 'Indexing throughput, same documents (docs/s)', kind: 'bar', rows: engines.filter((e) => e.docsPerSecond !== null).map((e) => ({ engine: e.engine, docsPerSecond: Math.round(e.docsPerSecond!) })), x: { field: 'engine', title: 'engine' }, y: { field: 'docsPerSecond', title: 'docs/s' } },
    }),
  }
}

export function writeSearchResults(dir: string, report: SearchReport): Promise<{ json: string; md: string; markdown: string }> {
  return writeReportWithCharts(dir, 'search', report, renderSearchMarkdown(report), searchCharts(report))
}

export interface FacetsReport {
  benchmark: 'facets'
  issue: 5
  date: string
  machine: BenchReport['machine']
  storage: { dataDir: string; filesystem: string }
  facets: FacetsResult
  /** Runs of the scenario (`--repeat`); `facets` holds the median of every figure, `spread` min/median/max. */
  repeats?: number
  spread?: unknown
  totalSeconds: number
}

export function renderFacetsMarkdown(report: FacetsReport): string {
  const { machine, facets: f } = report
  const lines: string[] = []
  lines.push('# Tessera filters, facets and sort benchmark (issue 5)', '')
  lines.push(`${report.date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})${versionTag(machine)}`)
  lines.push(`Data directory on ${report.storage.filesystem} · one fresh server (uws adapter)${f.options.quick ? ' · **--quick**' : ''}${(report.repeats ?? 1) > 1 ? ` · every figure the median of ${report.repeats} runs (min/median/max in facets.json)` : ''}`, '')
  lines.push(`Corpus: ${int(f.documents)} generated documents (bench/facets.ts, seed ${f.options.seed}) · filterableAttributes ${f.filterable.map((a) => `\`${a}\``).join(', ')} · sortableAttributes ${f.sortable.map((a) => `\`${a}\``).join(', ')}`, '')
  const i = f.indexing
  lines.push(`Indexing: ${i.ok ? `${num(i.seconds, 2)} s, **${int(i.docsPerSecond ?? 0)} docs/s**, ${i.indexBytes === null ? 'n/a' : num(i.indexBytes / 1e6)} MB on disk` : `**FAILED**: ${i.error}`} · server peak RSS ${num(MB(f.peakRssMiB), 0)} MB · facet index built from the stored documents after a start: **${num(f.facetIndexBuildSeconds, 2)} s** (\`Engine.open\` ${num(f.openSeconds, 2)} s)`, '')
  lines.push('| Case | What | Hits (mean; min–max) | In process ms p50 / p95 / p99 | Round trip ms p50 / p95 / p99 | processingTimeMs p50 / p99 |')
  lines.push('|---|---|--:|--:|--:|--:|')
  for (const c of f.cases) {
    const hits = c.meanHits === null ? 'n/a' : `${int(c.meanHits)}; ${int(c.hitsRange![0])}–${int(c.hitsRange![1])}`
    const http = c.http ? (c.http.error ? `FAILED: ${c.http.error}` : trio(c.http.clientMs, 2)) : 'n/a'
    lines.push(`| \`${c.id}\` | ${c.description} | ${hits} | ${c.inProcess ? `**${trio(c.inProcess.ms, 2)}**` : 'n/a'} | ${http} | ${c.http ? `${c.http.serverMs.p50} / ${c.http.serverMs.p99}` : 'n/a'} |`)
  }
  lines.push('')
  lines.push('Notes:', '')
  lines.push(`- Each case cycles through its variants (the request bodies are in facets.json, under each case's \`requests\`): one warm-up pass, then ${f.options.rounds} passes, over HTTP with one keep-alive client and then in process.`)
  lines.push('- *In process* is `await engine.search(uid, parseSearchBody(body))` timed with performance.now() on the stopped server\'s data directory: the precise figure. *Round trip* adds HTTP and JSON; `processingTimeMs` is the server\'s own figure in whole milliseconds.')
  lines.push('- Hits are the replies\' `estimatedTotalHits`, which stops at `maxTotalHits` (1000): the broad cases match far more (about two thirds of the corpus without a query word).')
  lines.push('- Facet distributions are computed over every matching document (not capped), for the 10 attributes at once, with `maxValuesPerFacet` 100.')
  for (const n of f.notes) lines.push(`- ${n}`)
  if (f.serverLogTail) lines.push('- The server logged warnings or errors: see serverLogTail in facets.json.')
  lines.push('', `Total bench time: ${report.totalSeconds.toFixed(0)} s.`)
  return lines.join('\n') + '\n'
}

/** Write `<dir>/facets.json` and `<dir>/facets.md`; returns the Markdown. */
export function writeFacetsResults(dir: string, report: FacetsReport): { json: string; md: string; markdown: string } {
  return writeReportFiles(dir, 'facets', report, renderFacetsMarkdown(report))
}
