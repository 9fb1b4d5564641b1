/**
 * The sweeps' corpus, indexed once for both sweeps: the seeded Zipf generator's documents (data/zipf-corpus.ts: the
 * most frequent word is in nearly every document, so a broad query really reaches 100,000 hits at 200,000
 * documents), searchable attributes `title`, `description`, `tags`. Its NDJSON is cut into payloads of 50,000
 * documents (the whole of it is over the default 100 MB request limit), sent one after another.
 */
import { performance } from 'node:perf_hooks'
import { corpusNdjson, GENERATED_SEARCHABLE } from '../../data/zipf-corpus.js'
import { createIndex, numberOfDocuments, patchSettings } from '../../harness/index-api.js'
import { progress } from '../../harness/progress.js'
import { call } from '../../harness/requests.js'
import type { Target } from '../../harness/target.js'
import { waitTask } from '../../harness/task-wait.js'
import { INDEXING_TIMEOUT_MS, PAYLOAD_DOCUMENTS, SETTINGS_TIMEOUT_MS, type SweepsOptions } from './options.js'
import type { SweepsIndexing } from './types.js'

export async function indexCorpus(target: Target, uid: string, o: SweepsOptions): Promise<SweepsIndexing> {
  const result: SweepsIndexing = { ok: false, payloads: 0, bytes: 0, generateSeconds: 0, seconds: 0, docsPerSecond: null, numberOfDocuments: null }
  const bar = progress('sweeps: index the corpus', o.documents)
  try {
    const g0 = performance.now()
    // The whole corpus, cut at line boundaries into payloads of PAYLOAD_DOCUMENTS documents.
    const all = corpusNdjson({ count: o.documents, seed: o.seed })
    const payloads: Buffer[] = []
    let start = 0
    let lines = 0
    for (let i = 0; i < all.length; i++) {
      if (all[i] !== 0x0a) continue
      if (++lines === PAYLOAD_DOCUMENTS) { payloads.push(all.subarray(start, i + 1)); start = i + 1; lines = 0 }
    }
    if (start < all.length) payloads.push(all.subarray(start))
    result.generateSeconds = (performance.now() - g0) / 1000
    result.payloads = payloads.length
    result.bytes = all.length
    bar.update(0, `generated in ${result.generateSeconds.toFixed(1)} s`)

    await createIndex(target, uid, SETTINGS_TIMEOUT_MS)
    await patchSettings(target, uid, { searchableAttributes: GENERATED_SEARCHABLE }, SETTINGS_TIMEOUT_MS)

    const t0 = performance.now()
    const taskUids: number[] = []
    for (const payload of payloads) {
      const { status, body } = await call<{ taskUid?: number }>(target, 'POST', `/indexes/${uid}/documents`, payload, 300_000)
      if (status !== 202 || typeof body?.taskUid !== 'number') throw new Error(`POST /indexes/${uid}/documents answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
      taskUids.push(body.taskUid)
    }
    const deadline = t0 + INDEXING_TIMEOUT_MS
    let done = 0
    for (const taskUid of taskUids) {
      const task = await waitTask(target, taskUid, Math.max(1000, deadline - performance.now()), 50)
      if (task.status !== 'succeeded') throw new Error(`indexing task ${taskUid} ${task.status}: ${JSON.stringify(task.error ?? null)}`)
      done += Math.min(PAYLOAD_DOCUMENTS, o.documents - done)
      bar.update(done)
    }
    result.seconds = (performance.now() - t0) / 1000
    result.docsPerSecond = o.documents / result.seconds
    result.numberOfDocuments = await numberOfDocuments(target, uid)
    result.ok = true
    bar.done(`${o.documents.toLocaleString('en-US')} documents, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.payloads} payload(s), ${result.seconds.toFixed(1)} s`)
  } catch (err) {
    result.error = (err as Error).message
    bar.done(`FAILED: ${result.error}`)
  }
  return result
}
