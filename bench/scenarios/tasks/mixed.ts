/**
 * Part 2 of the tasks scenario: `mixedTasks` tasks to one index, every `settingsEvery`-th a settings update (rotating
 * through filterableAttributes, stopWords, rankingRules order, typoTolerance.minWordSizeForTypos, synonyms), the
 * others additions of 10 documents, from the same clients. A settings task cannot be batched with document tasks, so
 * each one cuts the stream of additions into batches; settings changes on a growing index also reindex it.
 */
import { generateDocuments, type BenchDocument } from '../../data/uniform-corpus.js'
import type { RequestSpec } from '../../harness/clients.js'
import { createIndex, numberOfDocuments } from '../../harness/index-api.js'
import { memoryOf } from '../../harness/memory.js'
import { progress, tracked } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { MIXED_DOCUMENTS_PER_TASK, POLL_MS, type TasksOptions } from './options.js'
import { register } from './register.js'
import { batchSizes, readTasks, taskFigures, waitAllEnded } from './task-list.js'
import type { MixedResult } from './types.js'

/** The settings update of the `n`-th settings task of the mixed part: five kinds in turn, each a change from the last of its kind. */
export function mixedSettings(n: number): { kind: string; settings: Record<string, unknown> } {
  const v = Math.floor(n / 5)
  switch (n % 5) {
    case 0: return { kind: 'filterableAttributes', settings: { filterableAttributes: [['price'], ['price', 'tags'], ['tags', 'published']][v % 3] } }
    case 1: return { kind: 'stopWords', settings: { stopWords: [['the', 'a'], ['of', 'and', 'the'], ['with']][v % 3] } }
    case 2: {
      const orders = [
        ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
        ['typo', 'words', 'proximity', 'attribute', 'sort', 'exactness'],
        ['words', 'proximity', 'typo', 'attribute', 'exactness', 'sort'],
      ]
      return { kind: 'rankingRules', settings: { rankingRules: orders[v % 3] } }
    }
    case 3: return { kind: 'typoTolerance', settings: { typoTolerance: { minWordSizeForTypos: { oneTypo: 4 + (v % 3), twoTypos: 9 + (v % 3) } } } }
    default: {
      const sets = [{ cold: ['chill'], fast: ['quick'] }, { boat: ['ship'], road: ['path', 'lane'] }, { gold: ['amber'] }]
      return { kind: 'synonyms', settings: { synonyms: sets[v % 3] } }
    }
  }
}

/** Part 2: document additions with a settings update every `settingsEvery` tasks. */
export async function runMixed(options: TasksOptions, target: Target, r: MixedResult): Promise<void> {
  const uid = r.indexUid = target.indexUid('tasks_mixed')
  await createIndex(target, uid, 60_000, POLL_MS)
  const enc = encodeURIComponent(uid)
  const docs = generateDocuments(r.documents, options.seed ^ 0x31d)
  const requests: Array<{ method: RequestSpec['method']; path: string; body: string }> = []
  let settingsN = 0
  for (let i = 0; i < options.mixedTasks; i++) {
    if (options.settingsEvery > 0 && (i + 1) % options.settingsEvery === 0) {
      requests.push({ method: 'PATCH', path: `/indexes/${enc}/settings`, body: JSON.stringify(mixedSettings(settingsN++).settings) })
      continue
    }
    const batch: BenchDocument[] = []
    for (let k = 0; k < MIXED_DOCUMENTS_PER_TASK; k++) batch.push(docs.next().value as BenchDocument)
    requests.push({ method: 'POST', path: `/indexes/${enc}/documents`, body: JSON.stringify(batch) })
  }

  const regBar = progress(`tasks, registering ${options.mixedTasks.toLocaleString('en-US')} mixed tasks (${r.settingsTasks} settings)`, options.mixedTasks)
  const reg = await tracked(regBar, () => register(target, requests, options.clients, regBar))
  r.registrationErrors = reg.errors
  r.registrationSeconds = (reg.lastAcceptedAt - reg.firstSendAt) / 1000
  r.registrationTasksPerSecond = reg.taskUids.length / r.registrationSeconds
  regBar.done(`${Math.round(r.registrationTasksPerSecond)} tasks/s${reg.errors ? `, ${reg.errors} errors` : ''}`)

  const procBar = progress('tasks, processing the mixed tasks', reg.taskUids.length)
  const endedAt = await tracked(procBar, () => waitAllEnded(target, uid, reg.taskUids.length, procBar))
  r.wallSeconds = (endedAt - reg.firstSendAt) / 1000
  r.tasksPerSecond = reg.taskUids.length / r.wallSeconds
  r.documentsPerSecond = r.documents / r.wallSeconds

  const rows = await readTasks(target, uid, reg.taskUids)
  const f = taskFigures(rows)
  const settingsBatches = f.batches.filter((b) => b.settings)
  const documentBatches = f.batches.filter((b) => !b.settings)
  r.serverSpanSeconds = f.spanSeconds
  r.batches = f.batches.length
  r.settingsBatches = settingsBatches.length
  r.documentBatches = documentBatches.length
  r.tasksPerDocumentBatch = batchSizes(documentBatches)
  r.settingsBatchSeconds = settingsBatches.reduce((s, b) => s + b.seconds, 0)
  r.documentBatchSeconds = documentBatches.reduce((s, b) => s + b.seconds, 0)
  r.succeeded = f.succeeded
  r.failed = f.failed
  r.canceled = f.canceled
  if (f.firstFailure) r.firstFailure = f.firstFailure
  r.numberOfDocuments = await numberOfDocuments(target, uid)
  r.peakRssMiB = memoryOf(target.pid).hwmMiB
  procBar.done(`${r.wallSeconds.toFixed(2)} s (${Math.round(r.tasksPerSecond)} tasks/s) in ${r.batches} batches (${r.settingsBatches} with settings: ${r.settingsBatchSeconds.toFixed(2)} s)`)

  const problems = [
    ...(reg.errors > 0 ? [`${reg.errors} requests failed (first: ${reg.firstError})`] : []),
    ...(f.succeeded !== rows.length ? [`${rows.length - f.succeeded} tasks did not succeed (first: ${f.firstFailure})`] : []),
    ...(r.numberOfDocuments !== r.documents ? [`numberOfDocuments is ${r.numberOfDocuments}, expected ${r.documents}`] : []),
  ]
  if (problems.length > 0) throw new Error(problems.join('; '))
}
