/**
 * A sliding window over a payload, read a block at a time (bounded memory): the window holds the bytes from the
 * oldest position a scanner still needs (`keepFrom`) to the last byte read. A document larger than a block grows
 * the window to hold it, nothing more.
 *
 * A payload is a file (its path) or, for a small payload kept in memory and in the database (files.ts), its bytes:
 * both are read through the same `ByteHandle`, so validation and parsing have one code path.
 */
import { open } from 'node:fs/promises'

export const DEFAULT_BLOCK_SIZE = 1 << 20

/** A payload file's path, or a small payload's bytes. */
export type PayloadInput = string | Uint8Array

/** What the readers need of a file handle (a FileHandle has it; so does `memoryHandle`). */
export interface ByteHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>
  stat(): Promise<{ size: number }>
  close(): Promise<void>
}

/** A read-only handle over bytes in memory. */
function memoryHandle(bytes: Uint8Array): ByteHandle {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return {
    async read(buffer, offset, length, position) {
      const end = Math.min(source.length, position + length)
      return { bytesRead: position >= end ? 0 : source.copy(buffer, offset, position, end) }
    },
    async stat() { return { size: source.length } },
    async close() {},
  }
}

export function openInput(input: PayloadInput): Promise<ByteHandle> {
  return typeof input === 'string' ? open(input, 'r') : Promise.resolve(memoryHandle(input))
}

/** The size of a payload in bytes. */
export async function inputSize(input: PayloadInput): Promise<number> {
  if (typeof input !== 'string') return input.byteLength
  const fh = await openInput(input)
  try { return (await fh.stat()).size } finally { await fh.close() }
}

export class FileWindow {
  buf: Buffer
  /** Absolute file offset of `buf[0]`. */
  start = 0
  /** Valid bytes in `buf`. */
  len = 0
  eof = false

  private constructor(readonly fh: ByteHandle, readonly size: number, private readonly blockSize: number) {
    this.buf = Buffer.allocUnsafe(Math.max(16, Math.min(blockSize * 2, size + 16)))
  }

  static async open(input: PayloadInput, blockSize = DEFAULT_BLOCK_SIZE): Promise<FileWindow> {
    const fh = await openInput(input)
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

/** Reads `[start, end)` of a payload whole (one chunk of it). */
export async function readRange(input: PayloadInput, start: number, end: number): Promise<Buffer> {
  if (typeof input !== 'string') return Buffer.from(input.buffer, input.byteOffset + start, Math.max(0, Math.min(end, input.byteLength) - start))
  const fh = await openInput(input)
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
export async function lineColumnAt(fh: ByteHandle, pos: number): Promise<{ line: number; column: number }> {
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
