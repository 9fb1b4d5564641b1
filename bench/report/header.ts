/** What the reports' headers and warnings share: the build measured, how runs were aggregated, when a window was disturbed. */
import type { Machine } from '../harness/machine.js'
import type { noise } from '../harness/repeat.js'

/** Other processes' CPU use (% of one core) above which a window counts as disturbed. */
export const DISTURBED_OTHER_CPU_PERCENT = 15

/** ` · Tessera 0.1.0 @ abc1234` (`+` with local changes), for report headers. */
export function versionTag(machine: Machine): string {
  if (!machine.tessera) return ''
  return ` · Tessera ${machine.tessera}${machine.gitCommit ? ` @ ${machine.gitCommit.slice(0, 7)}${machine.gitDirty ? '+' : ''}` : ''}`
}

/** The report line that says how figures were aggregated over runs, and how noisy they were. */
export function repeatLine(runs: number, name: string, spread: ReturnType<typeof noise>): string {
  if (runs < 2) return 'Figures of one run (`--repeat N` for medians of N runs).'
  const worst = spread.map((s) => `${s.figure} ±${(s.spreadPercent / 2).toFixed(0)} % (${s.min.toFixed(s.median < 10 ? 2 : 0)}–${s.max.toFixed(s.median < 10 ? 2 : 0)})`).join(', ')
  return `Every figure is the median of ${runs} runs (each run: its own fresh server and warm-up); min, median and max of every figure are in ${name}.json. Run-to-run noise (half the max − min range over the median): ${worst || 'n/a'}.`
}
