/**
 * The search scenario as the entry runs it: `--repeat` runs (runSearch, each with a fresh data directory), the
 * median of every figure, the noise of the headline figures, issue 4's targets, and search.json and .md.
 */
import { performance } from 'node:perf_hooks'
import { medianResult, noise, repeatInFreshDirs, spreadOf } from '../../harness/repeat.js'
import type { Outcome, RunContext } from '../../harness/scenario.js'
import { repeatLine } from '../../report/header.js'
import { writeSearchResults, type SearchReport } from '../../report/search.js'
import type { SearchOptions } from './options.js'
import { runSearch } from './run.js'
import { computeSearchTargets, searchFailures } from './targets.js'

export async function runSearchScenario(options: SearchOptions, ctx: RunContext): Promise<Outcome> {
  const started = performance.now()
  const { machine } = ctx
  const runs = await repeatInFreshDirs('search', ctx.repeat, ctx.dataParent, (dbPath) => runSearch(options, dbPath))
  const result = medianResult(runs)
  const searchNoise = noise(runs, {
    'indexing docs/s': (r) => r.indexing.docsPerSecond,
    'in-process p50 ms': (r) => r.inProcess.ms?.p50,
    'in-process p99 ms': (r) => r.inProcess.ms?.p99,
    [`QPS at ${options.connections} clients`]: (r) => r.qps?.requestsPerSecond,
    'peak RSS MiB': (r) => r.memory.hwmMiB,
  })
  const report: SearchReport = {
    benchmark: 'search', issue: 4, date: ctx.date, machine, storage: { dataDir: ctx.dataDir, filesystem: ctx.filesystem }, search: result,
    targets: computeSearchTargets(result),
    notes: [
      `The load generator runs on the same ${machine.cpus} cores as the server: QPS is a lower bound for this machine, and the round trip includes the client's own event loop.`,
      'processingTimeMs is the server\'s own figure, an integer number of ms (p50 0 means under 1 ms for at least half of the searches); the round trip and the in-process times are measured with performance.now().',
      'Peak RSS is the server process\'s VmHWM (the kernel\'s high-water mark, all threads, start-up included) at the end of the HTTP part (indexing, latency rounds and QPS window).',
      repeatLine(runs.length, 'search', searchNoise),
    ],
    repeats: runs.length, spread: spreadOf(runs), noise: searchNoise,
    totalSeconds: (performance.now() - started) / 1000,
  }
  const written = await writeSearchResults(ctx.outDir, report)
  return { ...written, failures: searchFailures(result), failureLabel: 'SEARCH SCENARIO FAILED' }
}
