/**
 * Terminating a thread only once it has loaded its modules. roaring registers its native addon through V8's older
 * API, and a `worker.terminate()` that lands while a thread is loading it aborts the whole process (`FATAL ERROR:
 * v8::ToLocalChecked Empty MaybeLocal`, in `node_register_module_v115`): a server stopped right after it started,
 * while its pool's first thread was still loading the engine, died so (adapters.test.ts's SIGTERM test, about 1 run
 * in 10 under load). So every engine thread says when its modules are loaded (`announceLoaded`, or a ready message
 * of its own), and the opening thread terminates a thread only after that, or once it has exited by itself.
 * Loading either ends or throws (the thread then exits), so the wait is bounded by one thread's start-up.
 */
import { parentPort, threadId, type Worker } from 'node:worker_threads'

/** What a thread posts once its modules are loaded: its id, as Piscina relays every thread's messages on one emitter. */
export interface LoadedMessage {
  threadLoaded: number
}

/**
 * In a thread: its modules are loaded (a module's body runs after its static imports, so call it from there). Said
 * once the loader that runs the body has returned: Piscina loads the pool's module with `require` (in a promise
 * callback), and Node 20 then wraps the evaluated ES module in a CommonJS facade (`CreateRequiredModuleFacade`); a
 * terminate in that step aborts the process as well (seen once: a server refusing a bad dump exited while its first
 * pool thread was there). A microtask runs right after that callback returns; a later turn would never come while an
 * idle Piscina thread blocks in `Atomics.wait`.
 */
export function announceLoaded(): void {
  queueMicrotask(() => parentPort?.postMessage({ threadLoaded: threadId } satisfies LoadedMessage))
}

/** In the opening thread: which threads have said they are loaded. */
export class LoadedThreads {
  private readonly ids = new Set<number>()
  private readonly waiting = new Set<() => void>()

  /** A thread said its modules are loaded. */
  add(id: number): void {
    this.ids.add(id)
    for (const wake of [...this.waiting]) wake()
  }

  /** A message from a thread: `announceLoaded`'s is noted, any other ignored. */
  note(message: unknown): void {
    if (typeof message === 'object' && message !== null && typeof (message as LoadedMessage).threadLoaded === 'number') {
      this.add((message as LoadedMessage).threadLoaded)
    }
  }

  /**
   * Resolves once each of `workers` has said it is loaded or is no longer running (Node sets `threadId` to -1 then).
   * Check and act in the same turn: a thread started after this resolves is not covered.
   */
  async settled(workers: readonly Worker[]): Promise<void> {
    for (;;) {
      const loading = workers.filter((w) => w.threadId >= 0 && !this.ids.has(w.threadId))
      if (loading.length === 0) return
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiting.delete(wake)
          for (const w of loading) w.off('exit', wake)
          resolve()
        }
        this.waiting.add(wake)
        for (const w of loading) w.once('exit', wake)
      })
    }
  }

  /** Terminate `worker` once it has loaded (or exited). */
  async stop(worker: Worker): Promise<void> {
    await this.settled([worker])
    await worker.terminate()
  }
}
