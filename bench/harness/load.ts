/**
 * The load generator: a closed loop of exactly `connections` keep-alive HTTP/1.1 connections (clients.ts), each with
 * one request in flight at a time (no pipelining), for a warm-up and then a measurement window bounded both in
 * time and in number of successful responses.
 */
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { RawConnection, nodeConnectionFactory, type ClientKind, type Connection, type Reply, type RequestSpec } from './clients.js'
import { otherCpuPercent, processCpuMs, systemBusyMs } from './cpu.js'
import { summarize, type LatencySummary } from './latency.js'

export interface LoadOptions {
  host: string
  port: number
  connections: number
  warmupMs: number
  /** Upper bound of the measurement window. */
  durationMs: number
  /** The measurement window also ends after this many successful responses. */
  maxRequests: number
  client: ClientKind
  /** The request to send; `seq` is unique within the run (warm-up included), for unique index uids. */
  request(seq: number): RequestSpec
  /** Whether a reply counts as a success; every other reply is an error. */
  ok(reply: Reply): boolean
  /** The server's pid, to report its CPU use during the measurement window. */
  serverPid?: number
  /** Headers every request carries (e.g. authorization). */
  headers?: Record<string, string>
}

export interface LoadResult {
  client: ClientKind
  connections: number
  warmupMs: number
  /** Actual length of the measurement window. */
  measuredMs: number
  stoppedBy: 'time' | 'count'
  /** Successful responses completed within the measurement window. */
  ok: number
  /** Failed requests (unexpected status or transport error) completed within the measurement window. */
  errors: number
  requestsPerSecond: number
  /** Latency (ms) of the successful responses of the measurement window. */
  latencyMs: LatencySummary
  /** Every successful response of the run: warm-up, window and the in-flight requests drained after it. */
  acknowledged: number
  /** Every failure of the run, by kind (`status 500`, `ECONNRESET`, ...). */
  errorKinds: Record<string, number>
  /** Server CPU time over the window / wall time, in % of one core (may exceed 100: it has several threads). */
  serverCpuPercent: number | null
  /** Same for this (the client) process. */
  clientCpuPercent: number
  /**
   * Same for every other process of the machine (machine-wide busy time minus server and client): well above
   * zero means something else competed for the cores and the figures are disturbed.
   */
  otherCpuPercent: number | null
}

/** Run the closed loop and measure. Resolves once every connection is closed. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { host, port, connections } = options
  const nodeFactory = options.client === 'node' ? nodeConnectionFactory(host, port, connections, options.headers) : null
  const open = (): Connection => (nodeFactory ? nodeFactory.open() : new RawConnection(host, port, options.headers))

  const t0 = performance.now()
  const windowStart = t0 + options.warmupMs
  const windowDeadline = windowStart + options.durationMs
  let phase: 'warmup' | 'measure' | 'done' = 'warmup'
  let windowEnd = windowDeadline
  let stoppedBy: LoadResult['stoppedBy'] = 'time'
  let seq = 0
  let ok = 0
  let errors = 0
  let acknowledged = 0
  const latencies: number[] = []
  const errorKinds: Record<string, number> = {}

  // Phase changes happen on completions (not timers, which run late on a busy event loop): the first
  // completion at or after `windowStart` opens the window, the first one at or after the deadline (or the
  // one reaching `maxRequests`) closes it. Completions after that belong to the drain and are not measured.
  // CPU use is sampled at the actual opening and closing moments.
  let serverCpuAtStart: number | null = null
  let systemBusyAtStart: number | null = null
  let clientCpuAtStart = process.cpuUsage()
  let cpuWallStart = windowStart
  let serverCpuMs: number | null = null
  let clientCpuMs = 0
  let systemCpuMs: number | null = null
  let cpuWallMs = 0
  const endWindow = (now: number, by: LoadResult['stoppedBy']) => {
    phase = 'done'
    windowEnd = Math.min(now, windowDeadline)
    stoppedBy = by
    const serverNow = options.serverPid !== undefined ? processCpuMs(options.serverPid) : null
    serverCpuMs = serverNow !== null && serverCpuAtStart !== null ? serverNow - serverCpuAtStart : null
    const c = process.cpuUsage(clientCpuAtStart)
    clientCpuMs = (c.user + c.system) / 1000
    const systemNow = systemBusyMs()
    systemCpuMs = systemNow !== null && systemBusyAtStart !== null ? systemNow - systemBusyAtStart : null
    cpuWallMs = now - cpuWallStart
  }
  const advance = (now: number) => {
    if (phase === 'warmup' && now >= windowStart) {
      phase = 'measure'
      serverCpuAtStart = options.serverPid !== undefined ? processCpuMs(options.serverPid) : null
      clientCpuAtStart = process.cpuUsage()
      systemBusyAtStart = systemBusyMs()
      cpuWallStart = now
    }
    if (phase === 'measure' && now >= windowDeadline) endWindow(now, 'time')
  }
  const recordError = (kind: string) => {
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
    if (phase === 'measure') errors++
  }

  // A function, not an inline comparison: `phase` changes inside advance() and endWindow(), which TypeScript's
  // narrowing does not see.
  const finished = () => phase === 'done'

  const loop = async () => {
    let conn = open()
    while (!finished()) {
      const spec = options.request(seq++)
      const start = performance.now()
      let reply: Reply
      try {
        reply = await conn.send(spec)
      } catch (err) {
        advance(performance.now())
        recordError((err as NodeJS.ErrnoException).code ?? (err as Error).message)
        conn.close()
        if (finished()) break
        // Do not spin if the server is gone; reconnect after a pause.
        await sleep(10)
        conn = open()
        continue
      }
      const now = performance.now()
      advance(now)
      if (!options.ok(reply)) {
        recordError(`status ${reply.status}`)
        continue
      }
      acknowledged++
      if (phase === 'measure') {
        ok++
        latencies.push(now - start)
        if (ok >= options.maxRequests) endWindow(now, 'count')
      }
    }
    conn.close()
  }

  // A guard against a server that stops answering: give up well after the window should have ended.
  const guard = setTimeout(() => {
    if (phase !== 'done') endWindow(performance.now(), 'time')
  }, options.warmupMs + options.durationMs + 15_000)
  await Promise.all(Array.from({ length: connections }, loop))
  clearTimeout(guard)
  nodeFactory?.destroy()

  const measuredMs = Math.max(0, windowEnd - windowStart)
  const seconds = measuredMs / 1000
  return {
    client: options.client,
    connections,
    warmupMs: options.warmupMs,
    measuredMs,
    stoppedBy,
    ok,
    errors,
    requestsPerSecond: seconds > 0 ? ok / seconds : 0,
    latencyMs: summarize(latencies),
    acknowledged,
    errorKinds,
    serverCpuPercent: serverCpuMs !== null && cpuWallMs > 0 ? (100 * serverCpuMs) / cpuWallMs : null,
    clientCpuPercent: cpuWallMs > 0 ? (100 * clientCpuMs) / cpuWallMs : 0,
    otherCpuPercent: otherCpuPercent(systemCpuMs, serverCpuMs, clientCpuMs, cpuWallMs),
  }
}
