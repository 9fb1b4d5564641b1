/**
 * The disk under the data directories: its filesystem, the latency of a durable append on it (what every group
 * commit pays), and how much a data directory holds, by kind of file.
 */
import { closeSync, fdatasyncSync, lstatSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

/** The filesystem type holding `path` (from /proc/mounts, longest matching mount point), or 'unknown'. */
export function filesystemOf(path: string): string {
  try {
    let best = { mount: '', type: 'unknown' }
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [, mount, type] = line.split(' ')
      if (!mount || !type) continue
      const inside = path === mount || path.startsWith(mount.endsWith('/') ? mount : mount + '/')
      if (inside && mount.length > best.mount.length) best = { mount, type }
    }
    return best.type
  } catch {
    return 'unknown'
  }
}

/** Latency of appending 512 bytes + fdatasync in the data directory's filesystem, measured before the scenarios. */
export interface FsyncProbe {
  count: number
  p50Ms: number
  p99Ms: number
  meanMs: number
}

/**
 * Latency of an append + fdatasync in `dir` (what every group commit pays, in RocksDB's write-ahead log), for up
 * to `count` appends or `maxMs`: durable registration throughput is bounded by it, and on virtual disks it
 * drifts from run to run.
 */
export function probeFsync(dir: string, count = 300, maxMs = 1000): FsyncProbe {
  const file = join(dir, 'fsync-probe')
  const fd = openSync(file, 'a')
  const block = Buffer.alloc(512, 0x61)
  const samples: number[] = []
  const start = performance.now()
  try {
    while (samples.length < count && performance.now() - start < maxMs) {
      const t = performance.now()
      writeSync(fd, block)
      fdatasyncSync(fd)
      samples.push(performance.now() - t)
    }
  } finally {
    closeSync(fd)
    rmSync(file, { force: true })
  }
  samples.sort((a, b) => a - b)
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil(p * samples.length) - 1)]!
  return { count: samples.length, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: samples.reduce((a, b) => a + b, 0) / samples.length }
}

/** A file's kind for the disk breakdown: `<dir>/*.sst`, `<dir>/*.log` (RocksDB's write-ahead log), `<dir>/MANIFEST*`, .... */
function fileKind(dir: string, name: string): string {
  const ext = /\.([a-z]+)$/i.exec(name)
  const base = /^[A-Z]+/.exec(name)
  return `${dir || '.'}/${ext ? `*.${ext[1]!.toLowerCase()}` : base ? `${base[0]}*` : '*'}`
}

/** The service's upload staging directory: payloads waiting for (or kept after) their task, not the index. */
const PAYLOADS_DIR = 'payloads'

/**
 * Bytes allocated (st_blocks × 512) and apparent size of everything under `dir`; apparent bytes by file kind; and
 * `index`, the apparent size without the payload staging directory.
 */
export function diskUsage(dir: string): { allocated: number; apparent: number; index: number; byKind: Record<string, number> } {
  let allocated = 0
  let apparent = 0
  let index = 0
  const byKind: Record<string, number> = {}
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name
      const st = lstatSync(join(dir, r))
      if (st.isDirectory()) walk(r)
      else {
        allocated += st.blocks * 512
        apparent += st.size
        if (r.split('/')[0] !== PAYLOADS_DIR) index += st.size
        const kind = fileKind(rel, name)
        byKind[kind] = (byKind[kind] ?? 0) + st.size
      }
    }
  }
  try { walk('') } catch { /* vanished files: partial */ }
  return { allocated, apparent, index, byKind }
}
