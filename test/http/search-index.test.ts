/**
 * The inverted index through HTTP: it survives a restart (loaded from RocksDB), follows deletions, partial updates
 * and settings that change the indexed words (a rebuild), and searches see the previous view while a batch runs.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { call, serverFor, startServer, tempDir, updateSettings, waitTask } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { seededRandom } from '../helpers/random.js'

const ids = (body: any) => body.hits.map((h: any) => h.id)
const sorted = (body: any) => ids(body).sort((a: number, b: number) => a - b)

async function search(url: string, uid: string, q: string, extra: Record<string, unknown> = {}) {
  const r = await call(`${url}/indexes/${uid}/search`, { method: 'POST', json: { q, ...extra } })
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`)
  return r.body
}

async function add(url: string, uid: string, docs: unknown[], method = 'POST') {
  const r = await call(`${url}/indexes/${uid}/documents`, { method, json: docs })
  return waitTask(url, r.body.taskUid)
}

const DOCS = [
  { id: 1, title: 'Pride and Prejudice', overview: 'A novel of manners in rural England' },
  { id: 2, title: 'Emma', overview: 'A young woman plays matchmaker in England' },
  { id: 3, title: 'Persuasion', overview: 'A second chance at love' },
]

t.test('the index is durable: the same hits after a restart', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const first = await startServer({ dbPath })
  await add(first.url, 'books', DOCS)
  const before = await search(first.url, 'books', 'england', { showRankingScore: true })
  t.same(ids(before), [1, 2])
  await first.stop()
  const second = await startServer({ dbPath })
  t.teardown(() => second.stop())
  const after = await search(second.url, 'books', 'england', { showRankingScore: true })
  t.same(after.hits, before.hits, 'same hits and scores from the reloaded index')
  // And it keeps indexing on top of what it loaded.
  await add(second.url, 'books', [{ id: 4, title: 'Mansfield Park', overview: 'Set in England' }])
  t.same(sorted(await search(second.url, 'books', 'england')), [1, 2, 4])
  t.same(ids(await search(second.url, 'books', 'prejudice')), [1])
})

/**
 * One server for the tests that only need indexes of their own (a server's start and stop cost about 2 s of CPU);
 * the restart and the held batch start their own.
 */
const shared = await serverFor(t)

t.test('deletions, updates and word-changing settings', async (t) => {
  const { url } = shared
  await add(url, 'books', DOCS)
  await waitTask(url, (await call(`${url}/indexes/books/documents/2`, { method: 'DELETE' })).body.taskUid)
  t.same(ids(await search(url, 'books', 'england')), [1], 'a deleted document is no longer found')
  await add(url, 'books', [{ id: 3, overview: 'A story set in Bath, England' }], 'PUT')
  t.same(ids(await search(url, 'books', 'bath')), [3], 'a partial update is indexed as merged')
  t.same(ids(await search(url, 'books', 'persuasion')), [3], 'the fields it did not send are still searchable')
  t.same(ids(await search(url, 'books', 'chance')), [], 'the replaced field value is gone')

  // Only the title is searchable: overview words vanish from the index (a rebuild).
  let task = await call(`${url}/indexes/books/settings`, { method: 'PATCH', json: { searchableAttributes: ['title'] } })
  await waitTask(url, task.body.taskUid)
  t.same(ids(await search(url, 'books', 'england')), [])
  t.same(ids(await search(url, 'books', 'emma')), [])
  t.same(ids(await search(url, 'books', 'pride')), [1])
  // Stop words are not indexed (they match case-sensitively, as in Meilisearch).
  task = await call(`${url}/indexes/books/settings`, { method: 'PATCH', json: { searchableAttributes: ['*'], stopWords: ['rural'] } })
  await waitTask(url, task.body.taskUid)
  t.same(ids(await search(url, 'books', 'rural')), [], 'a stop word is not indexed')
  t.same(ids(await search(url, 'books', 'rural manners')), [1], 'and is dropped from the query')
  t.same(ids(await search(url, 'books', 'novel')), [1], 'other words are back with searchable *')
  // Clearing the documents empties the index.
  await waitTask(url, (await call(`${url}/indexes/books/documents`, { method: 'DELETE' })).body.taskUid)
  t.same(ids(await search(url, 'books', 'novel')), [])
})

