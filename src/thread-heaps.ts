/**
 * The V8 heap setting of the threads the service starts (search threads, the worker pool, the writer).
 *
 * Why: a search thread under load allocated a few MB per second of short-lived objects, and V8 started with an
 * old generation limit of ~16 MB, so it began a mark-compact every 150-500 ms per thread (20-24 in ten seconds at
 * 16 clients on man pages), most of it on V8's helper threads: they took ~1 s of CPU each in a 14 s window, about
 * as much as one search thread. A first limit of 64 MB lets the heaps grow to their working size before marking
 * starts: server CPU per search 6.3-7.6 ms to 4.9-6.0 ms, peak RSS +20 MB (three alternating runs each, 16
 * clients, the man pages corpus). 128 MB bought nothing more.
 *
 * The flag is read when an isolate is made, so setting it at run time reaches every thread started afterwards
 * but not the HTTP thread's own isolate (which allocates little). A `--initial-old-space-size` or
 * `--initial-heap-size` given to node wins. GC flags that change how the collector runs (`--single-threaded-gc`)
 * must not be set at run time: V8 aborts.
 */
import { setFlagsFromString } from 'node:v8'

export const INITIAL_OLD_SPACE_MB = 64

/** The flags to set for `execArgv` (node's own arguments): none when node was given an initial heap size. */
export function threadHeapFlags(execArgv: readonly string[]): string[] {
  const given = execArgv.some((arg) => /^--initial[-_](old[-_]space|heap)[-_]size(=|$)/.test(arg))
  return given ? [] : [`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`]
}

/** Apply the setting before any thread starts. */
export function configureThreadHeaps(execArgv: readonly string[] = process.execArgv): void {
  for (const flag of threadHeapFlags(execArgv)) setFlagsFromString(flag)
}
