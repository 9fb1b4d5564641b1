/**
 * How fast one embedder may call its server: at most `concurrency` requests in flight, and optionally at most
 * `requestsPerMinute` requests and `tokensPerMinute` (estimated) tokens per minute. The rates are token buckets
 * that refill continuously, holding at most one minute's worth, so a burst after a quiet period is allowed and a
 * sustained load is paced. Every wait ends early, with the signal's reason, when the caller's task is canceled.
 */

/** A rough token count for rate limiting: about four bytes of text per token for English-like text. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4)
}

class Bucket {
  private level: number
  private last = performance.now()
  constructor(private readonly perMinute: number) {
    this.level = perMinute
  }

  /** Milliseconds until `amount` is available (0 = now). A request above the whole budget waits for a full bucket. */
  wait(amount: number): number {
    const now = performance.now()
    this.level = Math.min(this.perMinute, this.level + ((now - this.last) * this.perMinute) / 60_000)
    this.last = now
    const need = Math.min(amount, this.perMinute)
    return this.level >= need ? 0 : Math.ceil(((need - this.level) * 60_000) / this.perMinute)
  }

  consume(amount: number): void {
    this.level -= Math.min(amount, this.perMinute)
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export interface LimiterOptions {
  /** Requests in flight at once. */
  concurrency: number
  /** Requests started per minute; unlimited when absent. */
  requestsPerMinute?: number | null
  /** Estimated tokens sent per minute; unlimited when absent. */
  tokensPerMinute?: number | null
}

export class RequestLimiter {
  private active = 0
  private readonly waiting: (() => void)[] = []
  private readonly requests: Bucket | null
  private readonly tokens: Bucket | null

  constructor(private readonly options: LimiterOptions) {
    this.requests = options.requestsPerMinute ? new Bucket(options.requestsPerMinute) : null
    this.tokens = options.tokensPerMinute ? new Bucket(options.tokensPerMinute) : null
  }

  /** Wait for a slot (and the rate budget for `tokens`), run `fn`, free the slot. */
  async run<T>(tokens: number, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    await this.acquire(signal)
    try {
      await this.pace(tokens, signal)
      return await fn()
    } finally {
      this.release()
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.active < this.options.concurrency) {
      this.active++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort)
        this.active++
        resolve()
      }
      const onAbort = () => {
        const i = this.waiting.indexOf(grant)
        if (i >= 0) this.waiting.splice(i, 1)
        reject(signal!.reason)
      }
      this.waiting.push(grant)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  private release(): void {
    this.active--
    this.waiting.shift()?.()
  }

  private async pace(tokens: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const wait = Math.max(this.requests?.wait(1) ?? 0, this.tokens?.wait(tokens) ?? 0)
      if (wait === 0) break
      await sleep(wait, signal)
    }
    this.requests?.consume(1)
    this.tokens?.consume(tokens)
  }
}
