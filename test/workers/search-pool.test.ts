/**
 * The search threads' pool (workers/search-pool.ts) over a stand-in thread: a search held on one thread does not
 * delay another; a thread dying in the middle of a search fails that search with an error and is replaced; the
 * queue is bounded (503 too_many_search_requests); a view is posted to a thread only when it does not hold it.
 */
import t from 'tap'
import { createSearchThreads } from '../../workers/search-pool.js'
import { siblingModule } from '../../engine/util/module-path.js'
import { TesseraError } from '../../engine/errors/index.js'
import type { ThreadAnswer, ThreadJob } from '../../engine/search/threads.js'

const filename = siblingModule(import.meta.url, './search-pool-thread')
const gate = () => new Int32Array(new SharedArrayBuffer(4))
const open = (g: Int32Array) => { Atomics.store(g, 0, 1); Atomics.notify(g, 0) }
const job = (q: string, serial = 's', view: object = {}): ThreadJob => ({ indexId: 1, serial, view: view as never, work: { kind: 'search', query: { q } as never } })
const noRead = () => null
const response = (a: ThreadAnswer) => ('response' in a ? a.response : a)
/** What a search failed with (null: it did not fail). */
const failure = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => (err instanceof TesseraError ? { code: err.code, status: err.status, message: err.message } : err))

t.test('a search held on one thread does not delay another', async (t) => {
  const threads = createSearchThreads({ threads: 2, queueSize: 10, filename })
  t.teardown(() => threads.close())
  const g = gate()
  let heldDone = false
  const held = threads.run(job('hold', 'h', { gate: g }), noRead).then((a) => { heldDone = true; return a })
  t.same(response(await threads.run(job('echo'), noRead)), { q: 'echo', view: 'posted' }, 'the other search answered')
  t.notOk(heldDone, 'while the held one still runs')
  open(g)
  t.same(response(await held), { q: 'hold', view: 'posted' })
})

t.test('a thread dying in the middle of a search: that search fails, the thread is replaced', async (t) => {
  const threads = createSearchThreads({ threads: 1, queueSize: 10, filename })
  t.teardown(() => threads.close())
  const dying = threads.run(job('die'), noRead)
  const queued = threads.run(job('echo'), noRead)
  t.match(await failure(dying), { code: 'internal', status: 500, message: /stopped/ })
  t.same(response(await queued), { q: 'echo', view: 'posted' }, 'the queued search ran on the new thread (handed the view again)')
  t.same(response(await threads.run(job('echo'), noRead)), { q: 'echo', view: 'held' })
})

t.test('the queue is bounded: one search more is refused with too_many_search_requests', async (t) => {
  const threads = createSearchThreads({ threads: 1, queueSize: 1, filename })
  t.teardown(() => threads.close())
  await threads.run(job('echo', 'w'), noRead)
  const g = gate()
  const running = threads.run(job('hold', 'h', { gate: g }), noRead)
  // The thread is loaded (the first search waited for it): the held job is on it once dispatched (synchronously),
  // and the next one waits in the queue.
  const waiting = threads.run(job('echo', 'h'), noRead)
  t.match(await failure(threads.run(job('echo', 'h'), noRead)), { code: 'too_many_search_requests', status: 503 })
  open(g)
  t.same(response(await running), { q: 'hold', view: 'posted' })
  t.same(response(await waiting), { q: 'echo', view: 'held' }, 'the waiting one ran after it')
})

t.test('a view goes to a thread only when it does not hold it yet', async (t) => {
  const threads = createSearchThreads({ threads: 1, queueSize: 10, filename })
  t.teardown(() => threads.close())
  const views = []
  for (const serial of ['a', 'a', 'b', 'b', 'a']) views.push((response(await threads.run(job('echo', serial), noRead)) as { view: string }).view)
  t.same(views, ['posted', 'held', 'posted', 'held', 'posted'])
  threads.forget(1)
  t.same(response(await threads.run(job('echo', 'a'), noRead)), { q: 'echo', view: 'posted' }, 'a forgotten index: its view is posted again')
})

t.test("a search's clock starts when a thread takes it, not while it waits for one", async (t) => {
  const threads = createSearchThreads({ threads: 1, queueSize: 10, filename })
  t.teardown(() => threads.close())
  const clock = async () => (response(await threads.run(job('clock'), noRead)) as { startedAt: number }).startedAt
  const before = performance.timeOrigin + performance.now()
  t.ok(await clock() >= before, 'a search started no earlier than it was asked for')
  const g = gate()
  const held = threads.run(job('hold', 'h', { gate: g }), noRead)
  const queued = clock()
  await new Promise((resolve) => setTimeout(resolve, 50))
  const opened = performance.timeOrigin + performance.now()
  open(g)
  await held
  t.ok(await queued >= opened, 'a search queued behind a held one starts its clock once the thread takes it')
})

t.test('closing rejects the searches still waiting', async (t) => {
  const threads = createSearchThreads({ threads: 1, queueSize: 10, filename })
  await threads.run(job('echo', 'w'), noRead)
  const g = gate()
  const running = threads.run(job('hold', 'h', { gate: g }), noRead)
  const waiting = threads.run(job('echo'), noRead)
  const closing = threads.close()
  t.match(await failure(waiting), { code: 'internal' })
  t.match(await failure(running), { code: 'internal' }, 'the running one fails with its terminated thread')
  open(g)
  await closing
})
