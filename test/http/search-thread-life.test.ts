/**
 * Search threads over HTTP, through their test hooks (workers/search-pool.ts, SearchThreadHooks): a search's time
 * and its `searchCutoffMs` budget start when a thread takes it, not while it waits for one (as Meilisearch's start
 * once a search holds its permit); a real search thread that exits in the middle
 * of a search fails that request with Meilisearch's `internal` error, is replaced, and nothing is lost.
 */
import t from 'tap'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, seedIndex, serverFor, tempDir, waitTask } from '../helpers/server.js'

const WORDS = ['apple', 'banana', 'cherry', 'delta', 'echo', 'foxtrot']
const docs = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `${WORDS[i % 6]} ${WORDS[(i * 5) % 6]} item${i}` }))

/** Resolves once `path` exists (polled). */
async function appears(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** The response without its timing, as text. */
const answer = (r: { status: number; text: string }) => `${r.status} ${r.text.replace(/"processingTimeMs":\d+/g, '"processingTimeMs":0')}`

t.test('the wait for a free thread counts neither in processingTimeMs nor in the searchCutoffMs budget', async (t) => {
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
  t.ok(body.processingTimeMs < WAIT, `its processingTimeMs (${body.processingTimeMs}) leaves out its ${WAIT} ms in the queue`)
  t.ok(body.hits.length > 0)
  for (const hit of body.hits) t.notSame(hit._rankingScoreDetails, { skipped: { order: 0 } }, `${hit.id}: its 200 ms budget starts on the thread: ranked`)
})

t.test('a search thread exiting in the middle of a search: that request fails, the thread is replaced, nothing is lost', async (t) => {
  const EXIT = 'apple banana'
  const threaded = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '1', TESSERA_TEST_SEARCH_THREAD_EXIT: EXIT } })
  const here = await serverFor(t, { env: { TESSERA_SEARCH_THREADS: '0' } })
  for (const server of [threaded, here]) await seedIndex(server.url, 'life', { filterableAttributes: ['id'] }, docs)
  const QUERIES = [{ q: 'cherry' }, { q: 'delta', filter: 'id > 10' }, { q: 'echo foxtrot', limit: 3 }, { q: 'apple' }]
  const ask = async (url: string, json: unknown) => answer(await call(`${url}/indexes/life/search`, { method: 'POST', json }))
  const expected = await Promise.all(QUERIES.map((q) => ask(here.url, q)))

  // The exiting search first on the one thread, the others queued behind it: they run on its replacement.
  const dying = call(`${threaded.url}/indexes/life/search`, { method: 'POST', json: { q: EXIT } })
  const queued = QUERIES.map((q) => ask(threaded.url, q))
  const died = await dying
  t.equal(died.status, 500, 'the request whose thread exited is answered 500')
  t.match(died.body, { code: 'internal', type: 'internal', link: 'https://docs.meilisearch.com/errors#internal', message: /search thread.*stopped/ })
  t.same(await Promise.all(queued), expected, 'the searches queued behind it are answered as the HTTP thread answers')

  // The replacement is a search thread too: the same search makes it exit again, and the next one replaces it.
  t.equal((await call(`${threaded.url}/indexes/life/search`, { method: 'POST', json: { q: EXIT } })).status, 500, 'the replacement ran the search')
  for (const [n, q] of QUERIES.entries()) t.equal(await ask(threaded.url, q), expected[n], `after: ${JSON.stringify(q)}`)

  // Nothing lost: every document is there, and the index still takes writes that searches see.
  const stats = await call(`${threaded.url}/indexes/life/stats`)
  t.equal(stats.body.numberOfDocuments, docs.length)
  const added = await call(`${threaded.url}/indexes/life/documents`, { method: 'POST', json: [{ id: 100, text: 'zulu newcomer' }] })
  t.equal((await waitTask(threaded.url, added.body.taskUid)).status, 'succeeded')
  const found = await call(`${threaded.url}/indexes/life/search`, { method: 'POST', json: { q: 'zulu' } })
  t.same(found.body.hits, [{ id: 100, text: 'zulu newcomer' }])
})
