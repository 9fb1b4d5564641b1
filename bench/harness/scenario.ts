/**
 * What the entry (run.ts) hands every scenario and gets back from those with a report of their own (tasks,
 * search, facets, sweeps); the foundation scenarios and documents feed the foundation report instead.
 */
import type { Machine } from './machine.js'
import type { QuietBudget } from './quiet.js'
import type { Remote } from './target.js'

export interface RunContext {
  /** Parent of every data directory of the run, removed at the end whatever happens. */
  dataParent: string
  /** `--data-dir`, as the reports state it, and its filesystem. */
  dataDir: string
  filesystem: string
  /** `--out`: where the reports go. */
  outDir: string
  /** `--repeat`: runs of each scenario with a report of its own. */
  repeat: number
  /** `--url` and `--api-key`, or null for fresh servers of this build. */
  remote: Remote | null
  date: string
  machine: Machine
  quiet: QuietBudget
}

/** A scenario's report, once written: its Markdown (printed on stdout), its files, and its failures. */
export interface Outcome {
  markdown: string
  /** Paths of the JSON and Markdown files; empty when the scenario failed before writing them. */
  json: string
  md: string
  /** Failures of the service (not misses of targets); any makes the run exit 1. */
  failures: string[]
  /** How stderr announces them (`SCENARIO FAILED`, `SEARCH SCENARIO FAILED`, …). */
  failureLabel: string
}
