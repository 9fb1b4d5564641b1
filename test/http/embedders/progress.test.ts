/**
 * The running batch's `progress` while a slow REST embedder works: milli's `extracting embeddings` step under the
 * operation's step, with the documents embedded so far out of the batch's documents, moving up chunk by chunk;
 * for an addition (out of the documents received) and for a template change (out of the index's documents).
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

type Step = { currentStep: string; finished: number; total: number }
type Progress = { steps: Step[]; percentage: number }

const DOCUMENTS = 24

/** Every `progress` of the processing batch seen while task `uid` runs. */
async function watch(url: string, uid: number): Promise<{ seen: Progress[]; task: { status: string; error: unknown; batchUid: number } }> {
  const seen: Progress[] = []
  let done = false
  const finished = waitTask(url, uid, 60_000).finally(() => { done = true })
  while (!done) {
    const r = await call(`${url}/batches?statuses=processing`)
    const progress = r.body.results[0]?.progress as Progress | undefined
    if (progress) seen.push(progress)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { seen, task: await finished }
}

/** The share of the whole a stack of steps stands for, as Meilisearch computes it (each level within the one above). */
function percentage(steps: Step[]): number {
  let scale = 1
  let sum = 0
  for (const s of steps) {
    scale *= s.total
    sum += s.finished / scale
  }
  return sum * 100
}

t.test('embedding progress in the running batch', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  const { url } = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  // One text per request and one request at a time: small chunks, each taking a few of the server's delays.
  const rest = {
    source: 'rest', url: `${remote.url}/single`, documentTemplate: '{{doc.title}}', batchSize: 1, maxConcurrentRequests: 1,
    request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } },
  }
  const settings = await call(`${url}/indexes/slow/settings`, { method: 'PATCH', json: { embedders: { rest } } })
  t.equal((await waitTask(url, settings.body.taskUid)).status, 'succeeded')
  remote.latencyMs = 100
  const docs = Array.from({ length: DOCUMENTS }, (_, i) => ({ id: i, title: `title number ${i}` }))

  await t.test('an addition counts the documents embedded out of those received', async (t) => {
    const posted = await call(`${url}/indexes/slow/documents?primaryKey=id`, { method: 'POST', json: docs })
    t.equal(posted.status, 202)
    const { seen, task } = await watch(url, posted.body.taskUid)
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
    const embedding = seen.filter((p) => p.steps[2]?.currentStep === 'extracting embeddings')
    t.ok(embedding.length > 0, `the embedding step was seen (${seen.length} polls while processing)`)
    for (const p of embedding) {
      t.same(p.steps.slice(0, 3), [
        { currentStep: 'processing tasks', finished: 0, total: 2 },
        { currentStep: 'indexing', finished: 2, total: 3 },
        { currentStep: 'extracting embeddings', finished: 5, total: 13 },
      ])
      t.same({ ...p.steps[3], finished: 0 }, { currentStep: 'document', finished: 0, total: DOCUMENTS })
      t.ok(Math.abs(p.percentage - percentage(p.steps)) < 1e-9, `percentage ${p.percentage}`)
    }
    const counts = embedding.map((p) => p.steps[3]!.finished)
    t.same(counts, [...counts].sort((a, b) => a - b), 'the count only goes up')
    t.ok(counts.some((n) => n > 0 && n < DOCUMENTS), `seen between its ends: ${[...new Set(counts)].join(', ')}`)
    const batch = await call(`${url}/batches/${task.batchUid}`)
    t.equal(batch.body.progress, null, 'a finished batch has no progress')
    t.equal(batch.body.stats.embedderRequests.total, DOCUMENTS, 'one request per document')
  })

  await t.test('a template change counts the documents of the index', async (t) => {
    const patched = await call(`${url}/indexes/slow/settings`, { method: 'PATCH', json: { embedders: { rest: { documentTemplate: 'a {{doc.title}}' } } } })
    const { seen, task } = await watch(url, patched.body.taskUid)
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
    const embedding = seen.filter((p) => p.steps.some((s) => s.currentStep === 'extracting embeddings'))
    t.ok(embedding.length > 0, `the embedding step was seen (${seen.length} polls while processing)`)
    for (const p of embedding) {
      t.same(p.steps[1], { currentStep: 'apply the settings', finished: 1, total: 2 })
      t.same({ ...p.steps[3], finished: 0 }, { currentStep: 'document', finished: 0, total: DOCUMENTS })
    }
    const counts = embedding.map((p) => p.steps[3]!.finished)
    t.ok(counts.some((n) => n > 0 && n < DOCUMENTS), `seen between its ends: ${[...new Set(counts)].join(', ')}`)
  })
})
