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

/** Waits before scenarios: at most 5 s each and 20 s per run, to stay within the run's time budget. */
export class QuietBudget {
  private used = 0

  async wait(): Promise<void> {
    const waited = await waitForQuiet(Math.min(5000, Math.max(0, 20_000 - this.used)))
    this.used += waited
    if (waited > 1000) process.stderr.write(`bench: waited ${(waited / 1000).toFixed(1)} s for other processes to quieten\n`)
  }
}
