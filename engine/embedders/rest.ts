/**
 * Remote embedders: a JSON request template filled with texts, POSTed to a URL, and a response template that says
 * where the vectors are (Meilisearch's `milli/src/vector/embedder/rest.rs`). `rest` uses the user's templates;
 * `hostedAi` and `localServer` build theirs (see hosted-ai.ts, local-server.ts) and reuse everything here.
 *
 * A request whose template repeats (`["{{text}}", "{{..}}"]`) carries `batchSize` texts (default 10), otherwise
 * one. Documents are split into such batches, sent in parallel up to the concurrency limit; the first failure
 * cancels the other requests of the call. Without `dimensions` in the settings, creating the embedder sends one
 * probe request (`"test"`) and takes the length of the vector it gets.
 */
import { setMaxListeners } from 'node:events'
import { editDistance } from '../errors/edit-distance.js'
import type { Distribution, EmbedderKind } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import {
  EmbedError, couldNotDetermineDimension, documentsFailed, embeddingCount, extractionError, generationFailed, networkError,
  unexpectedDimension, type ConfigurationSource,
} from './errors.js'
import { EmbeddingHttpClient } from './http-client.js'
import { IpPolicy } from './ip-policy.js'
import { ExtractionError, type InjectableValue } from './json-template.js'
import { QueryCache } from './query-cache.js'
import { RESPONSE_PLACEHOLDER, parseRestTemplates, toEmbedding } from './rest-templates.js'
import { estimateTokens } from './request-limiter.js'
import { RequestStats } from './request-stats.js'
import type { EmbedOptions, Embedder, RemoteTuning, ResolvedRuntime } from './types.js'

const DEFAULT_BATCH_SIZE = 10
const DEFAULT_CONCURRENCY = 40

export interface RemoteConfig {
  name: string
  kind: EmbedderKind
  url: string
  request: unknown
  response: unknown
  /** The embedder's own headers; they override the defaults (case-insensitively). */
  headers: Record<string, string>
  apiKey: string | null
  /** Known dimensions (settings or model), else null: probe. */
  dimensions: number | null
  distribution: Distribution | null
  documentTemplate: DocumentTemplate | null
  source: ConfigurationSource
  tuning: RemoteTuning
  /** Rewrites a failure before it is reported (`localServer` turns a 404 into "model not found"). */
  mapError?: (error: EmbedError) => EmbedError
}

/** Header names whose values are secrets, cut out of error messages like the API key. */
const SECRET_HEADER = /auth|key|token|secret|cookie|password/i

function requestHeaders(apiKey: string | null, own: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (apiKey !== null) headers['authorization'] = `Bearer ${apiKey}`
  for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = value
  return headers
}

export class RemoteEmbedder implements Embedder {
  readonly name: string
  readonly kind: EmbedderKind
  readonly distribution: Distribution | null
  readonly documentTemplate: DocumentTemplate | null
  readonly requests = new RequestStats()
  readonly chunkHint: number
  private readonly client: EmbeddingHttpClient
  private readonly request: InjectableValue
  private readonly response: InjectableValue
  private readonly perRequest: number
  private readonly cache: QueryCache
  private readonly mapError: (error: EmbedError) => EmbedError
  private _dimensions: number | null

  private constructor(config: RemoteConfig, runtime: ResolvedRuntime, templates: { request: InjectableValue; response: InjectableValue }) {
    this.name = config.name
    this.kind = config.kind
    this.distribution = config.distribution
    this.documentTemplate = config.documentTemplate
    this.request = templates.request
    this.response = templates.response
    this.perRequest = this.request.repeated ? Math.max(1, config.tuning.batchSize ?? DEFAULT_BATCH_SIZE) : 1
    const concurrency = Math.max(1, config.tuning.maxConcurrentRequests ?? DEFAULT_CONCURRENCY)
    this.chunkHint = this.perRequest * concurrency
    this.cache = new QueryCache(runtime.queryCacheEntries)
    this.mapError = config.mapError ?? ((e) => e)
    this._dimensions = config.dimensions
    const headers = requestHeaders(config.apiKey, config.headers)
    this.client = new EmbeddingHttpClient({
      url: config.url,
      headers,
      secrets: [...(config.apiKey === null ? [] : [config.apiKey]), ...Object.entries(config.headers).filter(([h]) => SECRET_HEADER.test(h)).map(([, v]) => v)],
      source: config.source,
      timeoutMs: runtime.requestTimeoutMs,
      retries: runtime.retries,
      maxRetryDurationMs: runtime.maxRetryDurationMs,
      limits: { concurrency, requestsPerMinute: config.tuning.requestsPerMinute, tokensPerMinute: config.tuning.tokensPerMinute },
      ipPolicy: new IpPolicy(runtime.allowedIpNetworks),
      maxResponseBytes: runtime.maxResponseBytes,
      stats: this.requests,
    })
  }

