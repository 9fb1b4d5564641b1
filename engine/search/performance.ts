/**
 * `showPerformanceDetails`: how long each stage of a search took, as Meilisearch's `performanceDetails` object
 * reports it — stage names joined with ` > ` (`search > tokenize`, `search > resolve universe`,
 * `search > keyword search`, `search > format`, then `search` for the whole), durations as Rust prints a
 * `Duration` with `{:.2?}` (`295.29µs`, `3.56ms`, `1.20s`).
 *
 * The stages are Tessera's own: those with a Meilisearch counterpart carry its name; a stage Meilisearch lacks is
 * named after what it does (`search > facet distribution`).
 */
import { performance } from 'node:perf_hooks'

/** Rust's `format!("{:.2?}", duration)`: the largest unit with a non-zero integer part, two decimals. */
export function formatStageDuration(ms: number): string {
  const ns = Math.max(0, ms * 1e6)
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)}s`
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)}ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)}µs`
  return `${ns.toFixed(2)}ns`
}

/** Collects stage durations in the order the stages end (a stage run twice adds up). */
export class StageTimer {
  private readonly stages = new Map<string, number>()

  constructor(private readonly prefix: string = 'search') {}

  /** Run `fn` as the stage `name` (under the timer's prefix) and record its duration. */
  time<T>(name: string, fn: () => T): T {
    const start = performance.now()
    try {
      return fn()
    } finally {
      this.record(`${this.prefix} > ${name}`, performance.now() - start)
    }
  }

  /** Record a duration measured elsewhere, under its full name. */
  record(fullName: string, ms: number): void {
    this.stages.set(fullName, (this.stages.get(fullName) ?? 0) + ms)
  }

  /** The `performanceDetails` object, the whole search last (`totalMs`). */
  details(totalMs: number): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [name, ms] of this.stages) out[name] = formatStageDuration(ms)
    out[this.prefix] = formatStageDuration(totalMs)
    return out
  }
}
