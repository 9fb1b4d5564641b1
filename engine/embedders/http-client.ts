/**
 * The one HTTP client of the remote embedders (`rest`, `hostedAi`, `localServer`): JSON POSTs to one URL with
 * Meilisearch's retry policy (`milli/src/vector/embedder/rest.rs`, `embed` and `check_response`), bounded
 * concurrency and optional rate limits, per-attempt timeouts, cancellation, the outbound IP policy, and request
 * statistics.
 *
 * Retries: up to `retries` more attempts after the first (Meilisearch: 10). After attempt n (from 0) a 5xx, a
 * network error or a body that is not JSON waits 10^n ms, a 429 waits 100 + 10^n ms or the server's `Retry-After`
 * when that is longer; each wait is capped (`maxRetryDurationMs`, Meilisearch: 60 s) and multiplied by a random
 * factor in [0.5, 1] so clients that failed together do not retry together (the `Retry-After` floor is kept).
 * 400, 401 and other 4xx fail at once, as do answers that do not fit the response template. A refused address
 * also fails at once (Meilisearch retries it, which can only fail again). Waits never hold a concurrency slot.
 *
 * Secrets (the API key, header values) are cut out of every message this client produces, including the server's
 * reply quoted in an error, so a server that echoes the key does not leak it into task errors or statistics.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import { isIP } from 'node:net'
import { parseJsonText } from '../payload/json.js'
import { EmbedError, networkError, responseNotJson, statusError, type ConfigurationSource } from './errors.js'
import { IpPolicy, REJECTED_URI, RejectedAddress } from './ip-policy.js'
import { RequestLimiter, sleep, type LimiterOptions } from './request-limiter.js'
import { RequestStats } from './request-stats.js'

export interface HttpClientOptions {
  url: string
  /** Headers of every request, defaults already merged with the embedder's own. */
  headers: Record<string, string>
  /** Strings that must never appear in an error (API keys, header values). */
  secrets: readonly string[]
  /** Which wording remote failures use. */
  source: ConfigurationSource
  /** Timeout of one attempt, from sending to the end of the response body. */
  timeoutMs: number
  /** Attempts after the first. */
  retries: number
  /** Cap of one wait between attempts. */
  maxRetryDurationMs: number
  limits: LimiterOptions
  ipPolicy: IpPolicy
  /** Largest response body read; a longer one fails the attempt (no retry). */
  maxResponseBytes: number
  stats: RequestStats
}

export interface CallOptions {
  /** Cancels the call: in-flight requests are destroyed and waits end, rejecting with the signal's reason. */
  signal?: AbortSignal
  /** Epoch ms after which no retry is attempted and waits are shortened (search queries). */
  deadline?: number
  /** Estimated tokens of the request, for `tokensPerMinute`. */
  tokens?: number
}

/** An attempt with less time than this before the deadline is not made. */
const MIN_ATTEMPT_MS = 5

class AttemptTimeout extends Error {}
class BodyTooLarge extends Error {}

/** ureq's wording for the common transport failures (the OS error text Rust prints), Node's otherwise. */
function transportMessage(err: NodeJS.ErrnoException): string {
  if (err instanceof RejectedAddress) return REJECTED_URI
  if (err instanceof AttemptTimeout) return 'timeout: global'
  switch (err.code) {
    case 'ECONNREFUSED': return 'io: Connection refused (os error 111)'
    case 'ECONNRESET': return 'io: Connection reset by peer (os error 104)'
    case 'EPIPE': return 'io: Broken pipe (os error 32)'
    case 'ETIMEDOUT': return 'io: Connection timed out (os error 110)'
    case 'EHOSTUNREACH': return 'io: No route to host (os error 113)'
    case 'ENETUNREACH': return 'io: Network is unreachable (os error 101)'
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'host not found'
    default: return err.message
  }
}

function parseRetryAfter(value: string | undefined): number | null {
  if (value === undefined) return null
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now())
}

export class EmbeddingHttpClient {
  private readonly target: URL
  private readonly transport: typeof http | typeof https
  private readonly agent: http.Agent
  private readonly limiter: RequestLimiter

