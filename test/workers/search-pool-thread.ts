/**
 * A stand-in search thread for search-pool.test.ts: `q` says what to do. `echo` answers at once (saying whether the
 * view came with the job), `hold` waits until the test opens the gate it was handed in the view, `die` ends the
 * thread in the middle of its job, `clock` answers the job's `startedAt`.
 */
import { parentPort } from 'node:worker_threads'
import type { ThreadMessage } from '../../engine/search/thread-run.js'

parentPort!.on('message', (m: ThreadMessage) => {
  if (!m.work) return
  const q = m.work.kind === 'search' ? m.work.query.q : null
  if (q === 'die') process.exit(3)
  if (q === 'hold') Atomics.wait((m.view as unknown as { gate: Int32Array }).gate, 0, 0)
  if (q === 'clock') return parentPort!.postMessage({ id: m.id, answer: { response: { startedAt: m.startedAt } } })
  parentPort!.postMessage({ id: m.id, answer: { response: { q, view: m.view ? 'posted' : 'held' } } })
})
parentPort!.postMessage({ ready: true })
