/** The filters, facets and sort report (bench/results/facets.json and .md, issue 5). */
import type { Machine } from '../harness/machine.js'
import type { FacetsResult } from '../scenarios/facets/run.js'
import { writeReportFiles, type WrittenReport } from './files.js'
import { MB, int, num, trio } from './format.js'
import { versionTag } from './header.js'

export interface FacetsReport {
  benchmark: 'facets'
  issue: 5
  date: string
  machine: Machine
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
  lines.push(`Corpus: ${int(f.documents)} generated documents (bench/scenarios/facets/corpus.ts, seed ${f.options.seed}) · filterableAttributes ${f.filterable.map((a) => `\`${a}\``).join(', ')} · sortableAttributes ${f.sortable.map((a) => `\`${a}\``).join(', ')}`, '')
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
export function writeFacetsResults(dir: string, report: FacetsReport): WrittenReport {
  return writeReportFiles(dir, 'facets', report, renderFacetsMarkdown(report))
}
