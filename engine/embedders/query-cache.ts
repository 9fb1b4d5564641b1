/**
 * The search query embedding cache (`--experimental-embedding-cache-entries`): per embedder, the vectors of the
 * last N distinct query texts, least recently used evicted first. 0 entries (the default) disables it. Only
 * queries are cached: documents are embedded once per change anyway.
 */
export class QueryCache {
  private readonly entries = new Map<string, Float32Array>()

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size
  }

  get(text: string): Float32Array | undefined {
    const vector = this.entries.get(text)
    if (vector === undefined) return undefined
    // Re-inserting moves the entry to the end of the map's order: the most recently used.
    this.entries.delete(text)
    this.entries.set(text, vector)
    return vector
  }

  set(text: string, vector: Float32Array): void {
    if (this.capacity <= 0) return
    this.entries.delete(text)
    this.entries.set(text, vector)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
  }

  /** The cached vector of `text`, or `compute`'s (then cached). A copy is returned so callers cannot alter the cache. */
  async through(text: string, compute: () => Promise<Float32Array>): Promise<Float32Array> {
    const hit = this.get(text)
    if (hit !== undefined) return hit.slice()
    const vector = await compute()
    this.set(text, vector.slice())
    return vector
  }
}