t.test('searches see the previous view while a batch is processed', async (t) => {
  const gate = batchGate(t)
  const { url } = await serverFor(t, { env: gate.env })
  await add(url, 'books', DOCS)
  gate.close()
  const pending = await call(`${url}/indexes/books/documents`, { method: 'POST', json: [{ id: 9, title: 'Northanger Abbey', overview: 'England again' }] })
  // The batch is held in processing until the gate opens.
  while ((await call(`${url}/tasks/${pending.body.taskUid}`)).body.status !== 'processing') await new Promise((r) => setTimeout(r, 20))
  t.same(ids(await search(url, 'books', 'england')), [1, 2], 'the running batch is invisible')
  t.same(ids(await search(url, 'books', 'abbey')), [])
  gate.open()
  await waitTask(url, pending.body.taskUid)
  t.same(sorted(await search(url, 'books', 'england')), [1, 2, 9], 'visible once published')
})

t.test('index_not_found and placeholder search', async (t) => {
  const { url } = shared
  const missing = await call(`${url}/indexes/nope/search`, { method: 'POST', json: { q: 'x' } })
  t.equal(missing.status, 404)
  t.equal(missing.body.code, 'index_not_found')
  await add(url, 'placeholder', DOCS)
  const all = await search(url, 'placeholder', '', { limit: 2, showRankingScore: true })
  t.same(ids(all), [1, 2])
  t.equal(all.estimatedTotalHits, 3)
  t.same(all.hits.map((h: any) => h._rankingScore), [1, 1])
})

for (const size of [400, 2400]) t.test(`every window of a bucket of ${size} is the matching slice of the full ranking`, async (t) => {
  // All documents match `alpha` (one words bucket): windows of 20 rank only their part of the bucket (a bounded
  // heap; from 2,000 documents, sub-buckets by typo, field weight and word position first), and must agree with
  // the full order, ties broken by insertion order, scores non-increasing.
  const server = shared
  const uid = `window-${size}`
  const words = ['alpha', 'beta', 'gamma', 'delta', 'alphabet', 'alps', 'alpine', 'alpah']
  const rand = seededRandom(7).int
  const docs = Array.from({ length: size }, (_, id) => {
    const pick = (n: number) => Array.from({ length: n }, () => words[rand(words.length)]).join(' ')
    const anchor = ['alpha', 'alpah', 'alphas'][rand(3)]
    return rand(2) === 0
      ? { id, title: `${pick(rand(4))} ${anchor} ${pick(rand(3))}`.trim(), body: pick(rand(6)) }
      : { id, title: pick(rand(3)), body: `${pick(rand(6))} ${anchor} ${pick(2)}` }
  })
  const r = await call(`${server.url}/indexes/${uid}/documents`, { method: 'POST', json: docs })
  await waitTask(server.url, r.body.taskUid)
  await updateSettings(server.url, uid, { searchableAttributes: ['title', 'body'], pagination: { maxTotalHits: 5000 } })
  for (const q of ['alpha', 'alp', 'alpha beta']) {
    const full = await search(server.url, uid, q, { limit: size, showRankingScore: true })
    t.ok(full.hits.length > size / 2, `${q}: most documents`)
    const scores = full.hits.map((h: any) => h._rankingScore)
    t.ok(scores.every((s: number, i: number) => i === 0 || s <= scores[i - 1]), `${q}: scores never increase`)
    // Searching the same fields by name ranks each document on its own, without sub-buckets: the same order.
    const unsplit = await search(server.url, uid, q, { limit: size, attributesToSearchOn: ['title', 'body'] })
    t.same(ids(full), ids(unsplit), `${q}: the order of document-by-document ranking`)
    for (const offset of [0, 20, 190, Math.floor(full.hits.length / 2), full.hits.length - 5]) {
      const page = await search(server.url, uid, q, { offset, limit: 20 })
      t.same(ids(page), ids(full).slice(offset, offset + 20), `${q}: offset ${offset}`)
    }
  }
})
