/**
 * The worker pool as the engine sees it. The engine never starts threads itself: the service hands it an
 * implementation (workers/pool.ts, a Piscina pool) or none, in which case the same functions run inline.
 * Inputs and outputs cross the thread boundary msgpackr-encoded in transferred buffers.
 */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly threads: number
  /**
   * Run the named job (see engine/pool/jobs.ts) on `input` in a worker. Aborting `signal` rejects with its reason;
   * a job already running is stopped with its worker thread (a fresh one takes its place).
   */
  run<I, O>(job: JobName, input: I, options?: { signal?: AbortSignal }): Promise<O>
  close(): Promise<void>
}

export type JobName = keyof typeof import('./jobs.js').jobs

export { jobs } from './jobs.js'
