/**
 * The search scenario's throughput windows: for each client count (1, 4, 16, 64 by default; 16 is the headline),
 * that many keep-alive clients each with one search in flight, cycling through the query mix, for a warm-up and a
 * window (harness/load.ts), each with a progress bar.
 */
import type { Reply } from '../../harness/clients.js'
import { runLoad, type LoadResult } from '../../harness/load.js'
import { clocked, progress } from '../../harness/progress.js'
import type { BenchServer } from '../../harness/server.js'
import { qpsClientCounts, type SearchOptions } from './options.js'

/** One window per client count, in increasing order. */
export async function measureQps(server: BenchServer, uid: string, bodies: string[], options: SearchOptions): Promise<LoadResult[]> {
  const windows: LoadResult[] = []
  for (const clients of qpsClientCounts(options)) {
    const bar = progress(`search, QPS with ${clients} client${clients === 1 ? '' : 's'}`, options.qpsWarmupSeconds + options.qpsSeconds)
    const window = await clocked(bar, () => runLoad({
      host: server.host, port: server.port, headers: server.headers, connections: clients,
      warmupMs: options.qpsWarmupSeconds * 1000, durationMs: options.qpsSeconds * 1000, maxRequests: 100_000_000, client: 'raw',
      request: (seq) => ({ method: 'POST', path: `/indexes/${uid}/search`, body: bodies[seq % bodies.length]! }),
      ok: (reply: Reply) => reply.status === 200,
      serverPid: server.pid,
    }))
    bar.done(`${Math.round(window.requestsPerSecond)} queries/s, p50 ${window.latencyMs.p50.toFixed(1)} ms, p99 ${window.latencyMs.p99.toFixed(1)} ms, ${window.serverCpuPercent === null ? '' : `server CPU ${Math.round(window.serverCpuPercent)} %, `}${window.errors} errors`)
    windows.push(window)
  }
  return windows
}
