/**
 * A real embedding server on 127.0.0.1 for tests: it speaks the OpenAI embeddings API, Ollama's `/api/embed` and
 * `/api/embeddings`, and two custom REST shapes, and answers with deterministic vectors (a hashed bag of words,
 * normalized: texts sharing words get close vectors). Tests can slow it down, script failures (status codes with
 * `Retry-After`, garbage JSON, wrong dimensions, hanging answers), require an API key, and read back every request
 * it received (path, headers, parsed body).
 *
 * Routes (POST):
 *   /v1/embeddings   {model, input: string | string[], dimensions?} → {object, data: [{object, index, embedding}], model, usage}
 *   /api/embed       {model, input: string | string[]}              → {model, embeddings: number[][]}
 *   /api/embeddings  {model, prompt}                                → {embedding: number[]}
 *   /single          {input: {content}}                             → {result: {vector}}
 *   /batch           {texts: [{text}, …]}                           → {items: [{embedding: {values}}, …]}
 * Ollama routes answer 404 for a model not in `ollamaModels`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer, taking the place of the normal one for the next request. */
export interface Fault {
  /** Answer with this status (and `body`, default `{"error":"scripted failure"}`). */
  status?: number
  body?: string
  /** `Retry-After` header value (seconds or an HTTP date). */
  retryAfter?: string
  /** Answer 200 with a body that is not JSON. */
  garbage?: boolean
  /** Answer normally but with vectors of this length. */
  dimensions?: number
  /** Wait this long before answering. */
  delayMs?: number
  /** Never answer (the client must time out or cancel). */
  hang?: boolean
}

export interface RecordedRequest {
  path: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
  at: number
}

/** FNV-1a, 32 bits. */
function hash(word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/**
 * The server's vector of `text`: each word adds ±1 at a hashed position; the sum is normalized. A different `salt`
 * gives unrelated vectors (another "model").
 */
export function embedText(text: string, dimensions: number, salt = ''): number[] {
  const v = new Array<number>(dimensions).fill(0)
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  for (const word of words) {
    const h = hash(salt + word)
    v[h % dimensions] += (h >>> 16) & 1 ? 1 : -1
  }
  if (words.length === 0) v[0] = 1
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6)
}

export class EmbeddingServer {
  /** Length of the vectors answered (OpenAI's `dimensions` in a request overrides it). */
  dimensions = 8
  /** Mixed into the hash of every word: two servers with different salts are two different "models". */
  salt = ''
  /** Delay of every answer. */
  latencyMs = 0
  /** When set, requests need `Authorization: Bearer <apiKey>` or get a 401. */
  apiKey: string | null = null
  /** Models the Ollama routes know. */
  ollamaModels = new Set(['nomic-embed-text'])
  /** Scripted answers, used first-in first-out, one per request. */
  readonly faults: Fault[] = []
  readonly requests: RecordedRequest[] = []
  inFlight = 0
  maxInFlight = 0
  private readonly hanging = new Set<ServerResponse>()

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(options: { dimensions?: number; latencyMs?: number } = {}): Promise<EmbeddingServer> {
    let instance: EmbeddingServer | null = null
    const server = createServer((req, res) => void instance!.handle(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    instance = new EmbeddingServer(server, `http://127.0.0.1:${port}`)
    if (options.dimensions !== undefined) instance.dimensions = options.dimensions
    if (options.latencyMs !== undefined) instance.latencyMs = options.latencyMs
    return instance
  }

  /** Requests to `path`, in order. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path)
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy()
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // recorded as text
    }
    const path = (req.url ?? '/').split('?')[0]!
    this.requests.push({ path, headers: req.headers, body, at: Date.now() })
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    res.on('close', () => this.inFlight--)
    const fault = this.faults.shift()
    if (fault?.hang) {
      this.hanging.add(res)
      return
    }
    const delay = fault?.delayMs ?? this.latencyMs
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
    if (fault?.status !== undefined) return this.send(res, fault.status, fault.body ?? '{"error":"scripted failure"}', fault.retryAfter)
    if (fault?.garbage) return this.send(res, 200, 'this is not JSON {')
    if (this.apiKey !== null && req.headers.authorization !== `Bearer ${this.apiKey}`) {
      return this.send(res, 401, JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization ?? 'none'}` } }))
    }
    const answer = this.answer(path, body, fault?.dimensions)
    this.send(res, answer.status, JSON.stringify(answer.body))
  }

  private send(res: ServerResponse, status: number, body: string, retryAfter?: string): void {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter
    res.writeHead(status, headers).end(body)
  }

  private answer(path: string, body: unknown, dimensions?: number): { status: number; body: unknown } {
    const b = (body ?? {}) as Record<string, unknown>
    const dims = (requested?: unknown) => dimensions ?? (typeof requested === 'number' ? requested : this.dimensions)
    const texts = (input: unknown): string[] | null => (typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? input : null)
    switch (path) {
      case '/v1/embeddings': {
        const input = texts(b.input)
        if (input === null) return { status: 400, body: { error: { message: "'input' is a required property" } } }
        const data = input.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t, dims(b.dimensions), this.salt) }))
        return { status: 200, body: { object: 'list', data, model: b.model, usage: { prompt_tokens: 0, total_tokens: 0 } } }
      }
      case '/api/embed': case '/api/embeddings': {
        if (typeof b.model !== 'string' || !this.ollamaModels.has(b.model)) return { status: 404, body: { error: `model "${String(b.model)}" not found, try pulling it first` } }
        if (path === '/api/embeddings') {
          if (typeof b.prompt !== 'string') return { status: 400, body: { error: 'prompt is required' } }
          return { status: 200, body: { embedding: embedText(b.prompt, dims(), this.salt) } }
        }
        const input = texts(b.input)
        if (input === null) return { status: 400, body: { error: 'input is required' } }
        return { status: 200, body: { model: b.model, embeddings: input.map((t) => embedText(t, dims(), this.salt)) } }
      }
      case '/single': {
        const content = (b.input as { content?: unknown } | undefined)?.content
        if (typeof content !== 'string') return { status: 400, body: { error: 'expected {"input": {"content": string}}' } }
        return { status: 200, body: { result: { vector: embedText(content, dims(), this.salt) } } }
      }
      case '/batch': {
        const items = b.texts
        if (!Array.isArray(items) || !items.every((i) => typeof (i as { text?: unknown })?.text === 'string')) {
          return { status: 400, body: { error: 'expected {"texts": [{"text": string}]}' } }
        }
        return { status: 200, body: { items: items.map((i) => ({ embedding: { values: embedText((i as { text: string }).text, dims(), this.salt) } })) } }
      }
      default:
        return { status: 404, body: { error: `no route ${path}` } }
    }
  }
}
