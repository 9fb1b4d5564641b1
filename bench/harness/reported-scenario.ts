/**
 * A scenario with a report of its own that runs against targets (tasks, sweeps): `--repeat` runs of it, each from
 * scratch, the median of every figure, the run-to-run noise of its headline figures, and its report written with
 * its charts. A scenario that throws becomes one failure, not a crashed run.
 */
import { performance } from 'node:perf_hooks'
import type { ChartSpec } from '../report/charts.js'
import { writeReportWithCharts } from '../report/files.js'
import { repeatLine, versionTag } from '../report/header.js'
import { medianResult, noise, repeatRuns, spreadOf } from './repeat.js'
import type { Outcome, RunContext } from './scenario.js'
import { openTarget, type Target } from './target.js'

export interface ReportedScenario<R> {
  name: 'tasks' | 'sweeps' | 'concurrency'
  title: string
  run(open: (part: string) => Promise<Target>): Promise<R>
  markdown(result: R): string
  failures(result: R): string[]
  charts(result: R): Record<string, ChartSpec>
  /** The headline figures whose run-to-run spread the report states. */
  noise: Record<string, (result: R) => number | null | undefined>
}

/**
 * Run `scenario` (against fresh servers of this build, or the `--url` server) and write `<out>/<name>.json` and
 * `<name>.md` with its charts.
 */
export async function runReported<R>(scenario: ReportedScenario<R>, ctx: RunContext): Promise<Outcome> {
  const started = performance.now()
  const { date, machine, filesystem } = ctx
  let runs: R[]
  try {
    runs = await repeatRuns(scenario.name, ctx.repeat, () => scenario.run((part) => openTarget(ctx.remote, ctx.dataParent, `${scenario.name}-${part}`)))
  } catch (err) {
    return { markdown: `# ${scenario.title}\n\nFAILED: ${(err as Error).message}\n`, failures: [(err as Error).message], json: '', md: '', failureLabel: 'SCENARIO FAILED' }
  }
  const url = ctx.remote?.url ?? null
  const result = medianResult(runs)
  const spread = noise(runs, scenario.noise)
  const header = [
    `# ${scenario.title}`, '',
    `${date} · ${machine.cpus} × ${machine.cpuModel} · Node ${machine.node} · ${machine.platform} ${machine.release} (${machine.arch})${versionTag(machine)}${url ? ` · server ${url} (--url)` : ` · fresh servers of this build, data on ${filesystem}`}`, '',
    repeatLine(runs.length, scenario.name, spread), '',
  ].join('\n')
  const report = { benchmark: scenario.name, issue: 6, date, machine, url, repeats: runs.length, result, spread: spreadOf(runs), noise: spread, runs, totalSeconds: (performance.now() - started) / 1000 }
  const written = await writeReportWithCharts(ctx.outDir, scenario.name, report, `${header}\n${scenario.markdown(result)}`, scenario.charts(result))
  return { ...written, failures: scenario.failures(result), failureLabel: 'SCENARIO FAILED' }
}
