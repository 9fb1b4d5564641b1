/** Sending a fuzz input: over fetch, or as raw bytes on a socket. */
import net from 'node:net'
import type { FuzzInput } from './inputs.js'

export interface Outcome {
  /** HTTP status, or null when none came back (connection closed or reset, or no answer in time). */
  status: number | null
  /** No answer and no close within the bound. */
  hung: boolean
  note?: string
}

/** How long an input may take before it counts as hung (a bound on a loaded machine, not a speed figure). */
export const ANSWER_BOUND_MS = 30_000

export async function send(port: number, input: FuzzInput, boundMs = ANSWER_BOUND_MS): Promise<Outcome> {
  return input.kind === 'raw' ? sendRaw(port, input.bytes) : sendHttp(port, input, boundMs)
}

async function sendHttp(port: number, input: Extract<FuzzInput, { kind: 'http' }>, boundMs: number): Promise<Outcome> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${input.path}`, {
      method: input.method,
      headers: input.headers,
      body: input.body && input.method !== 'GET' && input.method !== 'HEAD' ? input.body : undefined,
      signal: AbortSignal.timeout(boundMs),
    })
    await res.arrayBuffer()
    return { status: res.status, hung: false }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } }
    if (e.name === 'TimeoutError') return { status: null, hung: true }
    // Refused framing or an oversize body may close the connection before fetch reads an answer.
    return { status: null, hung: false, note: e.cause?.code ?? e.message }
  }
}

/**
 * Raw bytes: resolve with the first status line, or when the server closes. A connection left open without an
 * answer is not a failure here (uWS keeps waiting for the rest of a request it cannot parse); the health probe
 * catches a server that stops answering.
 */
function sendRaw(port: number, bytes: Uint8Array): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    const done = (outcome: Outcome) => { clearTimeout(timer); socket.destroy(); resolve(outcome) }
    const timer = setTimeout(() => done({ status: statusOf(text), hung: false, note: 'left open' }), 2000)
    socket.on('data', (d) => { text += d.toString('latin1') })
    socket.on('error', () => {})
    socket.on('close', () => done({ status: statusOf(text), hung: false }))
    socket.write(bytes)
  })
}

/** The worst status of the answers (pipelined requests get several). */
function statusOf(text: string): number | null {
  const all = [...text.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)].map((m) => Number(m[1]))
  return all.length === 0 ? null : Math.max(...all)
}
