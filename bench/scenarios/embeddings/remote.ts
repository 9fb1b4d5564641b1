/**
 * The embedding server of the embeddings scenario: OpenAI's embeddings API on 127.0.0.1 answering every request
 * after a fixed latency (20 ms by default), with deterministic vectors (a hashed bag of words), so the figures
 * measure Tessera's batching and concurrency, not a model. Counts requests, texts and the most in flight at once.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RemoteEmbeddings {
  url: string
  requests: number
  texts: number
  maxInFlight: number
  close(): Promise<void>
}

function vector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0)
  for (const word of text.toLowerCase().split(/\W+/)) {
    if (!word) continue
    let h = 0x811c9dc5
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0
    v[h % dims]! += (h >>> 16) & 1 ? 1 : -1
  }
  const norm = Math.hypot(...v) || 1
  return v.map((x) => x / norm)
}

export async function startRemoteEmbeddings(latencyMs: number, dims: number): Promise<RemoteEmbeddings> {
  let inFlight = 0
  const state = { requests: 0, texts: 0, maxInFlight: 0 }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      inFlight++
      state.maxInFlight = Math.max(state.maxInFlight, inFlight)
      state.requests++
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string | string[] }
      const inputs = Array.isArray(body.input) ? body.input : [body.input]
      state.texts += inputs.length
      setTimeout(() => {
        inFlight--
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vector(text, dims) })) }))
      }, latencyMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    get requests() { return state.requests },
    get texts() { return state.texts },
    get maxInFlight() { return state.maxInFlight },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
