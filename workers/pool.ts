/**
 * The Piscina worker pool, as the engine's WorkerPool interface. Inputs are msgpackr-encoded into a buffer of
 * their own and moved (transferred, not copied) to the worker; results come back the same way.
 */
import { availableParallelism } from 'node:os'
import { Packr } from 'msgpackr'
import { Piscina } from 'piscina'
import type { JobName, WorkerPool } from '../engine/pool/index.js'
import { siblingModule } from '../engine/util/module-path.js'
import { threadExecArgv } from '../engine/util/thread-argv.js'
import { LoadedThreads } from '../engine/util/thread-loading.js'

const packr = new Packr({ moreTypes: true, useRecords: false })

export interface WorkerPoolOptions {
  /** The threads' module (tests start threads of their own); it must call `announceLoaded` once loaded. */
  filename?: URL
}

export function createWorkerPool(threads = availableParallelism(), options: WorkerPoolOptions = {}): WorkerPool {
  const piscina = new Piscina({
    filename: (options.filename ?? siblingModule(import.meta.url, './job-worker')).href,
    // Every thread starts with the server and stays: a thread started by a batch's second chunk spent ~0.5 s loading
    // its modules while the batch waited on it, and one ended after a quiet minute took its compiled (JIT) code with
    // it, so each burst of an ingestion pipeline began cold. Man pages on a fresh server: 2.58 s to 2.24 s (medians
    // of 3), for ~0.15 s more CPU at start-up and 13 MB more resident while idle (115 to 128 MB).
    minThreads: Math.max(1, threads),
    maxThreads: Math.max(1, threads),
    execArgv: threadExecArgv(),
    // A 4 MB stack lets Rhai scripts recurse as deep as Meilisearch allows (1,000 calls) in edit-by-function.
    resourceLimits: { maxYoungGenerationSizeMb: 8, stackSizeMb: 4 },
  })
  // Piscina terminates threads on close and on an aborted job, never waiting for one still loading its modules
  // (it counts its first threads ready from the start): both wait here until they have (engine/util/thread-loading.ts).
  const loaded = new LoadedThreads()
  piscina.on('message', (m: unknown) => loaded.note(m))
  return {
    threads: Math.max(1, threads),
    async run<I, O>(job: JobName, input: I, options: { signal?: AbortSignal } = {}): Promise<O> {
      const { signal } = options
      if (signal?.aborted) throw signal.reason
      if (signal) await loaded.settled(piscina.threads)
      const encoded = packr.pack(input)
      const owned = new Uint8Array(encoded.byteLength)
      owned.set(encoded)
      let result: Uint8Array
      try {
        result = await piscina.run({ job, input: owned }, { transferList: [owned.buffer], signal })
      } catch (err) {
        // Piscina rejects a canceled job with its own AbortError; callers expect the signal's reason.
        if (signal?.aborted) throw signal.reason
        throw err
      }
      return packr.unpack(result) as O
    },
    async close() {
      // No thread starts once close has begun (Piscina's closingUp), and both happen in this turn.
      await loaded.settled(piscina.threads)
      await piscina.close({ force: true })
    },
  }
}
