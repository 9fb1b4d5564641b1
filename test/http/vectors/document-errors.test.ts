/**
 * Errors on documents' `_vectors`, word for word as Meilisearch's tests/vector/mod.rs snapshots them
 * (user_provided_embeddings_error, user_provide_mismatched_embedding_dimension): the path of the first bad value,
 * depth first, with its kind; a missing `regenerate` with the shapes allowed; serde's words for a `regenerate` that
 * is not a boolean; the document, embedder and embedding of a vector of the wrong size.
 */
import t from 'tap'
import { call, serverFor, seedIndex, waitTask } from '../../helpers/server.js'

const PREFIX = 'Index `doggo`: Bad embedder configuration in the document with id: `0`. '

t.test('_vectors errors on documents', async (t) => {
  const { url } = await serverFor(t)
  await seedIndex(url, 'doggo', { embedders: { manual: { source: 'userProvided', dimensions: 3 } } }, [
    { id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0] } },
    { id: 2, name: 'billou', _vectors: { manual: [[2, 2, 2], [2, 2, 3]] } },
    { id: 4, name: 'max', _vectors: { manual: { regenerate: false, embeddings: [[4, 4, 4], [4, 4, 5]] } } },
  ])
  const add = async (doc: unknown) => {
    const r = await call(`${url}/indexes/doggo/documents`, { method: 'POST', json: doc })
    t.equal(r.status, 202)
    return waitTask(url, r.body.taskUid)
  }
  const missing = 'Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`'
  const cases: [unknown, string][] = [
    [{ embeddings: [0, 0, 0] }, missing],
    [{}, missing],
    [{ regenerate: 'yes please' }, 'Could not parse `._vectors.manual.regenerate`: invalid type: string "yes please", expected a boolean at line 1 column 26'],
    [{ embeddings: true, regenerate: true }, 'Invalid value type at `._vectors.manual.embeddings`: expected null or an array, but found a boolean: `true`'],
    [{ embeddings: [true], regenerate: true }, 'Invalid value type at `._vectors.manual.embeddings[0]`: expected a number or an array, but found a boolean: `true`'],
    [{ embeddings: [[true]], regenerate: false }, 'Invalid value type at `._vectors.manual.embeddings[0][0]`: expected a number, but found a boolean: `true`'],
    [{ regenerate: false, embeddings: [0.1, [0.2, 0.3]] }, 'Invalid value type at `._vectors.manual.embeddings[1]`: expected a number, but found an array: `[0.2,0.3]`'],
    [{ regenerate: false, embeddings: [[0.1, 0.2], 0.3] }, 'Invalid value type at `._vectors.manual.embeddings[1]`: expected an array, but found a number: `0.3`'],
    [{ regenerate: false, embeddings: [[0.1, true], 0.3] }, 'Invalid value type at `._vectors.manual.embeddings[0][1]`: expected a number, but found a boolean: `true`'],
  ]
  for (const [manual, message] of cases) {
    const task = await add({ id: 0, name: 'kefir', _vectors: { manual } })
    t.equal(task.status, 'failed', JSON.stringify(manual))
    t.same(task.details, { receivedDocuments: 1, indexedDocuments: 0 })
    t.same(task.error, { message: PREFIX + message, code: 'invalid_vectors_type', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_vectors_type' }, JSON.stringify(manual))
  }
  for (const manual of [{ embeddings: [23, 0.1, -12], regenerate: true }, { regenerate: false }]) {
    t.equal((await add({ id: 0, name: 'kefir', _vectors: { manual } })).status, 'succeeded', JSON.stringify(manual))
  }

  const dims = 'Index `doggo`: Invalid vector dimensions in document with id `0` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3'
  for (const manual of [[0, 0], [[0, 0], [1, 1], [2, 2]]]) {
    const task = await add([{ id: 0, name: 'kefir', _vectors: { manual } }])
    t.same(task.error, { message: dims, code: 'invalid_vector_dimensions', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_vector_dimensions' })
  }
  const second = await add([{ id: 7, _vectors: { manual: [[0, 0, 0], [1, 1]] } }])
  t.match(second.error.message, 'embedding #1 has dimensions 2', 'the embedding at fault is named')
})
