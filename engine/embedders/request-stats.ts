/**
 * Per-embedder request counters, as Meilisearch reports them in a batch's `stats.embedderRequests`
 * (`{ total, failed, lastError }`): every attempt counts in `total`, every failed attempt (retried or not) in
 * `failed`, and `lastError` is the last failure's `{fault}: {detail}` text. A canceled request counts in neither.
 */
export interface EmbedderRequests {
  total: number
  failed: number
  lastError: string | null
}

export class RequestStats implements EmbedderRequests {
  total = 0
  failed = 0
  lastError: string | null = null

  /** A plain copy (what a worker sends back with its results). */
  snapshot(): EmbedderRequests {
    return { total: this.total, failed: this.failed, lastError: this.lastError }
  }

  /** The counts since the last call, then start again from zero (per batch of tasks). */
  take(): EmbedderRequests {
    const out = this.snapshot()
    this.total = 0
    this.failed = 0
    this.lastError = null
    return out
  }
}