  constructor(private readonly options: HttpClientOptions) {
    this.target = new URL(options.url)
    const secure = this.target.protocol === 'https:'
    this.transport = secure ? https : http
    const agentOptions = { keepAlive: true, maxSockets: options.limits.concurrency, lookup: options.ipPolicy.lookup }
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions)
    this.limiter = new RequestLimiter(options.limits)
  }

  /**
   * POST `body` and hand the parsed JSON answer to `handle`, retrying as described above. `handle` throws an
   * `EmbedError` when the answer does not fit (its `retry` decides whether another attempt is made).
   */
  async post<T>(body: unknown, handle: (json: unknown) => T, call: CallOptions = {}): Promise<T> {
    const payload = Buffer.from(JSON.stringify(body))
    const { stats, retries } = this.options
    for (let attempt = 0; ; attempt++) {
      let failure: EmbedError
      try {
        const json = await this.limiter.run(call.tokens ?? 0, call.signal, () => {
          stats.total++
          return this.attempt(payload, call)
        })
        return handle(json)
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason
        const transport = err instanceof RejectedAddress || err instanceof AttemptTimeout || err instanceof BodyTooLarge || (err instanceof Error && 'code' in err)
        if (!(err instanceof EmbedError) && !transport) throw err
        failure = this.redact(err instanceof EmbedError ? err : networkError(transportMessage(err as NodeJS.ErrnoException)))
        if (err instanceof RejectedAddress || err instanceof BodyTooLarge) failure = new EmbedError(failure.fault, failure.detail, 'giveUp')
        stats.failed++
        stats.lastError = failure.reason
      }
      if (failure.retry === 'giveUp' || attempt >= retries) throw failure
      let wait = Math.min(failure.retry === 'retry' ? 10 ** attempt : 100 + 10 ** attempt, this.options.maxRetryDurationMs) * (0.5 + Math.random() * 0.5)
      if (failure.retryAfterMs !== null) wait = Math.max(wait, Math.min(failure.retryAfterMs, this.options.maxRetryDurationMs))
      if (call.deadline !== undefined) {
        const left = call.deadline - Date.now()
        if (left <= 0) throw failure
        wait = Math.min(wait, left)
      }
      await sleep(wait, call.signal)
      // At (or a timer's imprecision before) the deadline, another attempt could only time out: report the last
      // real failure instead.
      if (call.deadline !== undefined && call.deadline - Date.now() < MIN_ATTEMPT_MS) throw failure
    }
  }

  close(): void {
    this.agent.destroy()
  }

  private redact(error: EmbedError): EmbedError {
    const clean = (text: string) => {
      for (const secret of this.options.secrets) if (secret.length >= 4) text = text.split(secret).join('XXX...')
      return text
    }
    const detail = clean(error.detail)
    if (detail === error.detail) return error
    const out = new EmbedError(error.fault, detail, error.retry)
    out.retryAfterMs = error.retryAfterMs
    out.status = error.status
    out.body = error.body === null ? null : clean(error.body)
    return out
  }

  /** One request: resolves with the parsed JSON of a 2xx answer, rejects with an `EmbedError` or a transport error. */
  private attempt(payload: Buffer, call: CallOptions): Promise<unknown> {
    const { hostname } = this.target
    const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
    if (isIP(literal) && !this.options.ipPolicy.allows(literal)) return Promise.reject(new RejectedAddress(literal))
    let timeoutMs = this.options.timeoutMs
    if (call.deadline !== undefined) timeoutMs = Math.max(1, Math.min(timeoutMs, call.deadline - Date.now()))
    return new Promise((resolve, reject) => {
      const headers = { ...this.options.headers, 'content-length': String(payload.length) }
      const req = this.transport.request(this.target, { method: 'POST', headers, agent: this.agent, lookup: this.options.ipPolicy.lookup })
      const timer = setTimeout(() => req.destroy(new AttemptTimeout()), timeoutMs)
      const onAbort = () => req.destroy(call.signal!.reason instanceof Error ? call.signal!.reason : new Error('canceled'))
      call.signal?.addEventListener('abort', onAbort, { once: true })
      const settle = (fn: () => void) => {
        clearTimeout(timer)
        call.signal?.removeEventListener('abort', onAbort)
        fn()
      }
      req.on('error', (err) => settle(() => reject(err)))
      req.on('response', (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > this.options.maxResponseBytes) {
            req.destroy(new BodyTooLarge(`response body is larger than ${this.options.maxResponseBytes} bytes`))
            return
          }
          chunks.push(chunk)
        })
        res.on('error', (err) => settle(() => reject(err)))
        res.on('end', () => settle(() => {
          const text = Buffer.concat(chunks).toString('utf8')
          const status = res.statusCode ?? 0
          if (status < 200 || status > 299) {
            const error = statusError(status, text, this.options.source)
            error.retryAfterMs = parseRetryAfter(res.headers['retry-after'])
            return reject(error)
          }
          const parsed = parseJsonText(text)
          if (parsed.ok) return resolve(parsed.value)
          reject(responseNotJson(parsed.empty ? 'EOF while parsing a value at line 1 column 0' : parsed.message))
        }))
      })
      req.end(payload)
    })
  }
}
