/** Benchmark results: the JSON document and its Markdown rendering, written under bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { join } from 'node:path'
import type { ClientKind, LoadResult } from './load.js'
import type { Adapter } from './server.js'

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
  lines.push(`${report.date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})`)
  lines.push(`${settings.connections} concurrent keep-alive connections (one request in flight each, ${settings.client} client) · warm-up ${settings.warmupSeconds} s · window ${settings.durationSeconds} s or ${int(settings.maxRequests)} successful requests, whichever comes first · one fresh server process and data directory per row`)
  const probe = storage.fsyncProbe
  lines.push(`Data directories on ${storage.filesystem} (${storage.dataDir})${probe ? ` · append + fdatasync there: p50 ${ms(probe.p50Ms)} ms, p99 ${ms(probe.p99Ms)} ms (${probe.count} samples)` : ''}`, '')

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

  lines.push('Notes:', '')
  for (const n of report.notes) lines.push(`- ${n}`)
  lines.push('', `Total bench time: ${report.totalSeconds.toFixed(0)} s.`)
  return lines.join('\n') + '\n'
}

/** Write `<dir>/foundation.json` and `<dir>/foundation.md`; returns the Markdown. */
export function writeResults(dir: string, report: BenchReport): { json: string; md: string; markdown: string } {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, 'foundation.json')
  const md = join(dir, 'foundation.md')
  const markdown = renderMarkdown(report)
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
  writeFileSync(md, markdown)
  return { json, md, markdown }
}
