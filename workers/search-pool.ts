/**
 * The search threads (engine/search/threads.ts): a few worker threads and ONE queue of jobs, so a job waits only
 * until any thread is free, never behind a slow search on a thread of its own. Each thread is posted an index's
 * view only when it does not hold that one yet. A thread that dies (a crash, `worker.terminate()`) fails the job it
 * was running with an error (never a hang) and is replaced; jobs waiting in the queue go to the others and the new
 * one. The queue is bounded: past `queueSize` waiting jobs a search is refused with `too_many_search_requests`
 * (503), as Meilisearch's `--experimental-search-queue-size` does.
 */
import { writeFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads'
import { TesseraError } from '../engine/errors/index.js'
import type { DocumentReader, SearchThreads, ThreadAnswer, ThreadJob } from '../engine/search/threads.js'
import type { ThreadMessage } from '../engine/search/thread-run.js'
import { siblingModule } from '../engine/util/module-path.js'
import { threadExecArgv } from '../engine/util/thread-argv.js'
import { LoadedThreads } from '../engine/util/thread-loading.js'

export interface SearchPoolOptions {
  threads: number
  /** Jobs that may wait for a thread; one more is refused. */
  queueSize: number
  /** The thread's module (tests start threads of their own). */
  filename?: URL
  /** Test hooks (src/config.ts): see SearchThreadHooks. */
  hooks?: SearchThreadHooks
}

/**
 * Test hooks, from the environment only (`TESSERA_TEST_SEARCH_THREAD_GATE`, `TESSERA_TEST_SEARCH_THREAD_EXIT`).
 * `gate`: a file; while it exists each thread waits before its next search, and a search that has to wait in the
 * queue makes `<gate>.queued` (a test knows it is queued behind a held one). `exitOn`: a thread whose keyword search
 * has this `q` exits in the middle of it, when it asks for its hits' documents (a real thread dying mid-search).
 */
export interface SearchThreadHooks {
  gate?: string | null
  exitOn?: string | null
}

interface Pending {
  id: number
  job: ThreadJob
  read: DocumentReader
  resolve(answer: ThreadAnswer): void
  reject(err: unknown): void
}

interface Thread {
  worker: Worker
  /** 1 once the answer to the thread's document read is on `port`. */
  flag: Int32Array
  port: MessagePort
  /** The view serial this thread holds per index. */
  holds: Map<number, string>
  running: Pending | null
  /**
   * When the thread had loaded its modules (it posts so first; common clock: `performance.timeOrigin + now`), null
   * before: jobs go only to ready threads. A search that joined the queue before its thread was ready counts its
   * time from then: loading the engine in a new thread (the first search starts them; a dead one is replaced) is not
   * the search's time.
   */
  readyAt: number | null
}

export function createSearchThreads(options: SearchPoolOptions): SearchThreads {
  const filename = options.filename ?? siblingModule(import.meta.url, './search-thread')
  const queue: Pending[] = []
  const threads: Thread[] = []
  let nextId = 0
  let closed = false
  // Close terminates a thread only once it is ready: never while it loads roaring (engine/util/thread-loading.ts).
  const loaded = new LoadedThreads()

  const start = (): Thread => {
    const flag = new Int32Array(new SharedArrayBuffer(4))
    const channel = new MessageChannel()
    const hooks = { gate: options.hooks?.gate ?? null, exitOn: options.hooks?.exitOn ?? null }
    const worker = new Worker(filename, { workerData: { flag, port: channel.port2, hooks }, transferList: [channel.port2], execArgv: threadExecArgv() })
    const thread: Thread = { worker, flag, port: channel.port1, holds: new Map(), running: null, readyAt: null }
    worker.on('message', (m: { ready?: true; id: number; read?: number[]; answer?: ThreadAnswer }) => {
      if (m.ready) {
        loaded.add(worker.threadId)
        thread.readyAt = performance.timeOrigin + performance.now()
        dispatch()
        return
      }
      const pending = thread.running
      if (!pending || pending.id !== m.id) return
      if (m.read) {
        let docs: ReturnType<DocumentReader> = null
        try {
          docs = pending.read(m.read)
        } catch {
          // Read as changed documents: the search runs again, and in the end on the HTTP thread, which reports it.
        }
        thread.port.postMessage(docs, docs ? [docs.bytes.buffer as ArrayBuffer, docs.ends.buffer as ArrayBuffer] : [])
        Atomics.store(flag, 0, 1)
        Atomics.notify(flag, 0)
        return
      }
      thread.running = null
      pending.resolve(m.answer!)
      dispatch()
    })
    // An 'error' event is followed by 'exit': the job fails there.
    worker.on('error', () => {})
    worker.on('exit', (code) => {
      const at = threads.indexOf(thread)
      if (at >= 0) threads.splice(at, 1)
      thread.port.close()
      const pending = thread.running
      thread.running = null
      pending?.reject(new TesseraError('internal', `The search thread running this search stopped (exit code ${code}); it was replaced.`))
      if (!closed) {
        threads.push(start())
        dispatch()
      }
    })
    return thread
  }

  const dispatch = () => {
    for (const thread of threads) {
      if (queue.length === 0) return
      if (thread.running || thread.readyAt === null) continue
      const pending = queue.shift()!
      const { job } = pending
      // `processingTimeMs` and the `searchCutoffMs` budget count from here, when a thread takes the search: as
      // Meilisearch starts a search's clock once it holds its search permit (`perform_search`), the wait for a free
      // thread (or for a new thread to load) is not counted. The common clock: each thread has its own origin.
      const startedAt = performance.timeOrigin + performance.now()
      const message: ThreadMessage = { id: pending.id, indexId: job.indexId, serial: job.serial, work: job.work, startedAt, ...(job.documents ? { documents: job.documents } : {}) }
      if (thread.holds.get(job.indexId) !== job.serial) {
        message.view = job.view
        thread.holds.set(job.indexId, job.serial)
      }
      thread.running = pending
      thread.worker.postMessage(message)
    }
  }

  // Threads start with the first search, not with the service: a server that never searches (an ingestion node, a
  // test) does not pay for loading the engine in each of them.
  let started = false

  return {
    threads: options.threads,
    run(job, read) {
      if (closed) return Promise.reject(new TesseraError('internal', 'The search threads are stopped.'))
      if (!started) {
        started = true
        for (let i = 0; i < options.threads; i++) threads.push(start())
      }
      if (queue.length >= options.queueSize) {
        return Promise.reject(new TesseraError('too_many_search_requests', `Too many search requests running at the same time: ${options.queueSize}. Retry after 10s.`))
      }
      return new Promise<ThreadAnswer>((resolve, reject) => {
        queue.push({ id: ++nextId, job, read, resolve, reject })
        dispatch()
        if (options.hooks?.gate && queue.length > 0) writeFileSync(`${options.hooks.gate}.queued`, '')
      })
    },
    forget(indexId) {
      for (const thread of threads) {
        if (!thread.holds.delete(indexId)) continue
        thread.worker.postMessage({ forget: indexId })
      }
    },
    async close() {
      closed = true
      for (const pending of queue.splice(0)) pending.reject(new TesseraError('internal', 'The search threads are stopped.'))
      await Promise.all(threads.map((t) => loaded.stop(t.worker)))
    },
  }
}
