/**
 * Search threads under a stream of writes and searches: each publish hands the threads a new view of the index
 * (shared buffers the size of the index), and the old one must be freed. Before the threads collected their
 * garbage after view changes, RSS grew by ~1.8 MB per publish on this index (workers/thread-garbage.ts; the test
 * shortens the interval between collections from 10 s to 0.5 s).
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { call, seedIndex, serverFor, waitTask } from '../helpers/server.js'

const DOCUMENTS = 5000
const PUBLISHES = 120
/** The growth allowed over the measured publishes: about a third of what the old views alone took. */
const ALLOWED_GROWTH_MB = 70

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const word = (i: number) => (i * 2654435761 >>> 0).toString(36)

t.test('old views are freed on the threads as publishes replace them', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  const server = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '2', TESSERA_TEST_VIEW_COLLECTION_MS: '500' } })
  const docs = Array.from({ length: DOCUMENTS }, (_, i) => ({ id: i, title: `alpha ${word(i)}`, body: `gamma delta ${word(i * 7)} ${word(i * 13)} word${i % 50}`, n: i % 100 }))
  await seedIndex(server.url, 'stream', { filterableAttributes: ['n'] }, docs)
  let before = 0
  for (let i = 0; i <= PUBLISHES; i++) {
    if (i === 20) before = rssMb(server.proc.pid!) // after the threads started and the first views came and went
    const write = await call(`${server.url}/indexes/stream/documents`, { method: 'POST', json: [{ id: i, title: `changed ${word(i + 99)}`, body: 'z w', n: i % 100 }] })
    const task = await waitTask(server.url, write.body.taskUid, 60_000)
    if (task.status !== 'succeeded') t.fail(`publish ${i}: ${JSON.stringify(task)}`)
    const search = await call(`${server.url}/indexes/stream/search`, { method: 'POST', json: { q: 'gamma word1', filter: 'n < 50' } })
    if (search.status !== 200) t.fail(`search ${i}: ${search.status} ${search.text}`)
  }
  const growth = rssMb(server.proc.pid!) - before
  t.ok(growth < ALLOWED_GROWTH_MB, `RSS grew ${growth.toFixed(0)} MB over ${PUBLISHES - 20} publishes (at most ${ALLOWED_GROWTH_MB})`)
})
