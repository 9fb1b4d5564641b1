/** The concurrency scenario as the entry runs it: its report (concurrency.json and .md) and headline noise figures. */
import type { ReportedScenario } from '../../harness/reported-scenario.js'
import { int, ms } from '../../report/format.js'
import type { ConcurrencyOptions } from './options.js'
import { runConcurrency, type ConcurrencyResult, type SearchWindow } from './run.js'

function markdown(r: ConcurrencyResult): string {
  const o = r.options
  const row = (name: string, w: SearchWindow) => `| ${name} | ${int(w.searches)} | ${w.searchesPerSecond.toFixed(0)} | ${ms(w.ms.p50)} | ${ms(w.ms.p99)} | ${ms(w.ms.max)} |`
  const met = r.p99Ratio <= 2
  return [
    `Searches on a small index (${int(o.smallDocuments)} short generated documents, \`name\` and \`summary\` searchable, ${o.queries} one- and two-word queries), one client, one request in flight, first on the idle server (${o.idleSeconds} s), then while another index ingests ${r.ingested === 'generated' ? `${int(r.ingestedDocuments)} generated documents` : `the ${r.ingested} corpus (${int(r.ingestedDocuments)} documents)`}, ${(r.ingestedBytes / 1e6).toFixed(1)} MB of NDJSON in one payload.`, '',
    '| Window | Searches | Searches/s | p50 ms | p99 ms | max ms |',
    '|---|--:|--:|--:|--:|--:|',
    row('idle', r.idle),
    row('while ingesting', r.ingesting),
    '',
    `Ingestion meanwhile: ${r.ingestSeconds.toFixed(1)} s, ${int(r.ingestDocsPerSecond)} docs/s. p99 while ingesting ÷ idle p99: **${r.p99Ratio.toFixed(1)}×** (target ≤ 2×: ${met ? 'met' : 'missed'}).`,
    ...(r.errors.length > 0 ? ['', `Errors: ${r.errors.join('; ')}`] : []),
    '',
  ].join('\n')
}

export function concurrencyScenario(options: ConcurrencyOptions): ReportedScenario<ConcurrencyResult> {
  return {
    name: 'concurrency', title: 'Tessera search latency while another index ingests (issue 18)',
    run: (open) => runConcurrency(options, open),
    markdown, failures: (r) => r.errors, charts: () => ({}),
    noise: {
      'idle p99 ms': (r) => r.idle.ms.p99,
      'ingesting p99 ms': (r) => r.ingesting.ms.p99,
      'ingest docs/s': (r) => r.ingestDocsPerSecond,
    },
  }
}
