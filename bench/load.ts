/**
 * The load generator: a closed loop of exactly `connections` keep-alive HTTP/1.1 connections, each with one
 * request in flight at a time (no pipelining), for a warm-up and then a measurement window bounded both in
 * time and in number of successful responses.
 *
 * Two clients:
 * - `raw` (default): a minimal HTTP/1.1 client on node:net. It writes pre-formatted requests and parses only
 *   the status line, Content-Length / chunked framing and `Connection: close`. Per request it costs a fraction
 *   of what node:http's client costs, which matters because the client shares the machine's 2 cores with the
 *   server: with node:http on both sides the client saturates about as early as the server does, and the
 *   adapters become indistinguishable.
 * - `node`: node:http with an Agent (keepAlive, maxSockets = connections), as a cross-check of the raw client.
 */
import { Agent, request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { otherCpuPercent, processCpuMs, systemBusyMs } from './server.js'

export type ClientKind = 'raw' | 'node'

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT'
  /** Path and query string. */
  path: string
  /** A JSON body, sent with Content-Type application/json. */
  body?: string
}

export interface Reply {
  status: number
  body: string
}

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

export interface LatencySummary {
  p50: number
  p90: number
  p95: number
  p99: number
  max: number
  mean: number
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

/** One connection (raw) or a handle on the shared Agent (node); `send` has at most one request in flight. */
export interface Connection {
  send(spec: RequestSpec): Promise<Reply>
  close(): void
}

/**
 * One keep-alive connection of the raw client, for scenarios that drive requests themselves (tasks.ts): far
 * cheaper per request than fetch, so the client does not become the bottleneck on a machine it shares with the
 * server. `headers` are sent with every request (e.g. authorization).
 */
export function rawConnection(host: string, port: number, headers: Record<string, string> = {}): Connection {
  return new RawConnection(host, port, headers)
}

class ProtocolError extends Error {
  code = 'EPROTO'
}

/**
 * A single keep-alive HTTP/1.1 connection over node:net. Requests are sent one at a time; the reply is framed
 * by Content-Length, chunked transfer coding, or the end of the connection.
 */
class RawConnection implements Connection {
  private readonly socket: Socket
  private readonly hostHeader: string
  private buf: Buffer = Buffer.alloc(0)
  private pending: { resolve(r: Reply): void; reject(e: Error): void } | null = null
  private closedError: Error | null = null
  // Framing state of the reply being read.
  private bodyStart = -1
  private status = 0
  private contentLength = -1
  private chunked = false
  private closeAfter = false

  private readonly extraHeaders: string

  constructor(host: string, port: number, headers: Record<string, string> = {}) {
    this.hostHeader = `${host}:${port}`
    this.extraHeaders = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
    this.socket = connect({ host, port, noDelay: true })
    this.socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk])
      this.parse()
    })
    this.socket.on('error', (err) => this.fail(err))
    this.socket.on('close', () => {
      // A reply without framing ends with the connection.
      if (this.pending && this.bodyStart >= 0 && this.contentLength < 0 && !this.chunked) {
        this.finish(this.buf.subarray(this.bodyStart), Buffer.alloc(0))
      }
      this.fail(Object.assign(new Error('connection closed by the server'), { code: 'ECLOSED' }))
    })
  }

  send(spec: RequestSpec): Promise<Reply> {
    if (this.closedError) return Promise.reject(this.closedError)
    if (this.pending) return Promise.reject(new Error('RawConnection: one request at a time'))
    let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\n${this.extraHeaders}`
    if (spec.body !== undefined) head += `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(spec.body)}\r\n\r\n${spec.body}`
    else head += spec.method === 'GET' ? '\r\n' : 'Content-Length: 0\r\n\r\n'
    return new Promise<Reply>((resolve, reject) => {
      this.pending = { resolve, reject }
      this.socket.write(head)
    })
  }

  close(): void {
    this.closedError ??= new Error('connection closed by the client')
    this.socket.destroy()
  }

  private parse(): void {
    if (!this.pending) {
      if (this.buf.length > 0) this.fail(new ProtocolError('data received with no request in flight'))
      return
    }
    if (this.bodyStart < 0) {
      const end = this.buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const lines = this.buf.toString('latin1', 0, end).split('\r\n')
      const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)
      if (!statusLine) return this.fail(new ProtocolError(`bad status line: ${lines[0]}`))
      this.status = Number(statusLine[1])
      this.contentLength = -1
      this.chunked = false
      this.closeAfter = false
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        const value = line.slice(colon + 1).trim().toLowerCase()
        if (name === 'content-length') this.contentLength = Number(value)
        else if (name === 'transfer-encoding') this.chunked = value.includes('chunked')
        else if (name === 'connection') this.closeAfter = value.includes('close')
      }
      this.bodyStart = end + 4
    }
    if (this.chunked) {
      // Decode as far as the buffer goes; wait for more if the last chunk (size 0) is not there yet.
      const parts: Buffer[] = []
      let pos = this.bodyStart
      for (;;) {
        const lineEnd = this.buf.indexOf('\r\n', pos)
        if (lineEnd < 0) return
        const size = parseInt(this.buf.toString('latin1', pos, lineEnd), 16)
        if (Number.isNaN(size)) return this.fail(new ProtocolError('bad chunk size'))
        if (size === 0) {
          // No trailers expected: the last chunk is `0\r\n\r\n`.
          if (this.buf.length < lineEnd + 4) return
          return this.finish(Buffer.concat(parts), this.buf.subarray(lineEnd + 4))
        }
        if (this.buf.length < lineEnd + 2 + size + 2) return
        parts.push(this.buf.subarray(lineEnd + 2, lineEnd + 2 + size))
        pos = lineEnd + 2 + size + 2
      }
    }
    if (this.contentLength >= 0) {
      const end = this.bodyStart + this.contentLength
      if (this.buf.length < end) return
      this.finish(this.buf.subarray(this.bodyStart, end), this.buf.subarray(end))
    }
    // Otherwise the body runs to the end of the connection (see the 'close' handler).
  }

  private finish(body: Buffer, rest: Buffer): void {
    const pending = this.pending!
    this.pending = null
    this.bodyStart = -1
    this.buf = rest
    if (rest.length > 0) this.fail(new ProtocolError('more data than the reply framing says'))
    if (this.closeAfter) this.close()
    pending.resolve({ status: this.status, body: body.toString('utf8') })
  }

  private fail(err: Error): void {
    this.closedError ??= err
    this.socket.destroy()
    const pending = this.pending
    this.pending = null
    pending?.reject(err)
  }
}

/** node:http through a shared keep-alive Agent; the Agent does the connection pooling. */
function nodeConnectionFactory(host: string, port: number, connections: number, extra: Record<string, string> = {}): { open(): Connection; destroy(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
  const send = (spec: RequestSpec) =>
    new Promise<Reply>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...extra }
      if (spec.body !== undefined) {
        headers['content-type'] = 'application/json'
        headers['content-length'] = Buffer.byteLength(spec.body)
      }
      const req = httpRequest({ host, port, method: spec.method, path: spec.path, agent, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(spec.body)
    })
  return { open: () => ({ send, close() {} }), destroy: () => agent.destroy() }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Nearest-rank percentiles (and max, mean) of a list of latencies, ms. */
export function summarize(latencies: number[]): LatencySummary {
  if (latencies.length === 0) return { p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 }
  const sorted = Float64Array.from(latencies).sort()
  // Nearest-rank percentile.
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
  let sum = 0
  for (const l of sorted) sum += l
  return { p50: at(0.5), p90: at(0.9), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]!, mean: sum / sorted.length }
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
