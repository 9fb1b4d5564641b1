/** The task throughput report's body (bench/results/tasks.md): one table per part, and the batches in order. */
import { ONE_DOC_TARGET, POLL_MS } from '../scenarios/tasks/options.js'
import type { TasksResult } from '../scenarios/tasks/types.js'

// '–' for what was not measured, as in the tasks report since its first version.
const num = (n: number | null | undefined, digits = 2) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits))
const int = (n: number | null | undefined) => (n === null || n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US'))
const pct = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${Math.round(n)} %`)

export function renderTasksMarkdown(r: TasksResult): string {
  const o = r.oneDoc
  const m = r.mixed
  const x = r.reindex
  const lines: string[] = [
    '## Task throughput',
    '',
    `How fast the service registers many small tasks and works through them (autobatching), and how long settings changes take to reindex an index. Each part ran against its own fresh server; whole scenario ${num(r.totalSeconds, 1)} s.`,
    '',
    `### One-document tasks (${int(o.tasks)} tasks, ${o.clients} clients)`,
    '',
    `${int(o.tasks)} POSTs of a one-document JSON array to one index, from ${o.clients} concurrent keep-alive clients. Registration: first send → last 202. Processing: first send → every task seen ended (polled every ${POLL_MS} ms); service span: earliest \`startedAt\` → latest \`finishedAt\`. Target: ${int(ONE_DOC_TARGET.tasks)} tasks in ≤ ${ONE_DOC_TARGET.seconds} s, i.e. ≥ ${int(ONE_DOC_TARGET.tasksPerSecond)} tasks/s on the processing time.`,
    '',
  ]
  if (!o.ok) lines.push(`**Failed:** ${o.error}`, '')
  lines.push(
    '| Figure | Value |',
    '|---|---:|',
    `| Registration, s | ${num(o.registrationSeconds)} |`,
    `| Registration, tasks/s | ${int(o.registrationTasksPerSecond)} |`,
    `| POST round trip p50 / p95 / p99, ms | ${num(o.registrationLatencyMs?.p50)} / ${num(o.registrationLatencyMs?.p95)} / ${num(o.registrationLatencyMs?.p99)} |`,
    `| Processing (first send → all ended), s | ${num(o.processingSeconds)} |`,
    `| Processing, tasks/s | ${int(o.processingTasksPerSecond)} |`,
    `| Drain (last 202 → all ended), s | ${num(o.drainSeconds)} |`,
    `| Service span (first start → last finish), s | ${num(o.serverSpanSeconds)} |`,
    `| Service span, tasks/s | ${int(o.serverTasksPerSecond)} |`,
    `| Batches | ${int(o.batches)} |`,
    `| Tasks per batch, min / mean / max | ${o.tasksPerBatch ? `${o.tasksPerBatch.min} / ${num(o.tasksPerBatch.mean, 1)} / ${o.tasksPerBatch.max}` : '–'} |`,
    `| Time inside batches (sum) / between them, s | ${num(o.batchBusySeconds)} / ${num(o.serverSpanSeconds === null || o.batchBusySeconds === null ? null : o.serverSpanSeconds - o.batchBusySeconds)} |`,
    `| Failed / canceled tasks | ${o.failed ?? '–'} / ${o.canceled ?? '–'} |`,
    `| numberOfDocuments | ${int(o.numberOfDocuments)} |`,
    `| Server CPU, registration / drain | ${pct(o.serverCpuRegistrationPercent)} / ${pct(o.serverCpuDrainPercent)} |`,
    `| Bench clients CPU / other processes | ${pct(o.benchCpuPercent)} / ${pct(o.otherCpuPercent)} |`,
    `| Peak RSS, MiB | ${num(o.peakRssMiB, 0)} |`,
    `| Target ≥ ${int(o.targetTasksPerSecond)} tasks/s | ${o.targetMet === null ? '–' : o.targetMet ? 'met' : '**missed**'} |`,
    '',
  )
  if (o.firstBatches.length > 0) {
    const shown = o.firstBatches.map((b) => `${b.tasks} (${num(b.seconds)} s)`).join(', ')
    lines.push(`Batches in order, tasks (seconds): ${shown}${(o.batches ?? 0) > o.firstBatches.length ? ', …' : ''}. CPU figures are % of one core.`, '')
  }
  lines.push(
    `### Mixed document and settings tasks (${int(m.tasks)} tasks)`,
    '',
    `${int(m.documentTasks)} additions of ${m.documentsPerTask} documents and ${int(m.settingsTasks)} settings updates (every ${r.options.settingsEvery}th task; filterableAttributes, stopWords, rankingRules, typoTolerance, synonyms in turn) to one index from ${m.clients} clients. A settings task is never batched with additions, so each one ends a batch; those that change what is indexed (filterable attributes, stop words) also reindex the documents already there.`,
    '',
  )
  if (!m.ok) lines.push(`**Failed:** ${m.error}`, '')
  lines.push(
    '| Figure | Value |',
    '|---|---:|',
    `| Registration, s (tasks/s) | ${num(m.registrationSeconds)} (${int(m.registrationTasksPerSecond)}) |`,
    `| First send → all ended, s | ${num(m.wallSeconds)} |`,
    `| Tasks/s | ${int(m.tasksPerSecond)} |`,
    `| Documents/s | ${int(m.documentsPerSecond)} |`,
    `| Service span, s | ${num(m.serverSpanSeconds)} |`,
    `| Batches: with settings / additions only | ${int(m.settingsBatches)} / ${int(m.documentBatches)} |`,
    `| Tasks per addition batch, min / mean / max | ${m.tasksPerDocumentBatch ? `${m.tasksPerDocumentBatch.min} / ${num(m.tasksPerDocumentBatch.mean, 1)} / ${m.tasksPerDocumentBatch.max}` : '–'} |`,
    `| Time in settings batches / addition batches, s | ${num(m.settingsBatchSeconds)} / ${num(m.documentBatchSeconds)} |`,
    `| Failed / canceled tasks | ${m.failed ?? '–'} / ${m.canceled ?? '–'} |`,
    `| numberOfDocuments (expected ${int(m.documents)}) | ${int(m.numberOfDocuments)} |`,
    `| Peak RSS, MiB | ${num(m.peakRssMiB, 0)} |`,
    '',
    `### Settings-driven reindex (${int(x.documents)} documents)`,
    '',
    `The documents indexed in one NDJSON payload (${x.payloadBytes === null ? '–' : `${num(x.payloadBytes / 1e6, 1)} MB`}) with searchableAttributes title, description, tags: ${num(x.indexingSeconds)} s, ${int(x.indexingDocumentsPerSecond)} documents/s. Then each change below in turn, timed from the PATCH to its task seen \`succeeded\` (wall) and by the task's own \`duration\`; documents/s on the wall time.`,
    '',
  )
  if (!x.ok) lines.push(`**Failed:** ${x.error}`, '')
  lines.push('| Change | Wall, s | Task duration, s | Documents/s |', '|---|---:|---:|---:|')
  for (const c of x.changes) lines.push(`| ${c.change} | ${c.ok ? num(c.wallSeconds) : `failed: ${c.error}`} | ${num(c.taskSeconds)} | ${int(c.documentsPerSecond)} |`)
  lines.push('', `Server peak RSS (VmHWM) after the part: ${num(x.peakRssMiB, 0)} MiB (current ${num(x.rssMiB, 0)} MiB).`, '')
  return lines.join('\n')
}
