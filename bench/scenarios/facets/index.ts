/** The facets scenario as the entry runs it: `--repeat` runs (runFacets), the medians, and facets.json and .md. */
import { performance } from 'node:perf_hooks'
import { medianResult, repeatInFreshDirs, spreadOf } from '../../harness/repeat.js'
import type { Outcome, RunContext } from '../../harness/scenario.js'
import { writeFacetsResults } from '../../report/facets.js'
import { facetsFailures, runFacets, type FacetsOptions } from './run.js'

export async function runFacetsScenario(options: FacetsOptions, ctx: RunContext): Promise<Outcome> {
  const started = performance.now()
  const runs = await repeatInFreshDirs('facets', ctx.repeat, ctx.dataParent, (dbPath) => runFacets(options, dbPath))
  const result = medianResult(runs)
  const written = writeFacetsResults(ctx.outDir, {
    benchmark: 'facets', issue: 5, date: ctx.date, machine: ctx.machine, storage: { dataDir: ctx.dataDir, filesystem: ctx.filesystem },
    facets: result, repeats: runs.length, spread: spreadOf(runs), totalSeconds: (performance.now() - started) / 1000,
  })
  return { ...written, failures: facetsFailures(result), failureLabel: 'FACETS SCENARIO FAILED' }
}
