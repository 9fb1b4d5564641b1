/**
 * A small file system for disk-full tests: a tmpfs mounted on a fresh directory (needs root and a kernel that lets
 * this process mount; `available()` says why not otherwise, for the test to skip), filled and freed on demand.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, openSync, writeSync, closeSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface SmallDisk {
  path: string
  /** Write filler until the file system is full (or has only `leave` bytes free); returns the bytes written. */
  fill(leave?: number): number
  /** Remove the filler. */
  free(): void
  freeBytes(): number
  unmount(): void
}

/** Mount a tmpfs of `megabytes` MB, or say why it cannot be mounted here. */
export function smallDisk(megabytes: number): SmallDisk | string {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  const path = mkdtempSync(join(tmpdir(), 'tessera-small-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', path], { stdio: 'pipe' })
  } catch (err) {
    rmSync(path, { recursive: true, force: true })
    return `cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`
  }
  const filler = join(path, 'filler')
  const freeBytes = () => { const s = statfsSync(path); return Number(s.bavail) * Number(s.bsize) }
  return {
    path,
    freeBytes,
    fill(leave = 0) {
      const fd = openSync(filler, 'a')
      const chunk = Buffer.alloc(256 << 10, 1)
      let written = 0
      try {
        while (freeBytes() > leave + chunk.length) written += writeSync(fd, chunk)
        if (leave > 0) return written
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      } finally {
        closeSync(fd)
      }
      // The last partial chunk: whatever a page or two left.
      try { const fd2 = openSync(filler, 'a'); try { for (;;) written += writeSync(fd2, chunk, 0, 4096) } finally { closeSync(fd2) } } catch { /* full */ }
      return written
    },
    free() {
      rmSync(filler, { force: true })
    },
    unmount() {
      try { execFileSync('umount', [path], { stdio: 'pipe' }) } catch { execFileSync('umount', ['-l', path], { stdio: 'pipe' }) }
      rmSync(path, { recursive: true, force: true })
    },
  }
}
