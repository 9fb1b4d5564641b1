/**
 * The task throughput scenario: how fast the service takes tasks in and works through them when they are many and
 * small, and how long a settings change takes to reindex an index. Issue text: "task throughput (registration
 * rate; small-task processing rate with autobatching, e.g. 10,000 one-document tasks; mixed document and settings
 * tasks); settings-driven reindex time", with the target "10,000 one-document tasks processed in ≤ 5 s".
 *
 * Three parts (one-doc.ts, mixed.ts, reindex.ts), each against its own fresh target (`open(part)`: a fresh local
 * server and data directory, or an index of its own on a remote server); an error in one part is recorded in its
 * result (`ok: false`) and the next part still runs. Every wait has a deadline (a stuck service fails the part
 * instead of hanging the bench), and every target is closed when its part ends.
 */
import { performance } from 'node:perf_hooks'
import type { Target } from '../../harness/target.js'
import { runMixed } from './mixed.js'
import { runOneDoc } from './one-doc.js'
import { MIXED_DOCUMENTS_PER_TASK, ONE_DOC_TARGET, type TasksOptions } from './options.js'
import { runReindex } from './reindex.js'
import { message } from './register.js'
import type { MixedResult, OneDocResult, ReindexResult, TasksResult } from './types.js'

/** Run one part against its own target; its failure is recorded in `r`, never thrown. */
async function runPart<R extends { ok: boolean; error?: string; totalSeconds: number }>(
  part: string, open: (part: string) => Promise<Target>, r: R, body: (target: Target, r: R) => Promise<void>,
): Promise<R> {
  const t0 = performance.now()
  let target: Target | null = null
  try {
    target = await open(part)
    await body(target, r)
    r.ok = true
  } catch (err) {
    r.ok = false
    r.error = message(err)
    process.stderr.write(`bench: tasks, ${part} FAILED: ${r.error}\n`)
  } finally {
    if (target) await target.close().catch((err) => process.stderr.write(`bench: tasks, ${part}: closing the target failed: ${message(err)}\n`))
  }
  r.totalSeconds = (performance.now() - t0) / 1000
  return r
}

/** The whole scenario; failures of the service are reported in the result, not thrown. */
export async function runTasks(options: TasksOptions, open: (part: string) => Promise<Target>): Promise<TasksResult> {
  const started = performance.now()
  const settingsTasks = options.settingsEvery > 0 ? Math.floor(options.mixedTasks / options.settingsEvery) : 0
  const documentTasks = options.mixedTasks - settingsTasks
  const oneDoc: OneDocResult = {
    ok: false, indexUid: '', tasks: options.oneDocTasks, clients: options.clients,
    registrationSeconds: null, registrationTasksPerSecond: null, registrationLatencyMs: null, registrationErrors: 0,
    processingSeconds: null, processingTasksPerSecond: null, drainSeconds: null, serverSpanSeconds: null, serverTasksPerSecond: null,
    queueWaitSeconds: null, batches: null, tasksPerBatch: null, firstBatches: [], batchBusySeconds: null,
    succeeded: null, failed: null, canceled: null, numberOfDocuments: null,
    serverCpuRegistrationPercent: null, serverCpuDrainPercent: null, benchCpuPercent: null, otherCpuPercent: null,
    targetTasksPerSecond: ONE_DOC_TARGET.tasksPerSecond, targetMet: null, peakRssMiB: null, totalSeconds: 0,
  }
  const mixed: MixedResult = {
    ok: false, indexUid: '', tasks: options.mixedTasks, clients: options.clients, documentTasks, settingsTasks,
    documentsPerTask: MIXED_DOCUMENTS_PER_TASK, documents: documentTasks * MIXED_DOCUMENTS_PER_TASK,
    registrationSeconds: null, registrationTasksPerSecond: null, registrationErrors: 0,
    wallSeconds: null, tasksPerSecond: null, documentsPerSecond: null, serverSpanSeconds: null,
    batches: null, settingsBatches: null, documentBatches: null, tasksPerDocumentBatch: null, settingsBatchSeconds: null, documentBatchSeconds: null,
    succeeded: null, failed: null, canceled: null, numberOfDocuments: null, peakRssMiB: null, totalSeconds: 0,
  }
  const reindex: ReindexResult = {
    ok: false, indexUid: '', documents: options.reindexDocuments, payloadBytes: null, indexingSeconds: null, indexingDocumentsPerSecond: null,
    changes: [], numberOfDocuments: null, peakRssMiB: null, rssMiB: null, totalSeconds: 0,
  }
  await runPart('one-doc', open, oneDoc, (t, r) => runOneDoc(options, t, r))
  await runPart('mixed', open, mixed, (t, r) => runMixed(options, t, r))
  await runPart('reindex', open, reindex, (t, r) => runReindex(options, t, r))
  return { options, oneDoc, mixed, reindex, totalSeconds: (performance.now() - started) / 1000 }
}

/** Failures of the service (not misses of the target): a part that errored, a task that failed, a wrong count. */
export function tasksFailures(r: TasksResult): string[] {
  const out: string[] = []
  if (!r.oneDoc.ok) out.push(`one-document tasks: ${r.oneDoc.error ?? 'failed'}`)
  if (!r.mixed.ok) out.push(`mixed tasks: ${r.mixed.error ?? 'failed'}`)
  if (!r.reindex.ok) out.push(`settings-driven reindex: ${r.reindex.error ?? 'failed'}`)
  return out
}

/** Rows for a bar chart: the wall time of each settings change of the reindex part. */
export function tasksSeries(r: TasksResult): { reindex: Array<{ change: string; seconds: number }> } {
  return { reindex: r.reindex.changes.filter((c) => c.ok && c.wallSeconds !== null).map((c) => ({ change: c.change, seconds: c.wallSeconds! })) }
}
