/**
 * One documents run against a fresh, idle server: send what was prepared, time the upload to the (last) 202 and the
 * indexing to every task `succeeded`, sample the server's memory and CPU meanwhile, then check that the index counts
 * every document and that the sampled ones read back exactly as sent.
 */
import { performance } from 'node:perf_hooks'
import { elapsed, otherCpuPercent, processCpuMs, systemBusyMs } from '../../harness/cpu.js'
import { RssSampler, type MemoryUsage } from '../../harness/memory.js'
import { call } from '../../harness/requests.js'
import type { BenchServer } from '../../harness/server.js'
import { taskTimings, waitForTasks } from '../../harness/task-wait.js'
import type { PeerRun } from '../../peers/peers.js'
import type { DocumentsOptions, DocumentsRunKind } from './options.js'
import type { PayloadFormat } from './payloads.js'
import { prepare, type Sent } from './prepare.js'

export interface DocumentsRunResult {
  id: DocumentsRunKind
  format: PayloadFormat
  indexUid: string
  documents: number
  payloads: number
  /** Bytes sent over all payloads. */
  bytes: number
  /** Whether the payload was streamed from a scratch file (never held whole in the bench's memory). */
  streamed: boolean
  ok: boolean
  /** Why the run failed (a non-202, a failed task, a wrong document count, a document read back wrong, a timeout). */
  error?: string
  /** First byte sent → last 202 received, seconds. */
  acceptSeconds: number | null
  /** bytes / acceptSeconds, in MB/s (10^6 bytes). */
  acceptMBps: number | null
  /** Last 202 → every task `succeeded` (seen by polling every `pollMs`), seconds. */
  indexSeconds: number | null
  indexDocsPerSecond: number | null
  /** First byte sent → every task `succeeded`, seconds. */
  endToEndSeconds: number | null
  endToEndDocsPerSecond: number | null
  /** The service's own processing time: earliest `startedAt` → latest `finishedAt` of the run's tasks, seconds. */
  taskSpanSeconds: number | null
  /** Queue wait: earliest `enqueuedAt` → earliest `startedAt`, seconds. */
  taskWaitSeconds: number | null
  /**
   * Latest `finishedAt` → the poll that saw every task `succeeded` (wall clock, ±pollMs), seconds: the service sets
   * `finishedAt` before the batch's final commit, so this is mostly that commit (and the fsync) and publishing.
   */
  commitLagSeconds: number | null
  /** Task uids and the distinct batches that processed them. */
  taskUids: number[]
  batchUids: number[]
  /** `numberOfDocuments` of `GET /indexes/{uid}/stats` afterwards. */
  numberOfDocuments: number | null
  /** Sampled documents read back with `GET /indexes/{uid}/documents/{id}`: how many matched what was sent. */
  samplesChecked: number
  samplesMatched: number
  memory: MemoryUsage
  /** Server CPU in % of one core during the upload (until the last 202) and the indexing (after it). */
  serverCpuUploadPercent: number | null
  serverCpuIndexingPercent: number | null
  /** Every other process of the machine (not server, not this bench) over the whole run, % of one core. */
  otherCpuPercent: number | null
  serverLogTail?: string
  /** The ndjson-short run: SQLite FTS5 indexing the same documents in process, in as many transactions as payloads. */
  fts5?: PeerRun
}

/** Stringify with sorted keys, to compare documents whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * One documents run against `server` (fresh, idle). Never throws for a failure of the service: the result says
 * `ok: false` and why.
 */
export async function runDocuments(kind: DocumentsRunKind, server: BenchServer, options: DocumentsOptions, scratchDir: string): Promise<DocumentsRunResult> {
  const sent = await prepare(kind, options, scratchDir)
  try {
    return await measure(kind, sent, server, options)
  } finally {
    sent.dispose()
  }
}

