import t from 'tap'
import { DOCUMENT_DELETION, DOCUMENT_OPERATION, Progress, SETTINGS } from '../../../engine/tasks/progress.js'
import { batchView } from '../../../engine/tasks/view.js'
import type { Batch } from '../../../engine/tasks/types.js'

t.test('a new batch is processing its tasks, as Meilisearch shows it', async (t) => {
  t.same(new Progress().view(), { steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }], percentage: 0 })
})

t.test('steps nest, each counting for its share of the one above', async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  const docs = p.count('document', 1000)
  docs.add(500)
  const view = p.view()
  t.same(view.steps, [
    { currentStep: 'processing tasks', finished: 0, total: 2 },
    { currentStep: 'indexing', finished: 2, total: 3 },
    { currentStep: 'document', finished: 500, total: 1000 },
  ])
  // 0/2 + 2/(2·3) + 500/(2·3·1000)
  t.ok(Math.abs(view.percentage - (1 / 3 + 1 / 12) * 100) < 1e-9, `${view.percentage}`)
  p.phase('writing tasks to disk')
  t.same(p.view(), { steps: [{ currentStep: 'writing tasks to disk', finished: 1, total: 2 }], percentage: 50 }, 'a phase ends the operation')
})

t.test("successive additions of a batch count their documents together", async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  p.count('document', 30).add(10)
  p.step(DOCUMENT_OPERATION, 'indexing')
  const second = p.count('document', 30)
  t.equal(second.finished, 10, 'the running count goes on')
  second.add(25)
  t.equal(p.view().steps[2]!.finished, 30, 'never past the total')
})

t.test('another operation replaces the step and its count', async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  p.count('document', 10).add(3)
  p.step(SETTINGS, 'apply the settings')
  t.same(p.view().steps.map((s) => [s.currentStep, s.finished, s.total]), [['processing tasks', 0, 2], ['apply the settings', 1, 2]])
  p.step(DOCUMENT_DELETION, 'delete documents')
  t.same(p.view().steps.map((s) => s.currentStep), ['processing tasks', 'delete documents'])
})

t.test('an empty count neither divides by zero nor hides the steps', async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  p.count('document', 0).add(5)
  const view = p.view()
  t.ok(Number.isFinite(view.percentage))
  t.same(view.steps[2], { currentStep: 'document', finished: 0, total: 0 })
})

t.test('batchView shows the progress while the batch runs, and null once it is finished', async (t) => {
  const batch: Batch = { uid: 3, details: {}, stats: { totalNbTasks: 1, status: { processing: 1 }, types: {}, indexUids: {} }, startedAt: 1, finishedAt: null, batchStrategy: 's' }
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  p.count('document', 4).add(1)
  t.same(batchView(batch, p).progress?.steps[2], { currentStep: 'document', finished: 1, total: 4 })
  t.same(batchView(batch).progress, new Progress().view(), 'without a progress object: its first step')
  t.equal(batchView({ ...batch, finishedAt: 2 }, p).progress, null)
})

t.test('an indexing step shown for a while (embedding) counts on across uses and puts back what it covered', async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  const docs = p.count('document', 10)
  docs.add(4)
  const first = p.during('extracting embeddings', 'document', 10)
  first.add(4)
  docs.add(2)
  t.same(p.view().steps, [
    { currentStep: 'processing tasks', finished: 0, total: 2 },
    { currentStep: 'indexing', finished: 2, total: 3 },
    { currentStep: 'extracting embeddings', finished: 5, total: 13 },
    { currentStep: 'document', finished: 4, total: 10 },
  ])
  t.ok(Math.abs(p.view().percentage - (2 / 6 + 5 / 78 + 4 / 780) * 100) < 1e-9)
  first.end()
  t.same(p.view().steps[2], { currentStep: 'document', finished: 6, total: 10 }, 'the count beneath came back, moved on')
  const second = p.during('extracting embeddings', 'document', 10)
  second.add(3)
  t.same(p.view().steps[3], { currentStep: 'document', finished: 7, total: 10 }, 'the second use counts on from the first')
  p.phase('writing tasks to disk')
  second.end()
  t.same(p.view().steps, [{ currentStep: 'writing tasks to disk', finished: 1, total: 2 }], 'a phase entered since stays')
})

t.test('the percentage never goes back, even when the steps shown do', async (t) => {
  const p = new Progress()
  p.step(DOCUMENT_OPERATION, 'indexing')
  const docs = p.count('document', 10)
  docs.add(8)
  const stored = p.view().percentage
  t.ok(Math.abs(stored - (2 / 6 + 8 / 60) * 100) < 1e-9)
  // Embedding the next chunk shows a step whose own share is below what the stored documents reached.
  const embedding = p.during('extracting embeddings', 'document', 10)
  t.equal(p.view().steps[2]!.currentStep, 'extracting embeddings')
  t.equal(p.view().percentage, stored, 'held at the highest reached')
  embedding.add(10)
  embedding.end()
  docs.add(2)
  t.ok(Math.abs(p.view().percentage - 50) < 1e-9, 'and moves on once the steps pass it')
})
