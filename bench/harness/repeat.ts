/**
 * Repeated runs (`--repeat N`): a scenario's result is a tree of plain values. Across runs of the same scenario,
 * `medianResult` keeps the first run's shape with every number replaced by its median over the runs (so the
 * report renders it like any single run), and `spreadOf` gives each number's min, median and max, for the JSON.
 * Values that are not numbers (names, flags, text) come from the first run; arrays of different lengths (a run that
 * failed part-way) are taken from the first run whole. `repeatRuns` runs a scenario that many times, each run from
 * scratch.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'

export interface Spread {
  min: number
  median: number
  max: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

type Tree = unknown

function combine(runs: Tree[], leaf: (numbers: number[]) => unknown): Tree {
  const first = runs[0]
  if (typeof first === 'number') {
    const numbers = runs.filter((r): r is number => typeof r === 'number' && Number.isFinite(r))
    return numbers.length === runs.length ? leaf(numbers) : first
  }
  if (Array.isArray(first)) {
    if (!runs.every((r) => Array.isArray(r) && r.length === first.length)) return first
    return first.map((_, i) => combine(runs.map((r) => (r as unknown[])[i]), leaf))
  }
  if (first !== null && typeof first === 'object') {
    if (!runs.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return first
    return Object.fromEntries(Object.keys(first).map((k) => [k, combine(runs.map((r) => (r as Record<string, unknown>)[k]), leaf)]))
  }
  return first
}

/** The first run's result with every number the median over `runs`. */
export function medianResult<T>(runs: T[]): T {
  if (runs.length === 0) throw new Error('medianResult: no runs')
  return runs.length === 1 ? runs[0]! : (combine(runs, median) as T)
}

/** Every number of the result as {min, median, max} over `runs` (other values from the first run). */
export function spreadOf(runs: unknown[]): unknown {
  return combine(runs, (xs): Spread => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs) }))
}

/**
 * The run-to-run noise of a few named figures: (max − min) / median in %, for the report's "noise" line. `pick`
 * reads a figure from one run's result (null when missing).
 */
export function noise<T>(runs: T[], figures: Record<string, (r: T) => number | null | undefined>): Array<{ figure: string; spreadPercent: number; min: number; median: number; max: number }> {
  if (runs.length < 2) return []
  return Object.entries(figures).flatMap(([figure, pick]) => {
    const xs = runs.map(pick).filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    if (xs.length < 2) return []
    const m = median(xs)
    return [{ figure, spreadPercent: m === 0 ? 0 : (100 * (Math.max(...xs) - Math.min(...xs))) / m, min: Math.min(...xs), median: m, max: Math.max(...xs) }]
  })
}

/** `run` `count` times, one after the other (each run starts from scratch: its own server and data). */
export async function repeatRuns<R>(name: string, count: number, run: () => Promise<R>): Promise<R[]> {
  const runs: R[] = []
  for (let k = 0; k < count; k++) {
    if (count > 1) process.stderr.write(`bench: ${name}, run ${k + 1} of ${count}\n`)
    runs.push(await run())
  }
  return runs
}

/** `repeatRuns`, each run with a data directory of its own under `parent`, removed after it. */
export function repeatInFreshDirs<R>(name: string, count: number, parent: string, run: (dbPath: string) => Promise<R>): Promise<R[]> {
  return repeatRuns(name, count, async () => {
    const dbPath = mkdtempSync(join(parent, `${name}-`))
    try {
      return await run(dbPath)
    } finally {
      rmSync(dbPath, { recursive: true, force: true })
    }
  })
}
