/**
 * A failing embedder at search time, as Meilisearch answers it: a hybrid search falls back to keyword hits
 * (`semanticHitCount: 0`) once its deadline cuts the retries short; a semantic-only search answers
 * `vector_embedding_error`. After a restart the query embedder is rebuilt without a dimension probe when the index
 * stores vectors, and a probe that is needed does not hold the search past its deadline (nor the shutdown). The
 * servers run with deadlines of 1 s (hybrid) and 1.5 s (semantic) instead of Meilisearch's 3 s and 10 s: the
 * behaviour is the same, and the file no longer waits ~30 s on the clock.
 */
import { rmSync } from 'node:fs'
import t from 'tap'
import { startServer, tempDir, type TestServer } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

type Search = { hits: { id: string }[]; semanticHitCount?: number }

const ALLOW = ['--experimental-allowed-ip-networks', '127.0.0.0/8']
const DEADLINES = { TESSERA_EXPERIMENTAL_HYBRID_QUERY_DEADLINE_MS: '1000', TESSERA_EXPERIMENTAL_SEMANTIC_QUERY_DEADLINE_MS: '1500' }

/** A search with a generous bound: a search that waits out the whole retry schedule (minutes) fails here. */
async function search(server: TestServer, index: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${server.url}/indexes/${index}/search`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000),
  })
  return { status: r.status, body: await r.json() }
}

t.test('a failing embedder at search time', async (t) => {
  const remote = await EmbeddingServer.start()
  const dbPath = tempDir()
  let server = await startServer({ dbPath, args: ALLOW, env: DEADLINES })
  t.teardown(async () => {
    await server.stop()
    await remote.close()
    rmSync(dbPath, { recursive: true, force: true })
  })
  const rest = {
    source: 'rest' as const, url: `${remote.url}/batch`, documentTemplate: '{{doc.title}}',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  for (const uid of ['movies', 'empty']) {
    t.equal((await server.client.index(uid).updateSettings({ embedders: { rest } }).waitTask()).status, 'succeeded')
  }
  const added = await server.client.index('movies').addDocuments([{ id: '1', title: 'a brave dog' }, { id: '2', title: 'kefir the cat' }], { primaryKey: 'id' }).waitTask()
  t.equal(added.status, 'succeeded', JSON.stringify(added.error))
  // A fresh process: no query embedder is built yet.
  await server.stop()
  server = await startServer({ dbPath, args: ALLOW, env: DEADLINES })
  const texts = () => remote.requestsTo('/batch').flatMap((r) => (r.body as { texts: { text: string }[] }).texts.map((x) => x.text))

  await t.test('a hybrid search falls back to keyword hits within its deadline, with no probe', async (t) => {
    remote.requests.length = 0
    remote.faults.push(...Array.from({ length: 40 }, () => ({ status: 500 })))
    const r = await search(server, 'movies', { q: 'brave dog', hybrid: { embedder: 'rest', semanticRatio: 0.5 } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    t.same((r.body as Search).hits.map((h) => h.id), ['1'], 'the keyword hits')
    t.equal((r.body as Search).semanticHitCount, 0)
    const sent = texts()
    t.notOk(sent.includes('test'), 'the stored vectors give the dimensions: no probe request')
    t.ok(sent.length >= 2, `the query was retried (${sent.length} attempts)`)
    t.ok(sent.length < 11, `the deadline cut the retries short (${sent.length} of the 11 attempts)`)
    t.ok(sent.every((x) => x === 'brave dog'))
  })

  await t.test('a semantic search answers the embedder error', async (t) => {
    remote.requests.length = 0
    const r = await search(server, 'movies', { q: 'brave dog', hybrid: { embedder: 'rest', semanticRatio: 1 } })
    t.equal(r.status, 400)
    t.equal(r.body.code, 'vector_embedding_error')
    t.equal(r.body.type, 'invalid_request')
    t.equal(r.body.message, 'Error while generating embeddings: runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `{"error":"scripted failure"}`')
    t.ok(texts().length < 11, 'the deadline cut the retries short')
    remote.faults.length = 0
  })

  await t.test('a hanging embedder: the request is cut at the deadline and hybrid falls back', async (t) => {
    remote.requests.length = 0
    remote.faults.push({ hang: true })
    const r = await search(server, 'movies', { q: 'kefir', hybrid: { embedder: 'rest', semanticRatio: 0.5 } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    t.same((r.body as Search).hits.map((h) => h.id), ['2'])
    t.equal((r.body as Search).semanticHitCount, 0)
    t.equal(texts().length, 1, 'one request, left hanging until the deadline: no retry after it')
    remote.faults.length = 0
  })

  await t.test('a probe that is needed (no stored vectors) does not hold the search past its deadline', async (t) => {
    remote.requests.length = 0
    remote.faults.push(...Array.from({ length: 40 }, () => ({ status: 500 })))
    const r = await search(server, 'empty', { q: 'anything', hybrid: { embedder: 'rest', semanticRatio: 0.5 } })
    t.equal(r.status, 200, JSON.stringify(r.body))
    t.same((r.body as Search).hits, [])
    t.equal((r.body as Search).semanticHitCount, 0)
    t.ok(texts().length > 0 && texts().every((x) => x === 'test'), 'the probe was under way')
    const semantic = await search(server, 'empty', { q: 'anything', hybrid: { embedder: 'rest', semanticRatio: 1 } })
    t.equal(semantic.status, 400)
    t.equal(semantic.body.code, 'vector_embedding_error')
    t.match(semantic.body.message, /^Error while generating embeddings: /)
    // The probe is still retrying in the server: stopping it ends the probe (no wait for its retries).
    t.equal(await server.stop(), 0, 'the server stops while the probe retries')
    remote.faults.length = 0
    server = await startServer({ dbPath, args: ALLOW, env: DEADLINES })
  })

  await t.test('once the embedder answers again, hybrid search ranks semantically again', async (t) => {
    const r = await search(server, 'movies', { q: 'kefir the cat', hybrid: { embedder: 'rest', semanticRatio: 0.9 } })
    t.equal(r.status, 200)
    t.equal((r.body as Search).hits[0]?.id, '2')
    t.ok(((r.body as Search).semanticHitCount ?? 0) > 0)
  })
})
