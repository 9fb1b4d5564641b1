/** The documents section of the foundation report: the short-documents run against FTS5, with issue 6's verdict. */
import t from 'tap'
import { renderDocuments } from '../../../bench/report/documents.js'
import type { DocumentsReport } from '../../../bench/scenarios/documents/index.js'
import type { DocumentsRunResult } from '../../../bench/scenarios/documents/measure.js'
import { DEFAULT_DOCUMENTS_OPTIONS } from '../../../bench/scenarios/documents/options.js'
import type { PeerRun } from '../../../bench/peers/peers.js'

function shortRun(endToEndDocsPerSecond: number, fts5?: PeerRun): DocumentsRunResult {
  return {
    id: 'ndjson-short', format: 'ndjson', indexUid: 'bench_ndjson_short', documents: 100_000, payloads: 10, bytes: 15e6, streamed: false, ok: true,
    acceptSeconds: 1, acceptMBps: 15, indexSeconds: 2, indexDocsPerSecond: 50_000, endToEndSeconds: 100_000 / endToEndDocsPerSecond, endToEndDocsPerSecond,
    taskSpanSeconds: 2, taskWaitSeconds: 0, commitLagSeconds: 0.1, taskUids: [], batchUids: [1], numberOfDocuments: 100_000, samplesChecked: 4, samplesMatched: 4,
    memory: { idleMiB: 100, peakUploadMiB: 120, peakIndexingMiB: 300, hwmMiB: 300, samples: 10, sampleMs: 50, timeline: [] },
    serverCpuUploadPercent: 50, serverCpuIndexingPercent: 150, otherCpuPercent: 0, ...(fts5 ? { fts5 } : {}),
  }
}

const fts5 = (docsPerSecond: number): PeerRun => ({
  peer: 'sqlite-fts5', ok: true,
  measure: { peer: 'sqlite-fts5', version: '12.9.0', documents: 100_000, indexSeconds: 100_000 / docsPerSecond, docsPerSecond, search: { p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 }, samples: 0, warmupQueries: 0, meanReturned: 0, zeroHits: 0, baselineMiB: 60, peakMiB: 90 },
})

const report = (run: DocumentsRunResult): DocumentsReport => ({ adapter: 'uws', serverArgs: [], options: DEFAULT_DOCUMENTS_OPTIONS, runs: [run], totalSeconds: 10 })

t.test('Tessera against FTS5 on short documents: the ratio and whether it reaches 0.5×', async (t) => {
  const met = renderDocuments(report(shortRun(60_000, fts5(100_000)))).join('\n')
  t.match(met, 'Short documents against SQLite FTS5 (100,000 documents, 10 NDJSON payloads back to back)')
  t.match(met, '- Tessera: **60,000 docs/s** end to end')
  t.match(met, '**100,000 docs/s** in process')
  t.match(met, '- Tessera ÷ FTS5: 0.60× → target ≥ 0.5× on short documents (issue 6): MET')
  t.match(met, '; short run 100,000 documents `{id, name, version, downloads, summary}`')
  const missed = renderDocuments(report(shortRun(40_000, fts5(100_000)))).join('\n')
  t.match(missed, '- Tessera ÷ FTS5: 0.40× → target ≥ 0.5× on short documents (issue 6): **NOT MET**')
})

t.test('without FTS5, or with a failed one, the section says so', async (t) => {
  t.match(renderDocuments(report(shortRun(60_000))).join('\n'), '- SQLite FTS5: not measured (`--no-peers`')
  t.match(renderDocuments(report(shortRun(60_000, { peer: 'sqlite-fts5', ok: false, error: 'exited with 1' }))).join('\n'), '- SQLite FTS5: **FAILED**: exited with 1')
  const other = renderDocuments({ ...report(shortRun(60_000)), runs: [{ ...shortRun(60_000), id: 'ndjson' }] }).join('\n')
  t.notMatch(other, 'Short documents against', 'no short run, no section')
})
