/** Benchmark results: the JSON document and its Markdown rendering, written under bench/results/. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { join } from 'node:path'
import type { ClientKind, LoadResult } from './load.js'
import type { Adapter } from './server.js'
import { DOCUMENTS_RUN_TITLES, type DocumentsOptions, type DocumentsRunResult } from './documents.js'

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