async function measure(kind: DocumentsRunKind, sent: Sent, server: BenchServer, options: DocumentsOptions): Promise<DocumentsRunResult> {
  const indexUid = `bench_${kind.replace(/-/g, '_')}`
  const result: DocumentsRunResult = {
    id: kind, format: sent.format, indexUid, documents: sent.documents, payloads: sent.payloads,
    bytes: sent.bytes, streamed: sent.streamed, ok: false,
    acceptSeconds: null, acceptMBps: null, indexSeconds: null, indexDocsPerSecond: null, endToEndSeconds: null, endToEndDocsPerSecond: null,
    taskSpanSeconds: null, taskWaitSeconds: null, commitLagSeconds: null, taskUids: [], batchUids: [], numberOfDocuments: null, samplesChecked: 0, samplesMatched: 0,
    memory: { idleMiB: null, peakUploadMiB: null, peakIndexingMiB: null, hwmMiB: null, samples: 0, sampleMs: options.sampleMs, timeline: [] },
    serverCpuUploadPercent: null, serverCpuIndexingPercent: null, otherCpuPercent: null,
  }
  const sampler = new RssSampler(server.pid, options.sampleMs)
  const cpu0 = processCpuMs(server.pid)
  const busy0 = systemBusyMs()
  const client0 = process.cpuUsage()
  const t0 = performance.now()
  let t202: number | null = null
  let cpu202: number | null = null
  sampler.start()
  try {
    const replies = await sent.send(server, `/indexes/${indexUid}/documents`, options.taskTimeoutMs)
    t202 = Math.max(...replies.map((r) => r.at))
    cpu202 = processCpuMs(server.pid)
    sampler.indexing()
    const bad = replies.filter((r) => r.status !== 202)
    if (bad.length > 0) throw new Error(`POST /indexes/${indexUid}/documents answered ${bad.map((r) => `${r.status} ${r.text.slice(0, 300)}`).join('; ')}`)
    result.acceptSeconds = (t202 - t0) / 1000
    result.acceptMBps = sent.bytes / 1e6 / result.acceptSeconds
    result.taskUids = replies.map((r) => (JSON.parse(r.text) as { taskUid: number }).taskUid)

    const { tasks, at, wallAt } = await waitForTasks(server, result.taskUids, options)
    Object.assign(result, taskTimings(tasks, wallAt))
    result.indexSeconds = (at - t202) / 1000
    result.indexDocsPerSecond = sent.documents / result.indexSeconds
    result.endToEndSeconds = (at - t0) / 1000
    result.endToEndDocsPerSecond = sent.documents / result.endToEndSeconds
  } catch (err) {
    result.error = (err as Error).message
  } finally {
    result.memory = sampler.stop()
    const t1 = performance.now()
    const cpu1 = processCpuMs(server.pid)
    const busy1 = systemBusyMs()
    const client = process.cpuUsage(client0)
    const clientMs = (client.user + client.system) / 1000
    if (cpu0 !== null && cpu202 !== null && t202 !== null && t202 > t0) result.serverCpuUploadPercent = (100 * (cpu202 - cpu0)) / (t202 - t0)
    if (cpu202 !== null && cpu1 !== null && t202 !== null && t1 > t202) result.serverCpuIndexingPercent = (100 * (cpu1 - cpu202)) / (t1 - t202)
    result.otherCpuPercent = otherCpuPercent(elapsed(busy0, busy1), elapsed(cpu0, cpu1), clientMs, t1 - t0)
  }
  if (result.error) return result

  // The index must hold every document, and sampled documents must read back as sent.
  try {
    const stats = await call(server, 'GET', `/indexes/${indexUid}/stats`, undefined, 30_000)
    if (stats.status !== 200) throw new Error(`GET /indexes/${indexUid}/stats answered ${stats.status}: ${JSON.stringify(stats.body).slice(0, 300)}`)
    const counted = (stats.body as { numberOfDocuments?: unknown } | null)?.numberOfDocuments
    result.numberOfDocuments = typeof counted === 'number' ? counted : null
    if (result.numberOfDocuments !== sent.documents) {
      throw new Error(`GET /indexes/${indexUid}/stats counts ${result.numberOfDocuments} documents, expected ${sent.documents}`)
    }
    const mismatches: string[] = []
    for (const { id, expected } of sent.samples) {
      result.samplesChecked++
      const got = await call(server, 'GET', `/indexes/${indexUid}/documents/${id}`, undefined, 30_000)
      if (got.status === 200 && canonical(got.body) === canonical(expected)) result.samplesMatched++
      else mismatches.push(`document ${id}: ${got.status} ${JSON.stringify(got.body).slice(0, 400)} ≠ sent ${JSON.stringify(expected).slice(0, 400)}`)
    }
    if (mismatches.length > 0) throw new Error(`documents read back differ from what was sent: ${mismatches.join('; ')}`)
    result.ok = true
  } catch (err) {
    result.error = (err as Error).message
  }
  return result
}
