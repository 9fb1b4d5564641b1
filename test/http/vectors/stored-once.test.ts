/**
 * Vectors stored once: a document is stored without the `_vectors` entries of configured embedders (the vector
 * store holds them), as milli stores it; what the stored document holds is what an edit-by-function script sees
 * as `doc._vectors`. `retrieveVectors` puts them back from the store; a new embedder takes the entries documents
 * carry and they leave the documents; a removed embedder's user-provided vectors are written back into them.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'

t.test('vectors stored once', async (t) => {
  const { url } = await serverFor(t)
  const req = (path: string, init: { method?: string; json?: unknown } = {}) => call(`${url}${path}`, init)
  const task = async (r: { body: any }) => waitTask(url, r.body.taskUid)
  const ok = async (p: Promise<any>) => {
    const done = await p
    t.equal(done.status, 'succeeded', JSON.stringify(done.error))
  }
  const settings = (json: unknown) => ok(req('/indexes/s/settings', { method: 'PATCH', json }).then(task))
  const add = (docs: unknown[], method = 'POST') => ok(req('/indexes/s/documents', { method, json: docs }).then(task))
  const doc = async (id: string, vectors = true) => (await req(`/indexes/s/documents/${id}${vectors ? '?retrieveVectors=true' : ''}`)).body
  // What the stored documents hold under `_vectors`, as a script sees them (a missing property reads as null).
  const storedVectors = async (): Promise<Record<string, unknown>> => {
    await ok(req('/indexes/s/documents/edit', { method: 'POST', json: { function: 'doc.seen = doc._vectors' } }).then(task))
    const docs = (await req('/indexes/s/documents?limit=100')).body.results as { id: string; seen: unknown }[]
    await ok(req('/indexes/s/documents/edit', { method: 'POST', json: { function: 'doc.remove("seen")' } }).then(task))
    return Object.fromEntries(docs.map((d) => [d.id, d.seen]))
  }

  t.equal((await req('/experimental-features', { method: 'PATCH', json: { editDocumentsByFunction: true } })).status, 200)
  await settings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } })
  await add([
    { id: 'a', name: 'only an embedder', _vectors: { manual: [1, 0] } },
    { id: 'b', name: 'and an unknown name', _vectors: { manual: { embeddings: [[0, 1], [1, 1]], regenerate: false }, later: [0.5, 0.25] } },
    { id: 'c', name: 'regenerate', _vectors: { manual: { embeddings: [0.25, 0.5], regenerate: true } } },
    { id: 'd', name: 'opted out', _vectors: { manual: null } },
  ])

  await t.test('stored without the configured embedders\' entries; shown back from the store', async (t) => {
    t.same(await storedVectors(), { a: null, b: { later: [0.5, 0.25] }, c: null, d: null })
    t.same(await doc('a', false), { id: 'a', name: 'only an embedder' })
    t.same((await doc('a'))._vectors, { manual: { embeddings: [[1, 0]], regenerate: false } })
    t.same((await doc('b'))._vectors, { later: { embeddings: [[0.5, 0.25]], regenerate: false }, manual: { embeddings: [[0, 1], [1, 1]], regenerate: false } })
    t.same((await doc('c'))._vectors, { manual: { embeddings: [[0.25, 0.5]], regenerate: true } }, 'the regenerate flag is kept by the store')
    t.same((await doc('d'))._vectors, { manual: { embeddings: [], regenerate: false } })
    const hit = (await req('/indexes/s/search', { method: 'POST', json: { vector: [1, 0], hybrid: { embedder: 'manual', semanticRatio: 1 }, retrieveVectors: true, limit: 1 } })).body.hits[0]
    t.same(hit, { id: 'a', name: 'only an embedder', _vectors: { manual: { embeddings: [[1, 0]], regenerate: false } } })
  })

  await t.test('updates and edits keep the document free of them', async (t) => {
    await add([{ id: 'a', _vectors: { manual: [0, 1] } }], 'PUT')
    await add([{ id: 'd', name: 'replaced', _vectors: { manual: [1, 1], later: null } }])
    await ok(req('/indexes/s/documents/edit', { method: 'POST', json: { function: 'if doc.id == "c" { doc._vectors = #{ manual: [1.0, 0.0] } }' } }).then(task))
    t.same(await storedVectors(), { a: null, b: { later: [0.5, 0.25] }, c: null, d: { later: null } })
    t.same((await doc('a'))._vectors.manual.embeddings, [[0, 1]])
    t.same((await doc('c'))._vectors.manual, { embeddings: [[1, 0]], regenerate: false }, 'a script\'s vectors are user-provided')
  })

  await t.test('a new embedder takes the entries documents carry, and they leave the documents', async (t) => {
    await settings({ embedders: { later: { source: 'userProvided', dimensions: 2 } } })
    t.same(await storedVectors(), { a: null, b: null, c: null, d: null })
    t.same((await doc('b'))._vectors.later, { embeddings: [[0.5, 0.25]], regenerate: false })
    t.same((await doc('d'))._vectors.later, { embeddings: [], regenerate: false })
  })

  await t.test('a removed embedder writes its user-provided vectors back into the documents', async (t) => {
    await add([{ id: 'e', _vectors: { manual: { embeddings: [0.75, 0.5], regenerate: true }, later: [1, 1] } }])
    await settings({ embedders: { manual: null } })
    t.same(await storedVectors(), {
      a: { manual: { embeddings: [[0, 1]], regenerate: false } },
      b: { manual: { embeddings: [[0, 1], [1, 1]], regenerate: false } },
      c: { manual: { embeddings: [[1, 0]], regenerate: false } },
      d: { manual: { embeddings: [[1, 1]], regenerate: false } },
      e: null,
    }, 'vectors that asked to be regenerated are not user-provided: dropped')
    t.same((await doc('b'))._vectors, { manual: { embeddings: [[0, 1], [1, 1]], regenerate: false }, later: { embeddings: [[0.5, 0.25]], regenerate: false } })
    const stats = (await req('/indexes/s/stats')).body
    t.equal(stats.numberOfEmbeddings, 2, 'only `later`\'s are counted')
  })
})
