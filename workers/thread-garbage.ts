/**
 * Garbage collection of a search thread's dropped views. A thread that takes a new view of an index drops the old
 * one, but what the old view holds (its SharedArrayBuffers: postings, forward records, frozen facets, the size of
 * the index; the native bitmaps the thread built over it) is freed only when the thread collects, and a search thread
 * allocates so little on its own heap that it may not collect for hundreds of publishes: under a stream of writes and
 * searches RSS grew by ~1.8 MB per publish on a 5,000-document index (300 publishes: 250 → 806 MB).
 *
 * Collecting costs more than its pause: in paired 2-minute soaks (a stream of writes and searches, 64 clients, a
 * loaded 2-core machine) a full collection after every view change kept RSS flat but cut throughput to about a
 * third, one a second to about a half, one every 2 s (incremental) to 60 %, one every 10 s to 80-90 % (RSS 470
 * against 560-620 MB without); why a collection slows the searches after it was not settled. So a thread collects at
 * most once per `COLLECTION_INTERVAL_MS` while views change, and once after the last change, incrementally: the
 * garbage is bounded by what ten seconds of publishes drop.
 */
import { collectSoon } from '../engine/util/garbage.js'

export const COLLECTION_INTERVAL_MS = 10_000

/** A thread's collections of dropped views: at most one per interval, and one after the last drop. */
export class DroppedViews {
  private lastCollection = 0
  private scheduled: NodeJS.Timeout | null = null

  constructor(private readonly intervalMs = COLLECTION_INTERVAL_MS, private readonly collect: () => void = collectSoon) {}

  /** A view was dropped (replaced or forgotten): collect once the current work is done, or when the interval ends. */
  dropped(): void {
    if (this.scheduled) return
    const wait = Math.max(0, this.lastCollection + this.intervalMs - performance.now())
    this.scheduled = setTimeout(() => {
      this.scheduled = null
      this.collect()
      this.lastCollection = performance.now()
    }, wait)
    // A pending collection never keeps the thread alive.
    this.scheduled.unref()
  }
}
