/**
 * Full garbage collections the service asks for itself, on the thread that calls (each thread has its own heap).
 *
 * Why ask: V8 collects when a heap's limit is reached, and a thread that goes quiet after a burst of work keeps what
 * the burst left. After GCIDE's 126k-document batch the HTTP thread held 165 MB of heap (34 MB of it alive) and
 * 184 MB of ArrayBuffers (73 MB alive): the process stayed at 800 MB resident for as long as nothing else ran
 * (25 s measured; V8's idle-time reducer did not step in), and searches then grew it from there. One full
 * collection at the end of the burst gave back 190 MB and cost a 12-60 ms pause.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

// V8 exposes `gc` to contexts made after the flag is set; the flag is process-wide, which only adds a global to
// contexts made from here on (the service makes none).
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as (options?: { execution: 'sync' | 'async' }) => unknown

// No `type` option: Node 20's V8 runs only a young-generation collection for `{ type: 'major', execution: 'sync' }`
// (measured: 33 -> 31 MB used, against 31 -> 3 MB for `gc()`); without it, a collection is a full one.

/** A full collection of this thread's heap, now. */
export function collectNow(): void {
  gc()
}

/** A full collection of this thread's heap, at V8's next task (between this thread's own work). */
export function collectSoon(): void {
  gc({ execution: 'async' })
}

/** This thread's heap in use and the external memory (ArrayBuffers, native bitmaps) its objects hold, bytes. */
export function heapInUse(): number {
  const s = getHeapStatistics()
  return s.used_heap_size + s.external_memory
}

export interface QuietCollectionOptions {
  /** How much the heap must have grown since the last collection for one to pay: bytes. */
  growthBytes: number
  /** How long after the last piece of work the collection runs (each new piece of work postpones it). */
  quietMs: number
  collect?: () => void
  inUse?: () => number
}

/**
 * One collection once a thread's bursts of work end, if they left much behind: `workDone` after each piece of work
 * (a batch, a pool job) arms a timer, `workStarted` at the next one disarms it (a piece of work that pauses, as a
 * batch does between its turns, is never collected in the middle), and when it fires the thread collects if its heap
 * grew by `growthBytes` since the last time. A steady stream of work never collects here (V8 does, as it fills the
 * heap); what this catches is the heap a burst leaves behind when the thread goes quiet.
 */
export class QuietCollection {
  private timer: NodeJS.Timeout | null = null
  private baseline: number
  private readonly collect: () => void
  private readonly inUse: () => number

  constructor(private readonly options: QuietCollectionOptions) {
    this.collect = options.collect ?? collectNow
    this.inUse = options.inUse ?? heapInUse
    this.baseline = this.inUse()
  }

  /** A piece of work begins: no collection while it runs (one armed by the last piece waits for this one's end). */
  workStarted(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  workDone(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.fire(), this.options.quietMs)
    // A pending collection never keeps the thread alive.
    this.timer.unref()
  }

  private fire(): void {
    this.timer = null
    if (this.inUse() - this.baseline < this.options.growthBytes) return
    this.collect()
    this.baseline = this.inUse()
  }
}
