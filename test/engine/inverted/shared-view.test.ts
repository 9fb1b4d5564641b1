/**
 * Postings and forward records read by another thread over the views handed to it (shared memory, no copy), and
 * that thread still reading the view of its time after this one changes and compacts them.
 */
import t from 'tap'
import { Worker } from 'node:worker_threads'
import { Postings, RoaringBitmap32 } from '../../../engine/inverted/index.js'
import { ForwardRecords } from '../../../engine/inverted/forward.js'
import { siblingModule } from '../../../engine/util/module-path.js'
import { seededRandom } from '../../helpers/random.js'

const WORDS = 300
const DOCS = 400

interface Answer { shared: boolean; words: (number[] | null)[]; records: (number[] | null)[] }

t.test('a reader thread sees the view it was handed, never the changes made after', async (t) => {
  const rand = seededRandom(5).int
  const postings = new Postings()
  const forward = new ForwardRecords()
  const ids = () => [...new Set(Array.from({ length: 1 + rand(rand(2) ? 40 : 400) }, () => rand(5000)))].sort((a, b) => a - b)
  for (let w = 0; w < WORDS; w++) postings.set(w, new RoaringBitmap32(ids()))
  for (let d = 0; d < DOCS; d++) forward.set(d, Uint32Array.from({ length: 2 * (1 + rand(5)) }, () => rand(WORDS)))
  const expected = {
    words: Array.from({ length: WORDS }, (_, w) => postings.get(w)?.toArray() ?? null),
    records: Array.from({ length: DOCS }, (_, d) => [...forward.get(d)!]),
  }
  const ask = { postings: postings.view(), forward: forward.view(), words: WORDS, docs: DOCS }

  // The next publish: every word and document changes, the arenas are compacted.
  for (let w = 0; w < WORDS; w++) postings.set(w, rand(4) === 0 ? undefined : new RoaringBitmap32(ids()))
  for (let d = 0; d < DOCS; d++) forward.set(d, rand(4) === 0 ? null : Uint32Array.from({ length: 4 }, () => rand(WORDS)))
  postings.compact()
  forward.maybeCompact()

  const worker = new Worker(siblingModule(import.meta.url, './shared-view-reader'))
  t.teardown(() => worker.terminate())
  const answer = await new Promise<Answer>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.postMessage(ask)
  })
  t.ok(answer.shared, 'the reader got the shared buffers, not copies')
  t.same(answer.words, expected.words, 'postings as they were when the view was handed out')
  t.same(answer.records, expected.records, 'forward records likewise')
})
