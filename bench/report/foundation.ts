/**
 * The foundation report (bench/results/foundation.json and .md): the registration and health scenarios on both
 * adapters (issue 2), the same-run adapter ratios, the durability checks, and the documents scenario's section.
 */
import type { FsyncProbe } from '../harness/disk.js'
import type { ClientKind } from '../harness/clients.js'
import type { Machine } from '../harness/machine.js'
import type { Adapter } from '../harness/server.js'
import type { LoadSettings } from '../scenarios/foundation/index.js'
import type { DocumentsReport } from '../scenarios/documents/index.js'
import { SCENARIO_TITLES, type ScenarioKind, type ScenarioResult } from '../scenarios/foundation/index.js'
import { renderDocuments } from './documents.js'
import { writeReportFiles, type WrittenReport } from './files.js'
import { int, ms, pct } from './format.js'
import { DISTURBED_OTHER_CPU_PERCENT, versionTag } from './header.js'

/** The throughput target of issue 2, for durable task registration (`register`). */
export const TARGET_TASKS_PER_SECOND = 5000

export interface Ratio {
  kind: ScenarioKind
  uws: number
  node: number
  /** uws req/s divided by node req/s, both measured in this run. */
  uwsOverNode: number
}

export interface BenchReport {
  benchmark: 'foundation'
  issue: 2
  date: string
  machine: Machine
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

/** Write `<dir>/foundation.json` and `<dir>/foundation.md`; returns the Markdown. */
export function writeResults(dir: string, report: BenchReport): WrittenReport {
  return writeReportFiles(dir, 'foundation', report, renderMarkdown(report))
}

/**
 * The foundation report of a run: the load scenarios that ran (`kinds` are the run's foundation scenarios, load
 * and documents), their ratios and target, and the notes on how to read them (a partial run says so).
 */
export function foundationReport(run: {
  date: string
  machine: Machine
  storage: BenchReport['storage']
  settings: LoadSettings
  kinds: string[]
  adapters: Adapter[]
  scenarios: ScenarioResult[]
  documents: DocumentsReport | null
  totalSeconds: number
}): BenchReport {
  const { machine, settings, scenarios } = run
  const loadKinds = run.kinds.filter((k) => k !== 'documents')
  const notes = loadKinds.length === 0 ? [] : [
    `The load generator is JavaScript running on the same ${machine.cpus} cores as the server, so it competes for CPU (see Client CPU): the absolute figures are lower bounds for this machine. The meaningful comparison is between adapters measured in this same run (the uws / node ratios).`,
    'Server CPU and Client CPU are CPU time over the window in % of one core, all threads included (event loop, libuv pool, RocksDB, worker pool), from /proc and process.cpuUsage(); Other CPU is every other process of the machine (from /proc/stat), which should be near 0 % for undisturbed figures.',
    `Registration is durable: the server answers only once the task is fsynced (group commit), so its throughput follows the disk's fsync latency, which on a virtual disk drifts between runs (see the fsync probe); compare registration figures across runs with that in mind. The scheduler also processes the registered tasks during the window (creating the indexes for POST /indexes), on the same cores.`,
    'p50/p99 are closed-loop latencies of the successful requests of the window (nearest rank), from write to the last byte of the reply.',
  ]
  if (run.kinds.length < 4 || (loadKinds.length > 0 && run.adapters.length < 2)) {
    notes.push(`Partial run: scenarios ${run.kinds.join(', ')}${loadKinds.length > 0 ? `; adapters ${run.adapters.join(', ')}` : ''}.`)
  }
  if (scenarios.some((s) => s.serverLogTail)) notes.push('Some servers logged warnings or errors: see serverLogTail in foundation.json.')
  return {
    benchmark: 'foundation',
    issue: 2,
    date: run.date,
    machine,
    storage: run.storage,
    settings: {
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.durationSeconds,
      maxRequests: settings.maxRequests,
      client: settings.client,
      restartCheck: settings.restartCheck,
    },
    scenarios,
    documents: run.documents,
    ratios: computeRatios(scenarios),
    target: computeTarget(scenarios),
    notes,
    totalSeconds: run.totalSeconds,
  }
}
