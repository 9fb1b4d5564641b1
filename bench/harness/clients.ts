/**
 * The bench's HTTP/1.1 clients, one request in flight per connection (no pipelining):
 * - `raw` (default): a minimal HTTP/1.1 client on node:net. It writes pre-formatted requests and parses only
 *   the status line, Content-Length / chunked framing and `Connection: close`. Per request it costs a fraction
 *   of what node:http's client costs, which matters because the client shares the machine's 2 cores with the
 *   server: with node:http on both sides the client saturates about as early as the server does, and the
 *   adapters become indistinguishable.
 * - `node`: node:http with an Agent (keepAlive, maxSockets = connections), as a cross-check of the raw client.
 */
import { Agent, request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'

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

/** One connection (raw) or a handle on the shared Agent (node); `send` has at most one request in flight. */
export interface Connection {
  send(spec: RequestSpec): Promise<Reply>
  close(): void
}

/**
 * One keep-alive connection of the raw client, for scenarios that drive requests themselves (the tasks scenario): far
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
export class RawConnection implements Connection {
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
export function nodeConnectionFactory(host: string, port: number, connections: number, extra: Record<string, string> = {}): { open(): Connection; destroy(): void } {
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
