/**
 * The documents scenario (issue 3): how fast the service accepts a document payload (MB/s until the 202) and
 * indexes it (documents/s until the task `succeeded`), for JSON, NDJSON and CSV, and how much memory the server
 * process needs meanwhile. Its figures go into the foundation report.
 *
 * Runs (each against its own fresh server, uws adapter, with a fresh data directory):
 * - `json`, `ndjson`, `csv`: the generated corpus (100,000 documents by default) in one payload;
 * - `ndjson-10x`: the same corpus as 10 NDJSON payloads sent concurrently (autobatching), end to end;
 * - `ndjson-short`: 100,000 short documents (short-corpus.ts) as ten NDJSON payloads sent back to back, each once
 *   the previous one is accepted (issue 18's ingestion shape), then SQLite FTS5 indexing the same documents in
 *   process in as many transactions, for comparison (with `--no-peers`, or without better-sqlite3, not);
 * - `ndjson-large` (with `--large`): a larger NDJSON corpus (500,000 documents, ~180 MB, by default), streamed from
 *   a scratch file, to see whether the server's memory stays bounded relative to the payload.
 * After each run, `GET /indexes/{uid}/stats` must count every document and a few sampled documents must read back
 * exactly as sent; otherwise the run fails.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SHORT_FIELDS, generateShortDocuments } from '../../data/short-corpus.js'
import { progress } from '../../harness/progress.js'
import type { QuietBudget } from '../../harness/quiet.js'
import { LARGE_PAYLOAD_SERVER_ARGS, startServer, unexpectedLogs, type Adapter } from '../../harness/server.js'
import { runPeers, type PeerRun } from '../../peers/peers.js'
import { DOCUMENTS_RUN_TITLES, documentsRunKinds, type DocumentsOptions } from './options.js'
import { runDocuments, type DocumentsRunResult } from './measure.js'

/** The documents scenario (issue 3): payload acceptance, indexing throughput and server memory. */
export interface DocumentsReport {
  adapter: Adapter
  serverArgs: string[]
  options: DocumentsOptions
  runs: DocumentsRunResult[]
  /** Wall time of the whole scenario (corpus generation included), seconds. */
  totalSeconds: number
}

/** Each run against its own fresh uws server and data directory. A failed run is reported, not thrown. */
export async function runDocumentsScenario(options: DocumentsOptions, dataParent: string, quiet: QuietBudget): Promise<DocumentsReport> {
  const started = performance.now()
  const runs: DocumentsRunResult[] = []
  const adapter: Adapter = 'uws'
  const kinds = documentsRunKinds(options)
  const bar = progress(`documents, ${kinds.length} payload runs`, kinds.length)
  for (const [k, kind] of kinds.entries()) {
    await quiet.wait()
    bar.update(k, DOCUMENTS_RUN_TITLES[kind])
    const dbPath = mkdtempSync(join(dataParent, `documents-${kind}-`))
    const server = await startServer({ adapter, dbPath, args: LARGE_PAYLOAD_SERVER_ARGS })
    let result: DocumentsRunResult
    try {
      result = await runDocuments(kind, server, options, dataParent)
      const logs = unexpectedLogs(server.logs())
      if (logs) result.serverLogTail = logs
      if (!server.isRunning()) result = { ...result, ok: false, error: `the server exited${result.error ? `; ${result.error}` : ''}` }
    } finally {
      await server.stop({ keepData: true })
      rmSync(dbPath, { recursive: true, force: true })
    }
    const r = result
    const f = (n: number | null, d = 1) => (n === null ? 'n/a' : n.toFixed(d))
    const title = `bench: documents, ${DOCUMENTS_RUN_TITLES[kind]}:`
    if (r.ok) {
      bar.log(`${title} ${(r.bytes / 1e6).toFixed(1)} MB accepted in ${f(r.acceptSeconds, 2)} s (${f(r.acceptMBps)} MB/s), indexed in ${f(r.indexSeconds, 2)} s (${Math.round(r.indexDocsPerSecond ?? 0)} docs/s), end to end ${Math.round(r.endToEndDocsPerSecond ?? 0)} docs/s, peak RSS ${f(r.memory.hwmMiB)} MiB`)
    } else {
      bar.log(`${title} FAILED: ${r.error}`)
      if (r.serverLogTail) bar.log(`bench: server log tail:\n${r.serverLogTail}`)
    }
    // The server is stopped: FTS5 has the cores to itself, as Tessera had.
    if (kind === 'ndjson-short' && options.compareFts5) result.fts5 = await shortFts5(options, dataParent, (line) => bar.log(line))
    bar.update(k + 1)
    runs.push(result)
  }
  bar.done()
  return { adapter, serverArgs: LARGE_PAYLOAD_SERVER_ARGS, options, runs, totalSeconds: (performance.now() - started) / 1000 }
}

/** SQLite FTS5 indexing the ndjson-short run's documents (every field but the id), one transaction per payload. */
async function shortFts5(options: DocumentsOptions, scratchParent: string, logLine: (line: string) => void): Promise<PeerRun> {
  let pending = ''
  const [run] = await runPeers({
    peers: ['sqlite-fts5'], documents: [...generateShortDocuments(options.shortDocuments)],
    searchable: SHORT_FIELDS, primaryKey: 'id', queries: [], rounds: 0, scratchParent, timeoutMs: options.taskTimeoutMs,
    batchDocuments: Math.ceil(options.shortDocuments / options.shortPayloads), scenario: 'documents',
    // runPeers writes a line in two parts: printed whole, above the bar.
    log: (text) => { pending += text; if (pending.endsWith('\n')) { logLine(pending.trimEnd()); pending = '' } },
  })
  return run!
}
