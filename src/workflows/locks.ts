/**
 * Named locks for the read-modify-write of workflows, tags and names. A write reads the current record, derives
 * the index entries to delete from it and commits; two writes of one workflow must not both derive from the same
 * old record, or an index would keep an entry nothing deletes. Each write holds the locks of what it reads until
 * its commit is durable (and visible to the next reader).
 *
 * Deadlock freedom: `hold` takes all its names at once in one global order (the names sort by their tier prefix
 * first, see `lockName`), and a holder only ever asks for more names that sort after every name it holds.
 */

type Release = () => void

export type LockTier = 'name' | 'tag' | 'workflow'
const TIER_ORDER: Record<LockTier, string> = { name: '0', tag: '1', workflow: '2' }

export function lockName(tier: LockTier, key: string): string {
  return `${TIER_ORDER[tier]}:${key}`
}

export class Locks {
  /** For each held name, the tail of its queue: the promise the next taker waits for. */
  private readonly tails = new Map<string, Promise<void>>()

  /** Run `fn` holding every name of `names` (duplicates allowed); released when `fn` settles. */
  async hold<T>(names: string[], fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(names)
    try {
      return await fn()
    } finally {
      release()
    }
  }

  /** Take the names in order; resolves with the function that releases them all. */
  async acquire(names: string[]): Promise<Release> {
    const sorted = [...new Set(names)].sort()
    const releases: Release[] = []
    for (const name of sorted) releases.push(await this.takeOne(name))
    return () => { for (const release of releases.reverse()) release() }
  }

  private async takeOne(name: string): Promise<Release> {
    const previous = this.tails.get(name) ?? Promise.resolve()
    let release!: Release
    const mine = new Promise<void>((resolve) => { release = resolve })
    const tail = previous.then(() => mine)
    this.tails.set(name, tail)
    await previous
    return () => {
      release()
      // The last holder in line leaves no entry behind.
      if (this.tails.get(name) === tail) this.tails.delete(name)
    }
  }

  /** Names held or waited for (for tests: nothing may stay locked after the work is done). */
  get size(): number {
    return this.tails.size
  }
}
