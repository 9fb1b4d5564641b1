/**
 * The jobs a worker can run. Plain functions of plain data: the pool runs them in worker threads, and the engine
 * runs them inline when it has no pool (see `runJob`).
 */
import { parseJsonBytes, type JsonParse } from '../payload/json.js'
import { parsePayloadChunk, readPayloadChunk, validatePayloadFile, type PayloadSource, type PayloadValidation } from '../payload/documents.js'
import type { WorkerPool } from './index.js'
import { extractWords, type ExtractedChunk, type ExtractionConfig } from '../inverted/extract.js'
import { encodePostings, type EncodedPostings, type PostingsPartition } from '../inverted/encode-postings.js'
import { prepareDocuments, type PreparedChunk } from '../documents/prepare.js'
import type { EditChunkInput, EditChunkOutput } from '../rhai/index.js'
import type { ChunkRunner, GenerateInput, GeneratedEmbeddings } from '../embedders/index.js'
import type { GraphBuildInput, GraphBuildOutput } from '../vectors/graph-build.js'

/**
 * The embedders (28 of the 62 modules a pool thread loaded: ~55 ms of its ~120) and the HNSW graph builder
 * (hnswlib-node's binary) load with their first job, as the Rhai interpreter does: a pool thread that only prepares
 * chunks (most of them) starts without them, and so does each thread of a server's first batch.
 */
const loadEmbedders = () => import('../embedders/index.js')

export const jobs = {
  /**
   * Validate a JSON body (the value itself is not sent back: values cross threads through msgpackr, which renames
   * `__proto__` keys, so the caller parses a body this job has found valid).
   */
  validateJson(input: { bytes: Uint8Array }): { ok: true } | Extract<JsonParse, { ok: false }> {
    const parsed = parseJsonBytes(input.bytes)
    return parsed.ok ? { ok: true } : parsed
  },
  /** Read a stored document payload once: count its documents, find chunk boundaries, report the first fault. */
  validatePayload(input: PayloadSource): Promise<PayloadValidation> {
    return validatePayloadFile(input)
  },
  /** The documents of one chunk of a stored payload, as JSON text (see `validateJson` for why not objects). */
  async parsePayloadChunk(input: PayloadSource & { start: number; end: number; csvHeader?: unknown }): Promise<string> {
    return JSON.stringify(await parsePayloadChunk(input))
  },
  /** One chunk of a stored payload, ready to store: ids, encodings, fields and words (see documents/prepare.ts). */
  async prepareChunk(input: PayloadSource & { start: number; end: number; csvHeader?: unknown; primaryKey: string | null; extraction: ExtractionConfig }): Promise<PreparedChunk> {
    const { docs, bytes, lines } = await readPayloadChunk(input)
    return prepareDocuments(docs, input.primaryKey, input.extraction, lines ? { bytes, lines } : undefined)
  },
  /**
   * Edit by function over a chunk of documents (JSON text in and out; see rhai/chunk.ts). The Rhai interpreter (27
   * modules) loads with the first edition, not in every pool thread at start-up.
   */
  async editChunk(input: EditChunkInput): Promise<EditChunkOutput> {
    const { editChunk } = await import('../rhai/index.js')
    return editChunk(input)
  },
  /**
   * The vectors of a chunk of documents for an index's embedders (see embedders/generate.ts). A cancelation ends
   * the worker running it (the pool's signal), which closes its requests.
   */
  async generateEmbeddings(input: GenerateInput): Promise<GeneratedEmbeddings> {
    return (await loadEmbedders()).generateEmbeddings(input)
  },
  /** A partition of a batch's postings encoded for storage, its words sorted (see inverted/finalize.ts). */
  encodePostings(input: PostingsPartition): EncodedPostings {
    return encodePostings(input)
  },
  /** A batch's HNSW graph, built from a copy of the published one and the new vectors (see vectors/graph-build.ts). */
  async buildGraph(input: GraphBuildInput): Promise<GraphBuildOutput> {
    const { buildGraphFile } = await import('../vectors/graph-build.js')
    return buildGraphFile(input)
  },
  /** The searchable words of documents given as JSON text (a JSON array). */
  extractWords(input: { docs: string; extraction: ExtractionConfig }): ExtractedChunk {
    return extractWords(JSON.parse(input.docs) as Record<string, unknown>[], input.extraction)
  },
}

export type Jobs = typeof jobs

/** Run a job in the pool when there is one, inline otherwise. */
export async function runJob<K extends keyof Jobs>(pool: WorkerPool | undefined, job: K, input: Parameters<Jobs[K]>[0]): Promise<Awaited<ReturnType<Jobs[K]>>> {
  if (pool) return pool.run<typeof input, Awaited<ReturnType<Jobs[K]>>>(job, input)
  return (await (jobs[job] as (i: unknown) => unknown)(input)) as Awaited<ReturnType<Jobs[K]>>
}

/** Chunks of embedding generation run in the pool when there is one (canceled through it), inline otherwise. */
export function embeddingRunner(pool: WorkerPool | undefined): ChunkRunner {
  if (pool) return (input, signal) => pool.run<GenerateInput, GeneratedEmbeddings>('generateEmbeddings', input, { signal })
  return async (input, signal) => (await loadEmbedders()).generateEmbeddings(input, { signal })
}
