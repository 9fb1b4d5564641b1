/**
 * Indexing a corpus over HTTP the way the search and facets scenarios measure it: the documents POSTed as NDJSON
 * payloads (sent concurrently when there are several), docs/s from the first byte sent until polling sees every
 * task `succeeded`, the tasks' own timings, the server's memory and CPU meanwhile, and the data directory's size.
 */
import { performance } from 'node:perf_hooks'
import { elapsed, otherCpuPercent, processCpuMs, systemBusyMs } from './cpu.js'
import { diskUsage } from './disk.js'
import { RssSampler, type MemoryUsage } from './memory.js'
import { call, postPayload } from './requests.js'
import type { BenchServer } from './server.js'
import { STALL_DETECTION, taskTimings, waitForTasks } from './task-wait.js'

export interface SearchIndexing {
  ok: boolean
  error?: string
  payloads: number
  /** NDJSON bytes sent. */
  bytes: number
  /** First byte sent → last 202, seconds. */
  acceptSeconds: number | null
  /** First byte sent → every task `succeeded` (polled every `pollMs`), seconds. */
  seconds: number | null
  docsPerSecond: number | null
  /** The tasks' own processing time: earliest `startedAt` → latest `finishedAt`, seconds. */
  taskSpanSeconds: number | null
  taskUids: number[]
  batchUids: number[]
  numberOfDocuments: number | null
  /** Bytes allocated on disk (st_blocks × 512) by the data directory right after indexing, the server running. */
  diskBytes: number | null
  /** Apparent size (sum of file sizes) at that moment. */
  diskApparentBytes: number | null
  /** Apparent size without the payload staging directory (`payloads/`): the index, right after indexing. */
  indexBytes: number | null
  /** The same after the server's graceful shutdown. */
  indexBytesAfterShutdown: number | null
  /** Queue wait: earliest `enqueuedAt` → earliest `startedAt`, seconds. */
  taskWaitSeconds: number | null
  /** Latest `finishedAt` → the poll that saw every task `succeeded` (mostly the batch's final commit), seconds. */
  commitLagSeconds: number | null
  /** Apparent bytes by file kind (`.sst`, `.log`, `MANIFEST`, ...) right after indexing. */
  diskByKind: Record<string, number>
  /** Allocated bytes after the server's graceful shutdown (memtables flushed). */
  diskBytesAfterShutdown: number | null
  diskApparentBytesAfterShutdown: number | null
  memory: MemoryUsage
  serverCpuPercent: number | null
  otherCpuPercent: number | null
}

/** What indexing a corpus over HTTP needs of a scenario's options. */
export interface IndexingOptions {
  /** Largest number of documents per NDJSON payload (payloads are sent concurrently). */
  payloadDocuments: number
  pollMs: number
  sampleMs: number
  taskTimeoutMs: number
}

/** An indexing result with nothing measured yet (and why, when given). */
export function notIndexed(sampleMs: number, error?: string): SearchIndexing {
  return {
    ok: false, ...(error ? { error } : {}), payloads: 0, bytes: 0, acceptSeconds: null, seconds: null, docsPerSecond: null, taskSpanSeconds: null,
    taskUids: [], batchUids: [], numberOfDocuments: null, diskBytes: null, diskApparentBytes: null, indexBytes: null, indexBytesAfterShutdown: null,
    taskWaitSeconds: null, commitLagSeconds: null, diskByKind: {}, diskBytesAfterShutdown: null, diskApparentBytesAfterShutdown: null,
    memory: { idleMiB: null, peakUploadMiB: null, peakIndexingMiB: null, hwmMiB: null, samples: 0, sampleMs, timeline: [] },
    serverCpuPercent: null, otherCpuPercent: null,
  }
}

/** POST the documents as NDJSON payloads and wait for their tasks: throughput, disk, memory and CPU. */
export async function indexDocuments(server: BenchServer, uid: string, docs: Record<string, unknown>[], options: IndexingOptions): Promise<SearchIndexing> {
  const per = Math.max(1, options.payloadDocuments)
  const bodies: Buffer[] = []
  for (let i = 0; i < docs.length; i += per) {
    bodies.push(Buffer.from(docs.slice(i, i + per).map((d) => JSON.stringify(d)).join('\n') + '\n', 'utf8'))
  }
  const result: SearchIndexing = { ...notIndexed(options.sampleMs), payloads: bodies.length, bytes: bodies.reduce((n, b) => n + b.length, 0) }
  const sampler = new RssSampler(server.pid, options.sampleMs)
  const cpu0 = processCpuMs(server.pid)
  const busy0 = systemBusyMs()
  const client0 = process.cpuUsage()
  const t0 = performance.now()
  sampler.start()
  try {
    const replies = await Promise.all(bodies.map((b) => postPayload(server, `/indexes/${uid}/documents`, 'application/x-ndjson', b, b.length, options.taskTimeoutMs)))
    sampler.indexing()
    const bad = replies.filter((r) => r.status !== 202)
    if (bad.length > 0) throw new Error(`POST /indexes/${uid}/documents answered ${bad.map((r) => `${r.status} ${r.text.slice(0, 300)}`).join('; ')}`)
    result.acceptSeconds = (Math.max(...replies.map((r) => r.at)) - t0) / 1000
    result.taskUids = replies.map((r) => (JSON.parse(r.text) as { taskUid: number }).taskUid)
    const { tasks, at, wallAt } = await waitForTasks(server, result.taskUids, { ...STALL_DETECTION, pollMs: options.pollMs, taskTimeoutMs: options.taskTimeoutMs })
    Object.assign(result, taskTimings(tasks, wallAt))
    result.seconds = (at - t0) / 1000
    result.docsPerSecond = docs.length / result.seconds
    result.ok = true
  } catch (err) {
    result.error = (err as Error).message
  } finally {
    result.memory = sampler.stop()
    const t1 = performance.now()
    const cpu1 = processCpuMs(server.pid)
    const busy1 = systemBusyMs()
    const c = process.cpuUsage(client0)
    if (cpu0 !== null && cpu1 !== null) result.serverCpuPercent = (100 * (cpu1 - cpu0)) / (t1 - t0)
    result.otherCpuPercent = otherCpuPercent(elapsed(busy0, busy1), elapsed(cpu0, cpu1), (c.user + c.system) / 1000, t1 - t0)
  }
  if (!server.remote) {
    const disk = diskUsage(server.dbPath)
    result.diskBytes = disk.allocated
    result.diskApparentBytes = disk.apparent
    result.diskByKind = disk.byKind
    result.indexBytes = disk.index
  }
  if (result.ok) {
    const stats = await call<{ numberOfDocuments?: unknown } | null>(server, 'GET', `/indexes/${uid}/stats`, undefined, 30_000)
    const n = stats.body?.numberOfDocuments
    result.numberOfDocuments = typeof n === 'number' ? n : null
  }
  return result
}
