/**
 * What the running batch is doing, as Meilisearch reports it in `progress` on `GET /batches` while a batch runs: a
 * stack of steps, outermost first, each `finished` out of `total`, and a `percentage` in which each step counts
 * for its share of the step above it (`processing tasks` 0/2 › `indexing` 2/3 › `document` 500/1000 is
 * 0/2 + 2/(2·3) + 500/(2·3·1000) = 41.7 %).
 *
 * Three levels: the batch's phase, the step of the operation being applied (a named sequence: its position is
 * `finished`, its length `total`) and a count of units (`document`). Names are Meilisearch's
 * (index-scheduler's `processing.rs`). The scheduler and the indexing code update it as they go; `batchView`
 * reads it while the batch runs. Cheap enough for once per chunk: a few property writes.
 */
import type { BatchProgress } from './types.js'

/** The batch's phases (Meilisearch's `BatchProgress`). */
export const BATCH_PHASES = ['processing tasks', 'writing tasks to disk'] as const
export type BatchPhase = (typeof BATCH_PHASES)[number]

/** The steps of each kind of operation (Meilisearch's `*Progress` enums of the index scheduler). */
export const DOCUMENT_OPERATION = ['retrieving config', 'computing document changes', 'indexing'] as const
export const DOCUMENT_DELETION = ['retrieving config', 'delete documents', 'indexing'] as const
export const DOCUMENT_EDITION = ['retrieving config', 'computing document changes', 'indexing'] as const
export const SETTINGS = ['retrieving and merging the settings', 'apply the settings'] as const
/** Vectors written and their graphs updated before the commit (Meilisearch's step name). */
export const VECTORS = ['writing embeddings to database'] as const
/**
 * milli's indexing steps (`IndexingStep`, `update/new/steps.rs`): shown for a while under an operation's step
 * (`during`) when one of them takes long enough to watch, as embedding generation does.
 */
export const INDEXING = [
  'preparing update file', 'extracting documents', 'extracting facets', 'extracting words', 'extracting word proximity',
  'extracting embeddings', 'writing geo points', 'waiting for database writes', 'waiting for extractors',
  'writing embeddings to database', 'post-processing facets', 'post-processing words', 'finalizing',
] as const
export type IndexingStep = (typeof INDEXING)[number]
export type OperationSteps = typeof DOCUMENT_OPERATION | typeof DOCUMENT_DELETION | typeof DOCUMENT_EDITION | typeof SETTINGS | typeof VECTORS

/** The units counted under an operation's step (Meilisearch's atomic steps). */
export type ProgressUnit = 'document' | 'task'

interface Step {
  /** The sequence the step belongs to (its identity at its level), or the counted unit. */
  kind: readonly string[] | ProgressUnit
  name: string
  finished: number
  total: number
}

/** A count under way: `add` as units are done. */
export interface ProgressCount {
  add(n: number): void
  readonly finished: number
  readonly total: number
}

/** A count shown under an indexing step for a while: `end` puts back what was shown before. */
export interface ProgressInterlude extends ProgressCount {
  end(): void
}

function countOf(counted: Step): ProgressCount {
  return {
    // Never past the total: a bar beyond its end says nothing true.
    add: (n) => { counted.finished = Math.min(counted.total, counted.finished + n) },
    get finished() { return counted.finished },
    get total() { return counted.total },
  }
}

export class Progress {
  /** At most three: phase, operation step, unit count. */
  private readonly steps: Step[] = [{ kind: BATCH_PHASES, name: 'processing tasks', finished: 0, total: BATCH_PHASES.length }]
  /** The counts of `during`'s steps, by step, unit and total: each use goes on from the last one's count. */
  private readonly interludes = new Map<string, Step>()
  /** The highest percentage shown so far. */
  private highest = 0

  /** Enter a phase of the batch: the operation's steps end with it. */
  phase(name: BatchPhase): void {
    this.steps.length = 0
    this.steps.push({ kind: BATCH_PHASES, name, finished: BATCH_PHASES.indexOf(name), total: BATCH_PHASES.length })
  }

  /**
   * Enter step `name` of an operation: it replaces the operation step (and the count under it), unless it is the
   * step already running, whose count goes on (successive additions of one batch count their documents together).
   */
  step<S extends OperationSteps>(sequence: S, name: S[number]): void {
    const current = this.steps[1]
    if (current && current.kind === sequence && current.name === name) return
    this.steps.length = 1
    this.steps.push({ kind: sequence, name, finished: (sequence as readonly string[]).indexOf(name), total: sequence.length })
  }

  /**
   * Count `total` units under the current operation step; the count already running for that unit and total, if
   * any, is returned instead so the work of several tasks adds up.
   */
  count(unit: ProgressUnit, total: number): ProgressCount {
    let step = this.steps[2]
    if (!step || step.kind !== unit || step.total !== total) {
      this.steps.length = Math.min(this.steps.length, 2)
      step = { kind: unit, name: unit, finished: 0, total }
      this.steps.push(step)
    }
    return countOf(step)
  }

  /**
   * Show indexing step `name` under the operation's step, with `total` units counted under it, until `end()`:
   * then the steps shown before come back, their counts as the work beside went on moving them. Successive
   * uses with the same step, unit and total count on from each other (a batch embeds its chunks one after the
   * other, all out of the documents it received).
   */
  during(name: IndexingStep, unit: ProgressUnit, total: number): ProgressInterlude {
    const before = this.steps.slice()
    const key = JSON.stringify([name, unit, total])
    let counted = this.interludes.get(key)
    if (!counted) this.interludes.set(key, counted = { kind: unit, name: unit, finished: 0, total })
    this.steps.length = Math.min(this.steps.length, 2)
    this.steps.push({ kind: INDEXING, name, finished: INDEXING.indexOf(name), total: INDEXING.length }, counted)
    const shown = counted
    // Only while still shown: a phase or step entered since has replaced it, and stays.
    const end = () => {
      if (this.steps.at(-1) !== shown) return
      this.steps.length = 0
      this.steps.push(...before)
    }
    return Object.assign(countOf(shown), { end })
  }

  /**
   * Meilisearch's ProgressView: the steps outermost first, and the share of the whole that is done, in percent. The
   * percentage never goes back: the steps may (a batch's chunks alternate between storing documents and embedding
   * them, and the embedding step counts from its own start), a progress bar should not.
   */
  view(): BatchProgress {
    let percentage = 0
    let scale = 1
    for (const s of this.steps) {
      // An empty step (nothing to count) neither divides by zero nor shrinks the steps under it.
      if (s.total === 0) continue
      scale *= s.total
      percentage += s.finished / scale
    }
    this.highest = Math.max(this.highest, percentage * 100)
    return {
      steps: this.steps.map((s) => ({ currentStep: s.name, finished: s.finished, total: s.total })),
      percentage: this.highest,
    }
  }
}