  /** Build the embedder; probes the dimensions when they are not known. Throws `vector_embedding_error`. */
  static async create(config: RemoteConfig, runtime: ResolvedRuntime, signal?: AbortSignal): Promise<RemoteEmbedder> {
    const templates = parseRestTemplates(config.request, config.response)
    if (templates instanceof EmbedError) throw generationFailed(templates)
    if (config.dimensions === null && runtime.knownDimensions !== undefined) config = { ...config, dimensions: runtime.knownDimensions }
    let embedder: RemoteEmbedder
    try {
      embedder = new RemoteEmbedder(config, runtime, templates)
    } catch (err) {
      if (err instanceof TypeError) throw generationFailed(networkError(`bad uri: ${err.message}`, 'giveUp'))
      throw err
    }
    if (embedder._dimensions === null) {
      try {
        const [probe] = await embedder.embedBatch(['test'], { signal })
        embedder._dimensions = probe!.length
      } catch (err) {
        embedder.client.close()
        if (err instanceof EmbedError) throw generationFailed(couldNotDetermineDimension(err))
        throw err
      }
    }
    return embedder
  }

  get dimensions(): number {
    return this._dimensions!
  }

  async embedDocuments(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return []
    // The first failure cancels the other requests of this call (and the caller's signal cancels them all).
    const controller = new AbortController()
    // Every batch of the call waits on this signal: as many listeners as batches is expected, not a leak.
    setMaxListeners(0, controller.signal)
    const onAbort = () => controller.abort(options.signal!.reason)
    options.signal?.addEventListener('abort', onAbort, { once: true })
    if (options.signal?.aborted) controller.abort(options.signal.reason)
    const call = { signal: controller.signal, deadline: options.deadline }
    const batches: Promise<Float32Array[]>[] = []
    for (let start = 0; start < texts.length; start += this.perRequest) {
      batches.push(this.embedBatch(texts.slice(start, start + this.perRequest), call).catch((err) => {
        if (!controller.signal.aborted) controller.abort(err)
        throw err
      }))
    }
    try {
      return (await Promise.all(batches)).flat()
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason
      if (err instanceof EmbedError) throw documentsFailed(this.name, err)
      throw err
    } finally {
      options.signal?.removeEventListener('abort', onAbort)
      // Settle every batch so none rejects unobserved.
      await Promise.allSettled(batches)
    }
  }

  async embedQuery(text: string, options: EmbedOptions = {}): Promise<Float32Array> {
    return this.cache.through(text, async () => {
      try {
        return (await this.embedBatch([text], options))[0]!
      } catch (err) {
        if (err instanceof EmbedError) throw generationFailed(err)
        throw err
      }
    })
  }

  /** One request for `texts` (at most `perRequest` of them): their vectors, or an `EmbedError`. */
  private async embedBatch(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const body = this.request.inject(texts)
    const tokens = texts.reduce((sum, t) => sum + estimateTokens(t), 0)
    try {
      return await this.client.post(body, (json) => this.extract(json, texts.length), { signal: options.signal, deadline: options.deadline, tokens })
    } catch (err) {
      throw err instanceof EmbedError ? this.mapError(err) : err
    }
  }

  private extract(json: unknown, expected: number): Float32Array[] {
    let vectors: Float32Array[]
    try {
      vectors = this.response.extract(json, toEmbedding, editDistance)
    } catch (err) {
      if (err instanceof ExtractionError) throw extractionError(err.describe('response', RESPONSE_PLACEHOLDER, 'an array of numbers'))
      throw err
    }
    if (vectors.length !== expected) throw embeddingCount(expected, vectors.length)
    const dimensions = this._dimensions
    if (dimensions !== null) for (const v of vectors) if (v.length !== dimensions) throw unexpectedDimension(dimensions, v.length)
    return vectors
  }

  async close(): Promise<void> {
    this.client.close()
  }
}
