/**
 * A server's memory from /proc (Linux): VmRSS now and VmHWM (the kernel's own peak), read once or sampled over a
 * measured step so that the report can give the peak of each phase (upload, indexing, search).
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

export interface MemoryUsage {
  /** VmRSS of the idle server just before the first request, MiB. */
  idleMiB: number | null
  /** Highest VmRSS sampled (every `sampleMs`) from the first byte sent until the last 202, MiB. */
  peakUploadMiB: number | null
  /** Highest VmRSS sampled from the last 202 until every task finished, MiB. */
  peakIndexingMiB: number | null
  /** VmHWM at the end: the kernel's own peak RSS of the process over its lifetime (start-up included), MiB. */
  hwmMiB: number | null
  samples: number
  sampleMs: number
  /** Every sample: [ms since the first byte sent, VmRSS MiB]. */
  timeline: [number, number][]
}

/** VmRSS and VmHWM of a process in KiB, from /proc/<pid>/status (null where unavailable). */
export function readStatus(pid: number): { rss: number | null; hwm: number | null } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name: string) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)
      return m ? Number(m[1]) : null
    }
    return { rss: field('VmRSS'), hwm: field('VmHWM') }
  } catch {
    return { rss: null, hwm: null }
  }
}

/** KiB as MiB, null kept. */
export const mib = (kib: number | null): number | null => (kib === null ? null : kib / 1024)

/** The process's peak and current resident memory in MiB (VmHWM, VmRSS), or nulls (a remote target, or no /proc). */
export function memoryOf(pid: number | null): { hwmMiB: number | null; rssMiB: number | null } {
  if (pid === null) return { hwmMiB: null, rssMiB: null }
  const { hwm, rss } = readStatus(pid)
  return { hwmMiB: mib(hwm), rssMiB: mib(rss) }
}

/** Samples VmRSS of a process every `sampleMs`, with a peak per phase; VmHWM read at the end. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null
  private phase: 'upload' | 'indexing' = 'upload'
  private peaks = { upload: 0, indexing: 0 }
  private count = 0
  private t0 = 0
  private readonly timeline: [number, number][] = []
  readonly idleKiB: number | null

  constructor(private readonly pid: number, private readonly sampleMs: number) {
    this.idleKiB = readStatus(pid).rss
  }

  start(): void {
    this.t0 = performance.now()
    this.sample()
    this.timer = setInterval(() => this.sample(), this.sampleMs)
  }

  /** From now on samples count towards the indexing peak (the last sample of the upload is taken first). */
  indexing(): void {
    this.sample()
    this.phase = 'indexing'
  }

  stop(): MemoryUsage {
    this.sample()
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    const status = readStatus(this.pid)
    // A zero peak means no sample was read: null, like a missing reading.
    const nonZero = (kib: number | null) => (kib === null || kib === 0 ? null : kib / 1024)
    return {
      idleMiB: nonZero(this.idleKiB),
      peakUploadMiB: nonZero(this.peaks.upload),
      peakIndexingMiB: nonZero(this.peaks.indexing),
      hwmMiB: nonZero(status.hwm),
      samples: this.count,
      sampleMs: this.sampleMs,
      timeline: this.timeline,
    }
  }

  private sample(): void {
    const { rss } = readStatus(this.pid)
    if (rss === null) return
    this.count++
    this.timeline.push([Math.round(performance.now() - this.t0), Math.round(rss / 102.4) / 10])
    if (rss > this.peaks[this.phase]) this.peaks[this.phase] = rss
  }
}
