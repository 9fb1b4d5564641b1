/**
 * A bounded queue between a push-style body source (uWebSockets.js `onData`) and an async-iterating consumer.
 * When more than `highWaterMark` bytes wait, the source is paused until the consumer catches up.
 */
export class ChunkQueue implements AsyncIterable<Uint8Array> {
  private chunks: Uint8Array[] = []
  private buffered = 0
  private ended = false
  private failure: Error | null = null
  private waiter: (() => void) | null = null
  private paused = false

  constructor(private readonly pause: () => void, private readonly resume: () => void, private readonly highWaterMark = 1 << 20) {}

  push(chunk: Uint8Array, last: boolean): void {
    if (chunk.byteLength > 0) {
      this.chunks.push(chunk)
      this.buffered += chunk.byteLength
    }
    if (last) this.ended = true
    if (!this.ended && this.buffered > this.highWaterMark && !this.paused) {
      this.paused = true
      this.pause()
    }
    this.wake()
  }

  /** Whether the whole body was received (or the request failed): nothing more will be pushed. */
  get finished(): boolean {
    return this.ended || this.failure !== null
  }

  fail(err: Error): void {
    this.failure = err
    this.wake()
  }

  private wake(): void {
    const w = this.waiter
    this.waiter = null
    w?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    while (true) {
      if (this.chunks.length > 0) {
        const chunk = this.chunks.shift()!
        this.buffered -= chunk.byteLength
        if (this.paused && this.buffered <= this.highWaterMark / 2) {
          this.paused = false
          this.resume()
        }
        yield chunk
        continue
      }
      if (this.failure) throw this.failure
      if (this.ended) return
      await new Promise<void>((resolve) => (this.waiter = resolve))
    }
  }
}
