/** The search report (bench/results/search.json and .md, issue 4): the dataset, indexing, latency, QPS, memory, peers. */
import type { Machine } from '../harness/machine.js'
import type { LatencySummary } from '../harness/latency.js'
import type { SearchTarget } from '../scenarios/search/targets.js'
import type { SearchResult } from '../scenarios/search/types.js'
import type { ChartSpec } from './charts.js'
import { writeReportWithCharts, type WrittenReport } from './files.js'
import { MB, int, intOrNa, num, pct, trio } from './format.js'
import { DISTURBED_OTHER_CPU_PERCENT, versionTag } from './header.js'
import { renderPeers } from './peers.js'

export interface SearchReport {
  benchmark: 'search'
  issue: 4
  date: string
  machine: Machine
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

export function renderSearchMarkdown(report: SearchReport): string {
  const { machine, search: s } = report
  const o = s.options
  const lines: string[] = []
  lines.push('# Tessera search benchmark (issue 4)', '')
  lines.push(`${report.date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})${versionTag(machine)}`)
  lines.push(`Data directory on ${report.storage.filesystem} (${report.storage.dataDir}) · one fresh server (uws adapter, \`${s.serverArgs.join(' ')}\`)${o.quick ? ' · **--quick**' : ''}`, '')
  const d = s.dataset
  lines.push(`Dataset: **${d.name}**${d.path ? ` (\`${d.path}\`, ${d.format}${d.gzip ? ', gzip' : ''}${d.idsAdded ? ', `id` = row number' : ''})` : ' (bench/data/uniform-corpus.ts, seeded)'} · ${int(d.documents)} documents · fields ${d.fields.map((f) => `\`${f}\``).join(', ')} · searchableAttributes ${d.searchableAttributes.map((f) => `\`${f}\``).join(', ')} (${num(d.meanSearchableWords, 0)} words per document)`, '')

  const i = s.indexing
  const l = s.latency
  const p = s.inProcess
  const rssMB = MB(s.memory.hwmMiB)
  lines.push('| Dataset | Docs | Docs/s | Index MB live / closed | Peak RSS MB | Server ms p50 / p95 / p99 | In-process ms p50 / p95 / p99 | Round trip ms p50 / p95 / p99 | QPS@' + o.connections + ' |')
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
  lines.push(`| ${d.name} | ${int(d.documents)} | **${i.ok && i.docsPerSecond !== null ? int(i.docsPerSecond) : 'FAILED'}** | ${i.indexBytes === null ? 'n/a' : num(i.indexBytes / 1e6)} / ${i.indexBytesAfterShutdown === null ? 'n/a' : num(i.indexBytesAfterShutdown / 1e6)} | ${num(rssMB, 0)} | ${l?.samples ? `**${trio(l.serverMs, 0)}**` : 'n/a'} | ${p.ok ? trio(p.ms, 2) : 'n/a'} | ${l?.samples ? trio(l.clientMs, 2) : 'n/a'} | ${s.qps ? `**${int(s.qps.requestsPerSecond)}**` : 'n/a'} |`)
  lines.push('')
  const again = s.indexedAgain
  if (again) {
    const fts5 = s.peers.find((run) => run.peer === 'sqlite-fts5' && run.ok)?.measure
    const versus = again.ok && fts5 ? ` (${num(again.docsPerSecond! / fts5.docsPerSecond, 2)}× FTS5's in-process ${int(fts5.docsPerSecond)})` : ''
    lines.push(`Indexed again, the same documents into a second index of the same server after the searches (its threads started and its hot code compiled, as on a server that has been running; the index deleted afterwards): ${again.ok ? `**${int(again.docsPerSecond!)} docs/s**${versus}` : `**FAILED**: ${again.error ?? 'unknown error'}`}. The table's figure is the first indexing, on a fresh server.`, '')
  }

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
    lines.push(`- In process: \`Engine.open\` on the stopped server's data directory (${num(p.openSeconds, 2)} s), one warm-up round, then ${p.rounds} rounds: ${int(p.samples)} calls of \`await searchSerialized(engine, uid, parseSearchBody({q}))\` (the HTTP route's operation: the response as JSON bytes), p50 / p95 / p99 / max ${trio(p.ms, 3)} / ${num(p.ms.max, 2)} ms, mean ${num(p.ms.mean, 3)} ms.`)
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

/** Write `<dir>/search.json` and `<dir>/search.md`, with the charts; returns the Markdown. */
export function writeSearchResults(dir: string, report: SearchReport): Promise<WrittenReport> {
  return writeReportWithCharts(dir, 'search', report, renderSearchMarkdown(report), searchCharts(report))
}
