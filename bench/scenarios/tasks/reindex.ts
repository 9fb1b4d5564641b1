/**
 * Part 3 of the tasks scenario: `reindexDocuments` generated documents in one NDJSON POST (searchableAttributes
 * title, description, tags set first), then one settings change at a time, each timed from the PATCH to its task
 * seen `succeeded` (wall clock, and the task's own `duration`), with documents/s on the wall clock; then the
 * server's peak RSS.
 */
import { performance } from 'node:perf_hooks'
import { generateDocuments } from '../../data/uniform-corpus.js'
import { createIndex, numberOfDocuments, patchSettings } from '../../harness/index-api.js'
import { memoryOf } from '../../harness/memory.js'
import { progress, tracked } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { expectTask } from '../../harness/task-wait.js'
import { POLL_MS, SETTINGS_TIMEOUT_MS, type TasksOptions } from './options.js'
import { message } from './register.js'
import { durationSeconds } from './task-list.js'
import type { ReindexChange, ReindexResult } from './types.js'

/** The settings changes of part 3, applied in this order, each to the index as the previous ones left it. */
export const REINDEX_CHANGES: Array<{ change: string; settings: Record<string, unknown> }> = [
  { change: 'searchableAttributes reordered', settings: { searchableAttributes: ['description', 'title', 'tags'] } },
  { change: 'stopWords', settings: { stopWords: ['the', 'and', 'of'] } },
  { change: 'synonyms', settings: { synonyms: { cold: ['chill', 'freezing'], fast: ['quick', 'rapid'], boat: ['ship'], road: ['path', 'lane'] } } },
  { change: 'typoTolerance.minWordSizeForTypos', settings: { typoTolerance: { minWordSizeForTypos: { oneTypo: 4, twoTypos: 8 } } } },
  { change: 'filterableAttributes', settings: { filterableAttributes: ['price', 'tags', 'published'] } },
  { change: 'sortableAttributes', settings: { sortableAttributes: ['price'] } },
  { change: 'proximityPrecision byAttribute', settings: { proximityPrecision: 'byAttribute' } },
  { change: 'separatorTokens', settings: { separatorTokens: ['|', '+'] } },
  { change: 'dictionary', settings: { dictionary: ['amber cobalt', 'crimson velvet', 'sea salt'] } },
]

/** Part 3: index a corpus, then time each settings change. */
export async function runReindex(options: TasksOptions, target: Target, r: ReindexResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_reindex')
  await createIndex(target, uid, 60_000, POLL_MS)
  await patchSettings(target, uid, { searchableAttributes: ['title', 'description', 'tags'] }, SETTINGS_TIMEOUT_MS, 'searchableAttributes', POLL_MS)
  const lines: string[] = []
  for (const doc of generateDocuments(options.reindexDocuments, options.seed ^ 0x2e1)) lines.push(JSON.stringify(doc))
  const payload = Buffer.from(lines.join('\n') + '\n')
  r.payloadBytes = payload.length

  const indexBar = progress(`tasks, indexing ${options.reindexDocuments.toLocaleString('en-US')} documents for the reindex part`, 1)
  await tracked(indexBar, async () => {
    const t0 = performance.now()
    await expectTask(target, 'POST', `/indexes/${encodeURIComponent(uid)}/documents`, payload, SETTINGS_TIMEOUT_MS, 'indexing', POLL_MS)
    r.indexingSeconds = (performance.now() - t0) / 1000
    r.indexingDocumentsPerSecond = options.reindexDocuments / r.indexingSeconds
  })
  indexBar.done(`${r.indexingSeconds!.toFixed(2)} s, ${Math.round(r.indexingDocumentsPerSecond!)} docs/s`)

  const bar = progress('tasks, settings changes', REINDEX_CHANGES.length)
  for (const [i, { change, settings }] of REINDEX_CHANGES.entries()) {
    bar.update(i, change)
    const c: ReindexChange = { change, settings, ok: false, wallSeconds: null, taskSeconds: null, documentsPerSecond: null }
    r.changes.push(c)
    try {
      const t0 = performance.now()
      const task = await patchSettings(target, uid, settings, SETTINGS_TIMEOUT_MS, change, POLL_MS)
      c.wallSeconds = (performance.now() - t0) / 1000
      c.taskSeconds = durationSeconds(task.duration ?? null)
      c.documentsPerSecond = options.reindexDocuments / c.wallSeconds
      c.ok = true
    } catch (err) {
      c.error = message(err)
    }
  }
  const failed = r.changes.filter((c) => !c.ok)
  bar.done(failed.length === 0
    ? r.changes.map((c) => `${c.change} ${c.wallSeconds!.toFixed(2)} s`).join(', ')
    : `${failed.length} FAILED: ${failed.map((c) => `${c.change}: ${c.error}`).join('; ')}`)
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  const memory = memoryOf(target.pid)
  r.peakRssMiB = memory.hwmMiB
  r.rssMiB = memory.rssMiB
  const problems = [
    ...failed.map((c) => `${c.change}: ${c.error}`),
    ...(r.numberOfDocuments !== options.reindexDocuments ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${options.reindexDocuments}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}
