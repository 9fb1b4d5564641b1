/** The sweeps scenario as the entry runs it: its report (sweeps.json and .md), headline noise figures and charts. */
import type { ReportedScenario } from '../../harness/reported-scenario.js'
import { renderSweepsMarkdown } from '../../report/sweeps.js'
import type { SweepsOptions } from './options.js'
import { runSweeps, sweepsFailures, sweepsSeries } from './run.js'
import type { SweepsResult } from './types.js'

export function sweepsScenario(options: SweepsOptions): ReportedScenario<SweepsResult> {
  return {
    name: 'sweeps', title: 'Tessera maxTotalHits and searchCutoffMs sweeps (issue 6)',
    run: (open) => runSweeps(options, open),
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
