/**
 * Generation of a whole set of documents (a batch's additions, a reindex after a template or model change) as
 * chunks run side by side, one per pool thread: each chunk is one `generateEmbeddings` call (a pool job), sized so
 * that a thread keeps its embedders' requests full (`chunkSizeOf`). The first failure or a cancelation stops the
 * chunks still running; the result is the chunks' results in order, with the request counts summed.
 */
import { setMaxListeners } from 'node:events'
import type { Document } from '../payload/documents.js'
import { embedderKind } from './config.js'
import type { EmbedderConfig } from './factory.js'
import { checkUserVectors, type GenerateInput, type GeneratedEmbeddings } from './generate.js'
import type { PreviousVectors } from './embedding-plan.js'
import type { EmbedderRequests } from './request-stats.js'

/** Runs one chunk (in the pool or inline); rejects with the signal's reason when canceled. */
export type ChunkRunner = (input: GenerateInput, signal: AbortSignal) => Promise<GeneratedEmbeddings>

/** Documents local models embed per chunk: a few model runs, short enough to keep cancelation prompt. */
const LOCAL_CHUNK = 64
/** Documents per chunk when no embedder generates anything (`userProvided` checks only). */
const CHECK_CHUNK = 10_000

/** Documents per chunk for these embedders: a few rounds of what one thread's remote embedder keeps in flight. */
export function chunkSizeOf(embedders: readonly EmbedderConfig[]): number {
  let size = 0
  const visit = (e: EmbedderConfig): number => {
    switch (embedderKind(e.source)) {
      case 'userProvided': return 0
      case 'localHub': return LOCAL_CHUNK
      case 'composite': return visit(e.indexingEmbedder as EmbedderConfig)
      // Four rounds of full requests: fewer pauses at chunk ends, still small enough to cancel promptly.
      default: return 4 * Math.max(1, e.batchSize ?? 10) * Math.max(1, e.maxConcurrentRequests ?? 40)
    }
  }
  for (const e of embedders) size = Math.max(size, visit(e))
  return size === 0 ? CHECK_CHUNK : size
}

export interface GenerateAllInput extends Omit<GenerateInput, 'docs' | 'ids' | 'previous' | 'previousDocs'> {
  docs: readonly Document[]
  ids: readonly string[]
  previous?: readonly (Record<string, PreviousVectors> | null)[]
  previousDocs?: readonly (Document | null)[]
}

export interface GenerateAllOptions {
  signal: AbortSignal
  /** Chunks run at once (the pool's threads). */
  parallel: number
  /** Documents per chunk; default `chunkSizeOf` the embedders. */
  chunkSize?: number
  /** Called with a chunk's document count as each chunk's vectors come back (the batch's progress). */
  onChunk?: (documents: number) => void
}

/**
 * `settings` with its concurrency and rate limits split between `threads` threads working at once (each thread's
 * embedder applies its own share, so together they stay within what the settings allow).
 */
export function shareLimits(settings: EmbedderConfig, threads: number): EmbedderConfig {
  if (threads <= 1) return settings
  const kind = embedderKind(settings.source)
  if (kind === 'composite' && settings.indexingEmbedder) return { ...settings, indexingEmbedder: shareLimits(settings.indexingEmbedder as EmbedderConfig, threads) }
  if (kind !== 'rest' && kind !== 'hostedAi' && kind !== 'localServer') return settings
  const out: EmbedderConfig = { ...settings }
  const share = (v: number | undefined) => (v === undefined ? undefined : Math.max(1, Math.floor(v / threads)))
  out.maxConcurrentRequests = share(settings.maxConcurrentRequests ?? 40)
  if (settings.requestsPerMinute !== undefined) out.requestsPerMinute = share(settings.requestsPerMinute)
  if (settings.tokensPerMinute !== undefined) out.tokensPerMinute = share(settings.tokensPerMinute)
  return out
}

export async function generateAll(input: GenerateAllInput, run: ChunkRunner, options: GenerateAllOptions): Promise<GeneratedEmbeddings> {
  const { docs, ids, previous, previousDocs, ...rest } = input
  const size = options.chunkSize ?? chunkSizeOf(Object.values(input.embedders).map((e) => e.settings))
  const out: GeneratedEmbeddings = { vectors: [], textHashes: [], requests: {} }
  if (docs.length === 0) return out
  const threads = Math.max(1, Math.min(options.parallel, Math.ceil(docs.length / size)))
  const common = { ...rest, embedders: Object.fromEntries(Object.entries(rest.embedders).map(([name, e]) => [name, { ...e, settings: shareLimits(e.settings, threads) }])) }
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  const onAbort = () => controller.abort(options.signal.reason)
  options.signal.addEventListener('abort', onAbort, { once: true })
  if (options.signal.aborted) controller.abort(options.signal.reason)
  const results: GeneratedEmbeddings[] = []
  let failure: GeneratedEmbeddings['error']
  let next = 0
  const worker = async () => {
    while (next < docs.length && failure === undefined && !controller.signal.aborted) {
      const start = next
      next += size
      const end = Math.min(docs.length, start + size)
      const result = await run({
        ...common,
        docs: JSON.stringify(docs.slice(start, end)),
        ids: ids.slice(start, end),
        previous: previous?.slice(start, end),
        previousDocs: previousDocs === undefined ? undefined : JSON.stringify(previousDocs.slice(start, end)),
      }, controller.signal)
      results[start / size] = result
      if (result.error && failure === undefined) {
        failure = result.error
        controller.abort(new Error('embedding failed'))
      } else if (!result.error) options.onChunk?.(end - start)
    }
  }
  try {
    const workers = Array.from({ length: threads }, worker)
    const settled = await Promise.allSettled(workers)
    if (options.signal.aborted) throw options.signal.reason
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (rejected && failure === undefined) throw rejected.reason
  } finally {
    options.signal.removeEventListener('abort', onAbort)
  }
  for (const result of results) {
    if (!result) continue
    out.vectors.push(...result.vectors)
    out.textHashes.push(...result.textHashes)
    for (const [name, r] of Object.entries(result.requests)) out.requests[name] = addRequests(out.requests[name], r)
  }
  if (failure !== undefined) out.error = failure
  return out
}

/**
 * When every embedder is `userProvided` (nothing to generate): their checks, chunk by chunk as `generateAll` would
 * run them (same chunks, so the same error), on the documents as they are: no copy of them (and of the vectors they
 * carry) as JSON for a job. Throws the first failing chunk's error.
 */
export function checkAllUserVectors(input: Pick<GenerateAllInput, 'docs' | 'ids' | 'previous' | 'embedders'>): void {
  const names = Object.keys(input.embedders)
  const checked = names.filter((name) => embedderKind(input.embedders[name]!.settings.source) === 'userProvided')
  for (let start = 0; start < input.docs.length; start += CHECK_CHUNK) {
    const end = Math.min(input.docs.length, start + CHECK_CHUNK)
    for (const name of checked) checkUserVectors(name, names, input.docs.slice(start, end), input.ids.slice(start, end), input.previous?.slice(start, end))
  }
}

function addRequests(a: EmbedderRequests | undefined, b: EmbedderRequests): EmbedderRequests {
  if (!a) return { ...b }
  return { total: a.total + b.total, failed: a.failed + b.failed, lastError: b.lastError ?? a.lastError }
}
