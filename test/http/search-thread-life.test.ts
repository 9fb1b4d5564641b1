/**
 * Search threads over HTTP, through their test hooks (workers/search-pool.ts, SearchThreadHooks): a search's time
 * and its `searchCutoffMs` budget include its wait for a free thread.
 */
import t from 'tap'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, seedIndex, serverFor, tempDir } from '../helpers/server.js'

const WORDS = ['apple', 'banana', 'cherry', 'delta', 'echo', 'foxtrot']
const docs = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `${WORDS[i % 6]} ${WORDS[(i * 5) % 6]} item${i}` }))

/** Resolves once `path` exists (polled). */
async function appears(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 5))
}

t.test('the wait for a free thread counts in processingTimeMs and in the searchCutoffMs budget', async (t) => {
  const dir = tempDir('tessera-search-gate-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const gate = join(dir, 'gate')
  const server = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '1', TESSERA_TEST_SEARCH_THREAD_GATE: gate } })
  const { url } = server
  await seedIndex(url, 'queue', { searchCutoffMs: 200 }, docs)
  const search = (q: string) => call(`${url}/indexes/queue/search`, { method: 'POST', json: { q, showRankingScoreDetails: true } })
  const first = await search('apple banana')
  t.equal(first.status, 200, 'the thread is loaded and holds the view')

  // One search held on the only thread, a second one waiting behind it in the queue.
  writeFileSync(gate, '')
  const held = search('cherry')
  await appears(`${gate}.held`)
  rmSync(`${gate}.queued`, { force: true })
  const waiting = search('apple banana')
  await appears(`${gate}.queued`)
  // The second search is in the queue: it waits at least WAIT ms from now (a delay, not an assertion on timing).
  const WAIT = 600
  const since = performance.now()
  while (performance.now() - since < WAIT) await new Promise((resolve) => setTimeout(resolve, 20))
  rmSync(gate)
  t.equal((await held).status, 200)
  const { status, body } = await waiting
  t.equal(status, 200)
  t.ok(body.processingTimeMs >= WAIT, `its processingTimeMs (${body.processingTimeMs}) counts its ${WAIT} ms in the queue`)
  t.ok(body.hits.length > 0)
  for (const hit of body.hits) t.same(hit._rankingScoreDetails, { skipped: { order: 0 } }, `${hit.id}: its 200 ms budget was spent in the queue: nothing ranked`)
})
