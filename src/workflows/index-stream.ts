/**
 * Walking ordered indexes (`prefix ‖ seq → id`): one stream per index, read in batches that grow while a walk goes
 * on (a page that filters little reads little; one that filters much soon reads in large steps), and the
 * intersection of several streams by leapfrogging: each stream seeks to the largest seq any other has reached,
 * so an index with few entries keeps the walk short however large the others are.
 */
import type { WorkflowDb } from './db.js'
import type { IndexRange } from './layout.js'

export interface IndexEntry {
  seq: number
  id: string
}

const MAX_BATCH = 4096

export class IndexStream {
  private buffer: IndexEntry[] = []
  private pos = 0
  /** Set once a read came back short: nothing in the index lies past the buffer. */
  private exhausted = false

  constructor(
    private readonly db: WorkflowDb,
    private readonly index: IndexRange,
    private batch: number,
  ) {}

  /** The first entry whose seq is at least `min`, or null when the index has none. */
  async seek(min: number): Promise<IndexEntry | null> {
    while (true) {
      const buf = this.buffer
      if (this.pos < buf.length && buf[buf.length - 1]!.seq >= min) {
        let lo = this.pos
        let hi = buf.length - 1
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (buf[mid]!.seq < min) lo = mid + 1
          else hi = mid
        }
        this.pos = lo
        return buf[lo]!
      }
      if (this.exhausted) return null
      // Past the buffer: read on from `min` (a jump when another stream ran ahead), not from the buffer's end.
      const from = buf.length > 0 ? Math.max(min, buf[buf.length - 1]!.seq + 1) : min
      this.buffer = await this.db.entries(this.index, from, this.batch)
      this.pos = 0
      if (this.buffer.length < this.batch) this.exhausted = true
      this.batch = Math.min(this.batch * 2, MAX_BATCH)
      if (this.buffer.length === 0) return null
    }
  }
}

/** The entries present in every stream, in seq order, with seq greater than `after`. */
export async function* intersect(streams: IndexStream[], after: number): AsyncGenerator<IndexEntry> {
  let target = after + 1
  next: while (true) {
    let found: IndexEntry | null = null
    for (const stream of streams) {
      const entry = await stream.seek(target)
      if (!entry) return
      if (entry.seq > target) {
        target = entry.seq
        continue next
      }
      found = entry
    }
    yield found!
    target = found!.seq + 1
  }
}
