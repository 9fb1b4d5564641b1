/**
 * Part 1 of the tasks scenario: `oneDocTasks` POSTs of a one-document JSON array to one index, from `clients`
 * concurrent keep-alive clients. Registration (first send → last 202), processing (first send → every task seen
 * ended: the figure the target is checked on), the service's own span, the batches autobatching made; every task
 * must succeed and `numberOfDocuments` must equal the count.
 */
import { generateDocuments } from '../../data/uniform-corpus.js'
import { otherCpuPercent, processCpuMs, systemBusyMs } from '../../harness/cpu.js'
import { createIndex, numberOfDocuments } from '../../harness/index-api.js'
import { summarize } from '../../harness/latency.js'
import { memoryOf } from '../../harness/memory.js'
import { progress, tracked } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { POLL_MS, type TasksOptions } from './options.js'
import { register } from './register.js'
import { batchSizes, readTasks, taskFigures, waitAllEnded } from './task-list.js'
import type { OneDocResult } from './types.js'

const cpuPercent = (from: number | null, to: number | null, wallMs: number) => (from === null || to === null || wallMs <= 0 ? null : (100 * (to - from)) / wallMs)
const benchCpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/** Part 1: one-document tasks. */
export async function runOneDoc(options: TasksOptions, target: Target, r: OneDocResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_one_doc')
  await createIndex(target, uid, 60_000, POLL_MS)
  const path = `/indexes/${encodeURIComponent(uid)}/documents`
  const requests = [...generateDocuments(options.oneDocTasks, options.seed)].map((doc) => ({ method: 'POST' as const, path, body: JSON.stringify([doc]) }))
  const pid = target.pid
  const cpu0 = pid === null ? null : processCpuMs(pid)
  const sys0 = systemBusyMs()
  const bench0 = benchCpuMs()

  const regBar = progress(`tasks, registering ${options.oneDocTasks.toLocaleString('en-US')} one-document tasks (${options.clients} clients)`, options.oneDocTasks)
  const reg = await tracked(regBar, () => register(target, requests, options.clients, regBar))
  const cpu1 = pid === null ? null : processCpuMs(pid)
  r.registrationErrors = reg.errors
  const regMs = reg.lastAcceptedAt - reg.firstSendAt
  r.registrationSeconds = regMs / 1000
  r.registrationTasksPerSecond = reg.taskUids.length / r.registrationSeconds
  r.registrationLatencyMs = summarize(reg.latenciesMs)
  regBar.done(`${Math.round(r.registrationTasksPerSecond)} tasks/s, round trip p50 ${r.registrationLatencyMs.p50.toFixed(2)} / p99 ${r.registrationLatencyMs.p99.toFixed(2)} ms${reg.errors ? `, ${reg.errors} errors` : ''}`)

  const procBar = progress('tasks, processing the one-document tasks', reg.taskUids.length)
  const endedAt = await tracked(procBar, () => waitAllEnded(target, uid, reg.taskUids.length, procBar))
  const cpu2 = pid === null ? null : processCpuMs(pid)
  const sys2 = systemBusyMs()
  const bench2 = benchCpuMs()
  const wallMs = endedAt - reg.firstSendAt
  r.processingSeconds = wallMs / 1000
  r.processingTasksPerSecond = reg.taskUids.length / r.processingSeconds
  r.drainSeconds = (endedAt - reg.lastAcceptedAt) / 1000
  r.serverCpuRegistrationPercent = cpuPercent(cpu0, cpu1, regMs)
  r.serverCpuDrainPercent = cpuPercent(cpu1, cpu2, endedAt - reg.lastAcceptedAt)
  r.benchCpuPercent = (100 * (bench2 - bench0)) / wallMs
  r.otherCpuPercent = otherCpuPercent(sys0 === null || sys2 === null ? null : sys2 - sys0, cpu0 === null || cpu2 === null ? null : cpu2 - cpu0, bench2 - bench0, wallMs)
  r.targetMet = reg.errors === 0 ? r.processingTasksPerSecond >= r.targetTasksPerSecond : false

  const rows = await readTasks(target, uid, reg.taskUids)
  const f = taskFigures(rows)
  r.serverSpanSeconds = f.spanSeconds
  r.serverTasksPerSecond = f.spanSeconds ? rows.length / f.spanSeconds : null
  r.queueWaitSeconds = f.queueWaitSeconds
  r.batches = f.batches.length
  r.tasksPerBatch = batchSizes(f.batches)
  r.firstBatches = f.batches.slice(0, 40).map((b) => ({ tasks: b.tasks, seconds: b.seconds }))
  r.batchBusySeconds = f.batches.reduce((s, b) => s + b.seconds, 0)
  r.succeeded = f.succeeded
  r.failed = f.failed
  r.canceled = f.canceled
  if (f.firstFailure) r.firstFailure = f.firstFailure
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  r.peakRssMiB = memoryOf(pid).hwmMiB
  procBar.done(`${r.processingSeconds.toFixed(2)} s (${Math.round(r.processingTasksPerSecond)} tasks/s) in ${r.batches} batches, service span ${f.spanSeconds?.toFixed(2) ?? '?'} s`)

  const problems = [
    ...(reg.errors > 0 ? [`${reg.errors} POSTs failed (first: ${reg.firstError})`] : []),
    ...(f.succeeded !== rows.length ? [`${rows.length - f.succeeded} tasks did not succeed (first: ${f.firstFailure})`] : []),
    ...(r.numberOfDocuments !== options.oneDocTasks ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${options.oneDocTasks}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}
