/**
 * The running batch's `progress` on GET /batches: real steps, named as Meilisearch names them, with the documents
 * processed out of received moving up while a large addition is indexed, and `null` once the batch is finished.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../helpers/server.js'

/** Enough documents for several ~1 MB chunks, so the count is seen between its ends. */
const DOCUMENTS = 60_000

function ndjson(count: number): string {
  const words = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper', 'kelp', 'lagoon']
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const text = Array.from({ length: 10 }, (_, k) => words[(i * 7 + k * 5) % words.length]).join(' ')
    lines.push(JSON.stringify({ id: i, title: `item ${i}`, text, n: i % 97 }))
  }
  return lines.join('\n')
}

t.test('a large addition reports documents processed out of received', async (t) => {
  const { url } = await serverFor(t)
  const posted = await call(`${url}/indexes/big/documents?primaryKey=id`, { method: 'POST', body: ndjson(DOCUMENTS), headers: { 'content-type': 'application/x-ndjson' } })
  t.equal(posted.status, 202)
  const seen: { steps: { currentStep: string; finished: number; total: number }[]; percentage: number }[] = []
  let done = false
  const finished = waitTask(url, posted.body.taskUid, 120_000).finally(() => { done = true })
  while (!done) {
    const r = await call(`${url}/batches?statuses=processing`)
    t.equal(r.status, 200)
    const progress = r.body.results[0]?.progress
    if (progress) seen.push(progress)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
  t.equal((await finished).status, 'succeeded')
  const counts = seen.filter((p) => p.steps.length === 3)
  t.ok(counts.length > 0, `the document count was seen (${seen.length} polls while processing)`)
  for (const p of counts) {
    t.same(p.steps.slice(0, 2), [{ currentStep: 'processing tasks', finished: 0, total: 2 }, { currentStep: 'indexing', finished: 2, total: 3 }])
    t.same({ ...p.steps[2], finished: 0 }, { currentStep: 'document', finished: 0, total: DOCUMENTS }, 'out of the documents received')
    const expected = (0 / 2 + 2 / 6 + p.steps[2]!.finished / (6 * DOCUMENTS)) * 100
    t.ok(Math.abs(p.percentage - expected) < 1e-9, `percentage ${p.percentage}`)
  }
  const finishedCounts = counts.map((p) => p.steps[2]!.finished)
  t.same(finishedCounts, [...finishedCounts].sort((a, b) => a - b), 'the count only goes up')
  t.ok(finishedCounts.some((n) => n > 0 && n < DOCUMENTS), `seen between its ends: ${[...new Set(finishedCounts)].join(', ')}`)
  t.ok(seen.every((p) => p.steps[0]!.currentStep === 'processing tasks' || (p.steps.length === 1 && p.steps[0]!.currentStep === 'writing tasks to disk')))
  const batch = await call(`${url}/batches/${(await call(`${url}/tasks/${posted.body.taskUid}`)).body.batchUid}`)
  t.equal(batch.body.progress, null, 'a finished batch has no progress')
})
