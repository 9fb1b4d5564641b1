/**
 * A sliding window over a payload file, read a block at a time (bounded memory): the window holds the bytes from
 * the oldest position a scanner still needs (`keepFrom`) to the last byte read. A document larger than a block
 * grows the window to hold it, nothing more.
 */
import { open, type FileHandle } from 'node:fs/promises'

export const DEFAULT_BLOCK_SIZE = 1 << 20

export class FileWindow {
  buf: Buffer
  /** Absolute file offset of `buf[0]`. */
  start = 0
  /** Valid bytes in `buf`. */
  len = 0
  eof = false

  private constructor(readonly fh: FileHandle, readonly size: number, private readonly blockSize: number) {
    this.buf = Buffer.allocUnsafe(Math.max(16, Math.min(blockSize * 2, size + 16)))
  }

  static async open(path: string, blockSize = DEFAULT_BLOCK_SIZE): Promise<FileWindow> {
    const fh = await open(path, 'r')
    try {
      const { size } = await fh.stat()
      return new FileWindow(fh, size, Math.max(1, blockSize))
    } catch (err) {
      await fh.close()
      throw err
    }
  }

  get end(): number {
    return this.start + this.len
  }

  /** Drops the bytes before `keepFrom` and reads the next block; false at the end of the file. */
  async next(keepFrom: number): Promise<boolean> {
    if (this.eof) return false
    const drop = Math.min(Math.max(0, keepFrom - this.start), this.len)
    if (drop > 0) {
      this.buf.copy(this.buf, 0, drop, this.len)
      this.len -= drop
      this.start += drop
    }
    const want = Math.min(this.blockSize, this.size - this.end)
    if (want <= 0) {
      this.eof = true
      return false
    }
    if (this.buf.length - this.len < want) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + want))
      this.buf.copy(grown, 0, 0, this.len)
      this.buf = grown
    }
    let got = 0
    while (got < want) {
      const { bytesRead } = await this.fh.read(this.buf, this.len + got, want - got, this.end + got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    this.len += got
    this.eof = got === 0 || this.end >= this.size
    return got > 0
  }

  async close(): Promise<void> {
    await this.fh.close()
  }
}

/** Reads `[start, end)` of a file whole (one chunk of a payload). */
export async function readRange(path: string, start: number, end: number): Promise<Buffer> {
  const fh = await open(path, 'r')
  try {
    const out = Buffer.allocUnsafe(Math.max(0, end - start))
    let got = 0
    while (got < out.length) {
      const { bytesRead } = await fh.read(out, got, out.length - got, start + got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return got === out.length ? out : out.subarray(0, got)
  } finally {
    await fh.close()
  }
}

/**
 * serde_json's position of byte offset `pos` in the file: line = 1 + newlines before `pos`, column = bytes between
 * the last newline before `pos` and `pos`. Streams the file (only used to word an error).
 */
export async function lineColumnAt(fh: FileHandle, pos: number): Promise<{ line: number; column: number }> {
  const block = Buffer.allocUnsafe(1 << 20)
  let line = 1
  let lineStart = 0
  let offset = 0
  while (offset < pos) {
    const want = Math.min(block.length, pos - offset)
    const { bytesRead } = await fh.read(block, 0, want, offset)
    if (bytesRead === 0) break
    const view = block.subarray(0, bytesRead)
    let k = view.indexOf(0x0a)
    while (k >= 0) {
      line++
      lineStart = offset + k + 1
      k = view.indexOf(0x0a, k + 1)
    }
    offset += bytesRead
  }
  return { line, column: pos - lineStart }
}
