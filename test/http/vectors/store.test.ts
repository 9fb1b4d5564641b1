/**
 * The vector store through HTTP: `_vectors` shapes and their semantics on additions, updates and deletions,
 * `retrieveVectors` on the documents routes, stats, `invalid_vector_dimensions` failing the task with nothing
 * applied, embedder removal, index clear.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'

t.test('vector store', async (t) => {
  const { url } = await serverFor(t)
  const req = (path: string, init: { method?: string; json?: unknown } = {}) => call(`${url}${path}`, init)
  const task = async (r: { body: any }) => waitTask(url, r.body.taskUid)
  const settings = (json: unknown) => req('/indexes/v/settings', { method: 'PATCH', json }).then(task)
  const add = (docs: unknown[], method = 'POST') => req('/indexes/v/documents', { method, json: docs }).then(task)
  const stats = async () => (await req('/indexes/v/stats')).body
  const doc = async (id: string) => (await req(`/indexes/v/documents/${id}?retrieveVectors=true`)).body

  t.equal((await settings({ embedders: { manual: { source: 'userProvided', dimensions: 3 }, other: { source: 'userProvided', dimensions: 2 } } })).status, 'succeeded')
  // As in Meilisearch, a new document names every userProvided embedder (`null` opts out).
  const added = await add([
    { id: '1', name: 'one', _vectors: { manual: [1, 0, 0], other: null } },
    { id: '2', name: 'two', _vectors: { manual: [[0, 1, 0], [0, 0, 1]], other: { embeddings: [0.1, 0.2], regenerate: false } } },
    { id: '3', name: 'three', _vectors: { manual: null, other: null } },
    { id: '4', name: 'four', _vectors: { unknown: [1, 2], manual: null, other: null } },
  ])
  t.equal(added.status, 'succeeded', JSON.stringify(added.error))

  await t.test('retrieveVectors on get and fetch', async (t) => {
    t.same(await doc('1'), { id: '1', name: 'one', _vectors: { manual: { embeddings: [[1, 0, 0]], regenerate: false }, other: { embeddings: [], regenerate: false } } })
    t.same((await doc('2'))._vectors, { manual: { embeddings: [[0, 1, 0], [0, 0, 1]], regenerate: false }, other: { embeddings: [[0.10000000149011612, 0.20000000298023224]], regenerate: false } }, 'f32 values widened, as Meilisearch shows them')
    t.same((await doc('4'))._vectors.unknown, { embeddings: [[1, 2]], regenerate: false }, 'names that are not embedders stay as given')
    t.same(await (await req('/indexes/v/documents/1')).body, { id: '1', name: 'one' }, 'without retrieveVectors there is no _vectors')
    const fetched = (await req('/indexes/v/documents/fetch', { method: 'POST', json: { ids: ['2'], retrieveVectors: true } })).body
    t.same(fetched.results[0]._vectors.manual.embeddings, [[0, 1, 0], [0, 0, 1]])
  })

  await t.test('stats count vectors and embedded documents', async (t) => {
    const s = await stats()
    t.equal(s.numberOfEmbeddings, 4)
    t.equal(s.numberOfEmbeddedDocuments, 2)
  })

  await t.test('wrong dimensions fail the task and change nothing', async (t) => {
    const failed = await add([{ id: '5', name: 'five', _vectors: { manual: [1, 2, 3] } }, { id: '6', _vectors: { manual: [1, 2] } }])
    t.equal(failed.status, 'failed')
    t.same(failed.error, { message: 'Index `v`: Invalid vector dimensions in document with id `6` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3', code: 'invalid_vector_dimensions', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_vector_dimensions' })
    t.equal((await req('/indexes/v/documents/5')).status, 404, 'nothing of the batch applied')
    t.equal((await stats()).numberOfEmbeddings, 4)
  })

  await t.test('updates keep vectors they do not mention; replacements set what they give', async (t) => {
    t.equal((await add([{ id: '1', name: 'uno' }], 'PUT')).status, 'succeeded')
    t.same((await doc('1'))._vectors.manual.embeddings, [[1, 0, 0]], 'partial update without _vectors keeps them')
    t.equal((await add([{ id: '1', name: 'uno', _vectors: { manual: [0, 0, 1] } }])).status, 'succeeded')
    t.same((await doc('1'))._vectors.manual.embeddings, [[0, 0, 1]], 'new vectors replace the old ones')
    t.equal((await add([{ id: '1', name: 'uno', _vectors: { manual: { embeddings: [0, 1, 1], regenerate: true } } }])).status, 'succeeded')
    t.same((await doc('1'))._vectors.manual, { embeddings: [[0, 1, 1]], regenerate: true })
  })

  await t.test('deleting a document deletes its vectors', async (t) => {
    await req('/indexes/v/documents/2', { method: 'DELETE' }).then(task)
    const s = await stats()
    t.equal(s.numberOfEmbeddings, 1)
    t.equal(s.numberOfEmbeddedDocuments, 1)
  })

  await t.test('removing an embedder drops its vectors', async (t) => {
    await add([{ id: '7', _vectors: { other: [1, 1], manual: null } }])
    t.equal((await stats()).numberOfEmbeddings, 2)
    t.equal((await settings({ embedders: { other: null } })).status, 'succeeded')
    t.equal((await stats()).numberOfEmbeddings, 1)
    // As in Meilisearch, a removed user-provided embedder's vectors stay in the document's own `_vectors`.
    t.same((await doc('7'))._vectors, { other: { embeddings: [[1, 1]], regenerate: false }, manual: { embeddings: [], regenerate: false } })
  })

  await t.test('edit by function: the _vectors a script leaves are the vectors', async (t) => {
    await req('/experimental-features', { method: 'PATCH', json: { editDocumentsByFunction: true } })
    await add([{ id: '8', name: 'eight', _vectors: { manual: [1, 1, 1] } }])
    const edited = await req('/indexes/v/documents/edit', { method: 'POST', json: { function: 'doc._vectors = #{ manual: [0.5, 0.5, 0.0] }', filter: null } }).then(task)
    t.equal(edited.status, 'succeeded', JSON.stringify(edited.error))
    t.same((await doc('8'))._vectors.manual.embeddings, [[0.5, 0.5, 0]])
  })

  await t.test('swaps carry vectors along; deleting an index drops them', async (t) => {
    const other = (json: unknown) => req('/indexes/w/settings', { method: 'PATCH', json }).then(task)
    await other({ embedders: { manual: { source: 'userProvided', dimensions: 3 } } })
    await req('/indexes/w/documents', { method: 'POST', json: [{ id: 'w1', _vectors: { manual: [0, 0, 1] } }] }).then(task)
    const before = (await stats()).numberOfEmbeddings
    t.equal((await req('/swap-indexes', { method: 'POST', json: [{ indexes: ['v', 'w'] }] }).then(task)).status, 'succeeded')
    t.equal((await stats()).numberOfEmbeddings, 1, 'v now has w\'s vectors')
    t.same((await doc('w1'))._vectors.manual.embeddings, [[0, 0, 1]])
    t.equal((await req('/indexes/w/stats')).body.numberOfEmbeddings, before)
    await req('/swap-indexes', { method: 'POST', json: [{ indexes: ['v', 'w'] }] }).then(task)
    t.equal((await req('/indexes/w', { method: 'DELETE' }).then(task)).status, 'succeeded')
    await other({ embedders: { manual: { source: 'userProvided', dimensions: 3 } } })
    t.equal((await req('/indexes/w/stats')).body.numberOfEmbeddings, 0, 'a new index of the same name starts empty')
  })

  await t.test('clearing the index drops every vector', async (t) => {
    await req('/indexes/v/documents', { method: 'DELETE' }).then(task)
    const s = await stats()
    t.equal(s.numberOfEmbeddings, 0)
    t.equal(s.numberOfEmbeddedDocuments, 0)
  })
})
