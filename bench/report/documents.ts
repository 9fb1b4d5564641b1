/** The documents scenario's section of the foundation report: throughput, memory, failures, and how to read them. */
import type { DocumentsReport } from '../scenarios/documents/index.js'
import { DOCUMENTS_RUN_TITLES } from '../scenarios/documents/options.js'
import { MB, int, intOrNa, num, pct } from './format.js'
import { DISTURBED_OTHER_CPU_PERCENT } from './header.js'

/** The documents section: a throughput table, a memory table, and what failed. */
export function renderDocuments(d: DocumentsReport): string[] {
  const lines: string[] = []
  const o = d.options
  lines.push('## Documents: payload acceptance, indexing throughput, server memory (issue 3)', '')
  lines.push(`Generated corpus (deterministic PRNG): ${int(o.documents)} documents \`{id, title, description, price, stock, tags, published}\`${o.large ? `; large run ${int(o.largeDocuments)} documents` : ''}${d.runs.some((r) => r.id === 'ndjson-short') ? `; short run ${int(o.shortDocuments)} documents \`{id, name, version, downloads, summary}\` (bench/data/short-corpus.ts) in ${o.shortPayloads} NDJSON payloads, each sent once the previous one is accepted` : ''} · one fresh server per row (${d.adapter} adapter, \`${d.serverArgs.join(' ')}\`) · \`POST /indexes/{uid}/documents\`, then \`GET /tasks\` polled every ${o.pollMs} ms · VmRSS sampled every ${o.sampleMs} ms`, '')
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
  lines.push(...renderShortAgainstFts5(d))
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

/** Issue 6's target on short documents, against SQLite FTS5 indexing the short run's documents in process. */
export const SHORT_FTS5_RATIO = 0.5

/** The ndjson-short run against FTS5: docs/s end to end, Tessera ÷ FTS5, and the verdict. */
function renderShortAgainstFts5(d: DocumentsReport): string[] {
  const r = d.runs.find((x) => x.id === 'ndjson-short')
  if (!r) return []
  const lines = [`Short documents against SQLite FTS5 (${int(r.documents)} documents, ${r.payloads} NDJSON payloads back to back):`, '']
  const tessera = r.ok ? r.endToEndDocsPerSecond : null
  lines.push(`- Tessera: ${tessera === null ? `**FAILED**` : `**${int(tessera)} docs/s**`} end to end (first byte of the first payload → every task \`succeeded\`, over HTTP, durable before each \`202\`).`)
  const fts = r.fts5
  if (!fts) {
    lines.push('- SQLite FTS5: not measured (`--no-peers`, `--peers` without sqlite-fts5, or better-sqlite3 not installed).', '')
    return lines
  }
  if (!fts.ok || !fts.measure) {
    lines.push(`- SQLite FTS5: **FAILED**: ${fts.error ?? 'unknown error'}`, '')
    return lines
  }
  const m = fts.measure
  lines.push(`- SQLite FTS5 (better-sqlite3 ${m.version}, on disk, WAL, synchronous=NORMAL; every field but the id, one transaction per payload's worth of documents): **${int(m.docsPerSecond)} docs/s** in process, peak RSS ${num(MB(m.peakMiB), 0)} MB.`)
  if (tessera !== null) {
    const ratio = tessera / m.docsPerSecond
    lines.push(`- Tessera ÷ FTS5: ${num(ratio, 2)}× → target ≥ ${SHORT_FTS5_RATIO}× on short documents (issue 6): ${ratio >= SHORT_FTS5_RATIO ? 'MET' : '**NOT MET**'}`)
  }
  lines.push('')
  return lines
}
