/**
 * The jobs a worker can run. Plain functions of plain data: the pool runs them in worker threads, and the engine
 * runs them inline when it has no pool (see `runJob`).
 */
import { parseJsonBytes, type JsonParse } from '../payload/json.js'
import { parsePayloadChunk, validatePayloadFile, type Document, type PayloadSource, type PayloadValidation } from '../payload/documents.js'
import type { WorkerPool } from './index.js'

export const jobs = {
  /** Parse (and so validate) a JSON body. */
  parseJson(input: { bytes: Uint8Array }): JsonParse {
    return parseJsonBytes(input.bytes)
  },
  /** Read a stored document payload once: count its documents, find chunk boundaries, report the first fault. */
  validatePayload(input: PayloadSource): Promise<PayloadValidation> {
    return validatePayloadFile(input)
  },
  /** The documents of one chunk of a stored payload. */
  parsePayloadChunk(input: PayloadSource & { start: number; end: number; csvHeader?: unknown }): Promise<Document[]> {
    return parsePayloadChunk(input)
  },
}

export type Jobs = typeof jobs

/** Run a job in the pool when there is one, inline otherwise. */
export async function runJob<K extends keyof Jobs>(pool: WorkerPool | undefined, job: K, input: Parameters<Jobs[K]>[0]): Promise<Awaited<ReturnType<Jobs[K]>>> {
  if (pool) return pool.run<typeof input, Awaited<ReturnType<Jobs[K]>>>(job, input)
  return (await (jobs[job] as (i: unknown) => unknown)(input)) as Awaited<ReturnType<Jobs[K]>>
}
