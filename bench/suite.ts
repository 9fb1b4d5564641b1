/**
 * The benchmark suite's run (bench/run.ts parses the command line, then loads this): the chosen scenarios
 * (bench/scenarios/), each against its own server process and fresh data directory (or `--url` for search, tasks
 * and sweeps), in this order:
 * - `register`, `cancel`, `health` (both HTTP adapters) and `documents`: bench/results/foundation.json and .md;
 * - the scenarios with reports of their own (`REPORTED`): a JSON and Markdown report each (with SVG charts), every
 *   figure the median of `--repeat` runs.
 * The reports' Markdown goes to stdout, progress and failures to stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { filesystemOf, probeFsync, type FsyncProbe } from './harness/disk.js'
import { machineInfo } from './harness/machine.js'
import { OWN_REPORT, type Options, type RunKind } from './harness/options.js'
import { QuietBudget } from './harness/quiet.js'
import { runReported } from './harness/reported-scenario.js'
import type { Outcome, RunContext } from './harness/scenario.js'
import { foundationReport, writeResults } from './report/foundation.js'
import { runDocumentsScenario, type DocumentsReport } from './scenarios/documents/index.js'
import { runFacetsScenario } from './scenarios/facets/index.js'
import { LOAD_KINDS, runFoundation } from './scenarios/foundation/index.js'
import { runSearchScenario } from './scenarios/search/index.js'
import { sweepsScenario } from './scenarios/sweeps/index.js'
import { concurrencyScenario } from './scenarios/concurrency/index.js'
import { tasksScenario } from './scenarios/tasks/index.js'
import { runVectorsScenario } from './scenarios/vectors/index.js'
import { runEmbeddingsScenario } from './scenarios/embeddings/index.js'
import { runClusterScenario } from './scenarios/cluster/index.js'

/** The scenarios with a report of their own, in the order they run. */
const REPORTED: Array<{ kind: RunKind; run(options: Options, ctx: RunContext): Promise<Outcome> }> = [
  { kind: 'tasks', run: (o, ctx) => runReported(tasksScenario(o.tasks), ctx) },
  { kind: 'search', run: (o, ctx) => runSearchScenario(o.search, ctx) },
  { kind: 'facets', run: (o, ctx) => runFacetsScenario(o.facets, ctx) },
  { kind: 'sweeps', run: (o, ctx) => runReported(sweepsScenario(o.sweeps), ctx) },
  { kind: 'concurrency', run: (o, ctx) => runReported(concurrencyScenario(o.concurrency), ctx) },
  { kind: 'vectors', run: (o, ctx) => runVectorsScenario(o.vectors, ctx) },
  { kind: 'embeddings', run: (o, ctx) => runEmbeddingsScenario(o.embeddings, ctx) },
  { kind: 'cluster', run: (o, ctx) => runClusterScenario(o.cluster, ctx) },
]
/** The order their reports are printed in (the tasks and sweeps reports first, as since they were added). */
const PRINT_ORDER: RunKind[] = ['tasks', 'sweeps', 'facets', 'search', 'concurrency', 'vectors', 'embeddings', 'cluster']

/** Runs one scenario and says on stderr how long it took, wall clock (where a run's time goes, e.g. CI's budget). */
async function timed<T>(name: string, run: () => Promise<T>, say = true): Promise<T> {
  const start = performance.now()
  try {
    return await run()
  } finally {
    if (say) process.stderr.write(`bench: scenario ${name} took ${((performance.now() - start) / 1000).toFixed(1)} s\n`)
  }
}

/** Runs the chosen scenarios and writes their reports; a failed scenario sets the exit code to 1. */
export async function runSuite(options: Options): Promise<void> {
  const started = performance.now()
  // All of the run's data directories live under one parent, removed at the end whatever happens.
  const dataParent = mkdtempSync(join(options.dataDir, 'tessera-bench-'))
  const ctx: RunContext = {
    dataParent, dataDir: options.dataDir, filesystem: filesystemOf(dataParent), outDir: options.outDir, repeat: options.repeat,
    remote: options.url === null ? null : { url: options.url, apiKey: options.apiKey },
    date: new Date().toISOString(), machine: machineInfo(), quiet: new QuietBudget(),
  }
  const foundationKinds = options.kinds.filter((k) => !OWN_REPORT.includes(k))
  let fsyncProbe: FsyncProbe | null = null
  let documents: DocumentsReport | null = null
  const outcomes = new Map<RunKind, Outcome>()
  let scenarios: Awaited<ReturnType<typeof runFoundation>> = []
  try {
    if (options.kinds.some((k) => k !== 'health' && !OWN_REPORT.includes(k))) {
      fsyncProbe = probeFsync(dataParent)
      process.stderr.write(`bench: append + fdatasync on ${ctx.filesystem}: p50 ${fsyncProbe.p50Ms.toFixed(2)} ms, p99 ${fsyncProbe.p99Ms.toFixed(2)} ms\n`)
    }
    const loadKinds = LOAD_KINDS.filter((k) => options.kinds.includes(k))
    scenarios = await timed(loadKinds.join(', '), () => runFoundation(loadKinds, options.adapters, options, dataParent, ctx.quiet), loadKinds.length > 0)
    if (options.kinds.includes('documents')) documents = await timed('documents', () => runDocumentsScenario(options.documents, dataParent, ctx.quiet))
    for (const scenario of REPORTED.filter((s) => options.kinds.includes(s.kind))) {
      await ctx.quiet.wait()
      outcomes.set(scenario.kind, await timed(scenario.kind, () => scenario.run(options, ctx)))
    }
  } finally {
    rmSync(dataParent, { recursive: true, force: true })
  }

  for (const kind of PRINT_ORDER) {
    const o = outcomes.get(kind)
    if (!o) continue
    process.stdout.write('\n' + o.markdown)
    if (o.json) process.stderr.write(`bench: wrote ${o.json} and ${o.md}\n`)
    if (o.failures.length > 0) {
      process.stderr.write(`bench: ${o.failureLabel}: ${o.failures.join(' | ')}\n`)
      process.exitCode = 1
    }
  }
  // The foundation report covers the other scenarios; a run of only scenarios with their own reports leaves it as it was.
  if (foundationKinds.length === 0) return
  const report = foundationReport({
    date: ctx.date, machine: ctx.machine, storage: { dataDir: options.dataDir, filesystem: ctx.filesystem, fsyncProbe },
    settings: options, kinds: foundationKinds, adapters: options.adapters, scenarios, documents,
    totalSeconds: (performance.now() - started) / 1000,
  })
  const written = writeResults(options.outDir, report)
  process.stdout.write('\n' + written.markdown)
  process.stderr.write(`bench: wrote ${written.json} and ${written.md}\n`)
  // A failed durability check is a failed run.
  if (scenarios.some((s) => s.durability && !s.durability.consistent)) process.exitCode = 1
  // So is a failed documents run (an error, a failed task, a wrong document count or content).
  const failedDocuments = documents?.runs.filter((r) => !r.ok) ?? []
  if (failedDocuments.length > 0) {
    process.stderr.write(`bench: DOCUMENTS SCENARIO FAILED: ${failedDocuments.map((r) => `${r.id}: ${r.error}`).join(' | ')}\n`)
    process.exitCode = 1
  }
}
