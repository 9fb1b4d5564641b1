/**
 * Other sessions may share the machine (builds, test suites). Before a scenario, the bench waits a little for the
 * machine to quieten, within a budget for the whole run, so that a busy moment does not land in a measurement.
 */
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { systemBusyMs } from './cpu.js'

/**
 * Wait while the machine is busy (more than `threshold` % of one core over a 300 ms sample), at most `maxMs`.
 * Returns the time waited.
 */
export async function waitForQuiet(maxMs: number, threshold = 15): Promise<number> {
  const start = performance.now()
  while (performance.now() - start < maxMs) {
    const before = systemBusyMs()
    const t = performance.now()
    await sleep(300)
    const after = systemBusyMs()
    if (before === null || after === null) break
    if ((100 * (after - before)) / (performance.now() - t) <= threshold) break
  }
  return performance.now() - start
}

/**
 * Waits before scenarios: at most 5 s each and 20 s per run, to stay within the run's time budget.
 * `TESSERA_BENCH_QUIET_MS` sets the run's budget (0: never wait): the test suite sets it to 0, since its bench runs
 * share the machine with the other test files by design and assert no figure.
 */
export class QuietBudget {
  private used = 0
  private readonly budget = quietBudgetMs(process.env.TESSERA_BENCH_QUIET_MS)

  async wait(): Promise<void> {
    const waited = await waitForQuiet(Math.min(5000, Math.max(0, this.budget - this.used)))
    this.used += waited
    if (waited > 1000) process.stderr.write(`bench: waited ${(waited / 1000).toFixed(1)} s for other processes to quieten\n`)
  }
}

/** The run's budget for waits, from `TESSERA_BENCH_QUIET_MS` (a number of ms) or 20 s. */
export function quietBudgetMs(setting: string | undefined): number {
  const ms = setting === undefined || setting.trim() === '' ? NaN : Number(setting)
  return Number.isFinite(ms) && ms >= 0 ? ms : 20_000
}
