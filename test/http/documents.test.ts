import t from 'tap'
import { serverFor, startServer, call, waitTask, tempDir } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { rmSync } from 'node:fs'

const post = (url: string, body: string, type: string | null, method = 'POST') =>
  call(url, { method, body: new TextEncoder().encode(body), headers: type === null ? {} : { 'content-type': type } })

async function addAndWait(url: string, uid: string, docs: unknown, query = '', method = 'POST') {
  const res = await call(`${url}/indexes/${uid}/documents${query}`, { method, json: docs })
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status}: ${res.text}`)
  return waitTask(url, res.body.taskUid)
}

/**
 * One server for the tests that only need indexes of their own (each test its own uids): a server's start and stop
 * cost about 2 s of CPU. The tests that restart it or hold its batches start their own.
 */
const shared = await serverFor(t)

t.test('add, read and list documents with the meilisearch client', async (t) => {
  const server = shared
  const index = server.client.index('movies')
  const task = await index.addDocuments([
    { id: 1, title: 'Carol', info: { year: 2015, genres: ['drama'] } },
    { id: 2, title: 'Wonder Woman', info: { year: 2017, genres: ['action'] } },
    { id: 'three', title: 'Life of Pi' },
  ]).waitTask()
  t.equal(task.status, 'succeeded')
  t.same(task.details, { receivedDocuments: 3, indexedDocuments: 3 })
  t.equal((await server.client.getIndex('movies')).primaryKey, 'id', 'the primary key is inferred and the index created')
  const all = await index.getDocuments()
  t.same(all, { results: [
    { id: 1, title: 'Carol', info: { year: 2015, genres: ['drama'] } },
    { id: 2, title: 'Wonder Woman', info: { year: 2017, genres: ['action'] } },
    { id: 'three', title: 'Life of Pi' },
  ], offset: 0, limit: 20, total: 3 }, 'insertion order, with {results, offset, limit, total}')
  t.same(await index.getDocument(2), { id: 2, title: 'Wonder Woman', info: { year: 2017, genres: ['action'] } })
  t.same(await index.getDocument('three', { fields: ['title'] }), { title: 'Life of Pi' })
  const page = await call(`${server.url}/indexes/movies/documents?offset=1&limit=1&fields=id,info.year`)
  t.same(page.body, { results: [{ id: 2, info: { year: 2017 } }], offset: 1, limit: 1, total: 3 }, 'fields use dot notation into nested objects')
  const fetched = await call(`${server.url}/indexes/movies/documents/fetch`, { method: 'POST', json: { ids: ['three', 1], fields: ['id'] } })
  t.same(fetched.body, { results: [{ id: 1 }, { id: 'three' }], offset: 0, limit: 20, total: 2 })
  const missing = await call(`${server.url}/indexes/movies/documents/42`)
  t.equal(missing.status, 404)
  t.same(missing.body, { message: 'Document `42` not found.', code: 'document_not_found', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#document_not_found' })
  const stats = await call(`${server.url}/indexes/movies/stats`)
  t.equal(stats.body.numberOfDocuments, 3)
  t.same(stats.body.fieldDistribution, { id: 3, info: 2, title: 3 })
  t.ok(stats.body.rawDocumentDbSize > 0)
})

t.test('replace and update semantics, nested objects included', async (t) => {
  const server = shared
  await addAndWait(server.url, 'books', [{ id: 1, title: 'Dune', meta: { pages: 412, lang: 'en' }, tags: ['sf'] }])
  await addAndWait(server.url, 'books', [{ id: 1, meta: { pages: 500 } }], '', 'PUT')
  t.same((await call(`${server.url}/indexes/books/documents/1`)).body, { id: 1, title: 'Dune', meta: { pages: 500 }, tags: ['sf'] },
    'update keeps absent top-level fields and replaces a nested object whole')
  await addAndWait(server.url, 'books', [{ id: 1, title: 'Dune Messiah' }])
  t.same((await call(`${server.url}/indexes/books/documents/1`)).body, { id: 1, title: 'Dune Messiah' }, 'replace drops absent fields')
  const task = await addAndWait(server.url, 'books', [{ id: 2, a: 1 }, { id: 2, b: 2 }], '', 'PUT')
  t.same(task.details, { receivedDocuments: 2, indexedDocuments: 2 })
  t.same((await call(`${server.url}/indexes/books/documents/2`)).body, { id: 2, a: 1, b: 2 }, 'updates within one payload merge in order')
  t.equal((await call(`${server.url}/indexes/books/stats`)).body.numberOfDocuments, 2)
})

t.test('NDJSON and CSV payloads', async (t) => {
  const server = shared
  let res = await post(`${server.url}/indexes/nd/documents`, '{"id":1,"n":"a"}\n\n{"id":2,"n":"b"}\n', 'application/x-ndjson')
  t.equal(res.status, 202)
  t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
  t.equal((await call(`${server.url}/indexes/nd/documents`)).body.total, 2)
  res = await post(`${server.url}/indexes/csv/documents?primaryKey=sku`, 'sku,price:number,stock:boolean,name\nA1,9.5,true,"Big, red"\nB2,,false,plain\n', 'text/csv')
  t.equal(res.status, 202)
  t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
  t.same((await call(`${server.url}/indexes/csv/documents`)).body.results, [
    { sku: 'A1', price: 9.5, stock: true, name: 'Big, red' },
    { sku: 'B2', price: null, stock: false, name: 'plain' },
  ])
  res = await post(`${server.url}/indexes/semi/documents?csvDelimiter=%3B`, 'id;name\n1;x\n', 'text/csv')
  t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
  t.same((await call(`${server.url}/indexes/semi/documents/1`)).body, { id: '1', name: 'x' })
})

t.test('NDJSON documents read back as sent, whatever the line layout', async (t) => {
  // One document per line is stored from its own line (CRLF endings, spaces, escapes, duplicate and `__proto__`
  // keys, big numbers); a payload whose values span or share lines takes the other path. Both read back alike,
  // and an add-or-update merges into them.
  const server = shared
  const lines = [
    '{"id":1,"t":"plain"}',
    '  {"id":2, "t" : "spaced \\u00e9 \\"q\\"", "n": 1.50}  ',
    '{"id":3,"t":"dup","t":"last","__proto__":{"x":1},"big":12345678901234567890}',
    '{"id":4,"t":"été 🌻","nested":{"a":[1,{"b":null}]}}',
  ]
  const expected = [
    { id: 1, t: 'plain' },
    { id: 2, t: 'spaced é "q"', n: 1.5 },
    JSON.parse('{"id":3,"t":"last","__proto__":{"x":1},"big":12345678901234567890}'),
    { id: 4, t: 'été 🌻', nested: { a: [1, { b: null }] } },
  ]
  for (const [uid, body] of [['crlf', lines.join('\r\n') + '\r\n'], ['lf', lines.join('\n')], ['spanning', '{"id":1,\n"t":"plain"}\n' + lines.slice(1).join('\n') + ' {"id":5}']] as const) {
    const res = await post(`${server.url}/indexes/${uid}/documents`, body, 'application/x-ndjson')
    t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded', uid)
    const got = (await call(`${server.url}/indexes/${uid}/documents?limit=10`)).body.results
    t.same(got.slice(0, 4), expected, `${uid}: documents read back as sent`)
    t.same(Object.keys(got[2]), ['id', 't', '__proto__', 'big'], `${uid}: keys in order, \`__proto__\` kept`)
  }
  const res = await post(`${server.url}/indexes/lf/documents`, '{"id":2,"extra":true}\n', 'application/x-ndjson', 'PUT')
  t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
  t.same((await call(`${server.url}/indexes/lf/documents/2`)).body, { ...expected[1], extra: true }, 'an update merges into a document stored from its line')
  const search = (await call(`${server.url}/indexes/lf/search`, { method: 'POST', json: { q: 'spaced' } })).body
  t.same(search.hits.map((h: { id: number }) => h.id), [2], 'and its words are indexed')
})

t.test('the stored size of a document does not depend on the payload format or its line layout', async (t) => {
  // An NDJSON line's separators (the line feed before it, a carriage return or spaces around it) are not stored.
  const server = shared
  const docs = ['{"id":1,"a":"x"}', '{"id":2,"a":"y"}', '{"id":3,"a":"z"}']
  const bodies: [string, string, string][] = [
    ['json', `[${docs.join(',')}]`, 'application/json'],
    ['lf', docs.join('\n') + '\n', 'application/x-ndjson'],
    ['crlf', docs.join('\r\n') + '\r\n', 'application/x-ndjson'],
    ['padded', docs.map((d) => `  ${d}\t`).join('\n'), 'application/x-ndjson'],
  ]
  for (const [layout, body, type] of bodies) {
    const uid = `size-${layout}`
    const res = await post(`${server.url}/indexes/${uid}/documents`, body, type)
    t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded', uid)
    const stats = (await call(`${server.url}/indexes/${uid}/stats`)).body
    t.equal(stats.rawDocumentDbSize, docs.join('').length, `${uid}: the documents' own bytes`)
    t.equal(stats.avgDocumentSize, docs[0]!.length, `${uid}: average size`)
  }
})

t.test('payload and content-type errors are synchronous and register nothing', async (t) => {
  const server = shared
  const accepted = '`application/json`, `application/x-ndjson`, `text/csv`'
  const cases: [string, string | null, string, number, string, string][] = [
    ['', 'application/json', '', 400, 'missing_payload', 'A json payload is missing.'],
    ['[]', null, '', 415, 'missing_content_type', `A Content-Type header is missing. Accepted values for the Content-Type header are: ${accepted}`],
    ['[]', 'text/plain', '', 415, 'invalid_content_type', `The Content-Type \`text/plain\` is invalid. Accepted values for the Content-Type header are: ${accepted}`],
    ['[]', 'application/json', '?csvDelimiter=%3B', 415, 'invalid_content_type', 'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.'],
    ['a\n', 'text/csv', '?csvDelimiter=ab', 400, 'invalid_document_csv_delimiter', 'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 2 characters: `ab`'],
    ['[]', 'application/json', '?doggo=1', 400, 'bad_request', 'Unknown parameter `doggo`: expected one of `primaryKey`, `csvDelimiter`, `customMetadata`, `skipCreation`'],
  ]
  for (const [body, type, query, status, code, message] of cases) {
    const res = await post(`${server.url}/indexes/errs/documents${query}`, body, type)
    t.equal(res.status, status, code)
    t.same(res.body, { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` })
  }
  const malformed = await post(`${server.url}/indexes/errs/documents`, '[{"id": 1},', 'application/json')
  t.equal(malformed.status, 400)
  t.equal(malformed.body.code, 'malformed_payload')
  t.match(malformed.body.message, /^The `json` payload provided is malformed/)
  t.equal((await call(`${server.url}/tasks?indexUids=errs`)).body.total, 0, 'no task was registered')
  t.equal((await call(`${server.url}/indexes/errs`)).status, 404)
})

t.test('primary keys and document ids', async (t) => {
  const server = shared
  let task = await addAndWait(server.url, 'none', [{ title: 'x' }])
  t.equal(task.status, 'failed')
  t.equal(task.error.code, 'index_primary_key_no_candidate_found')
  t.equal(task.error.message, 'Index `none`: The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.')
  task = await addAndWait(server.url, 'many', [{ id: 1, bookId: 2 }])
  t.equal(task.error.code, 'index_primary_key_multiple_candidates_found')
  task = await addAndWait(server.url, 'pk', [{ isbn: 'a-1', id: 5 }], '?primaryKey=isbn')
  t.equal(task.status, 'succeeded')
  t.equal((await call(`${server.url}/indexes/pk`)).body.primaryKey, 'isbn')
  task = await addAndWait(server.url, 'pk', [{ isbn: 'b-2', id: 6 }], '?primaryKey=id')
  t.equal(task.status, 'succeeded', 'a later primaryKey is ignored by add-or-replace')
  t.equal((await call(`${server.url}/indexes/pk`)).body.primaryKey, 'isbn')
  task = await addAndWait(server.url, 'pk', [{ isbn: 'c-3', id: 7 }], '?primaryKey=id', 'PUT')
  t.equal(task.status, 'failed', 'and is an error for add-or-update')
  t.same(task.error, { message: 'Index `pk`: Index already has a primary key: `isbn`.', code: 'index_primary_key_already_exists', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_primary_key_already_exists' })
  task = await addAndWait(server.url, 'pk', [{ isbn: 'ok-1' }, { isbn: 'a b' }])
  t.equal(task.error.code, 'invalid_document_id')
  t.equal(task.error.message, 'Index `pk`: Document identifier `"a b"` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.')
  t.same(task.details, { receivedDocuments: 2, indexedDocuments: 0 })
  t.equal((await call(`${server.url}/indexes/pk/documents/ok-1`)).status, 404, 'a failing batch changes nothing')
  task = await addAndWait(server.url, 'pk', [{ isbn: 'x'.repeat(512) }])
  t.equal(task.error.code, 'invalid_document_id', '512 bytes is too long')
  task = await addAndWait(server.url, 'pk', [{ isbn: 'y'.repeat(511) }])
  t.equal(task.status, 'succeeded', '511 bytes is fine')
  task = await addAndWait(server.url, 'pk', [{ title: 'no id' }])
  t.same(task.error, { message: 'Index `pk`: Document doesn\'t have a `isbn` attribute: `{"title":"no id"}`.', code: 'missing_document_id', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#missing_document_id' })
  t.equal((await call(`${server.url}/indexes/pk/stats`)).body.numberOfDocuments, 3)
})

t.test('deleting documents', async (t) => {
  const server = shared
  await addAndWait(server.url, 'del', Array.from({ length: 10 }, (_, i) => ({ id: i, color: i % 2 ? 'red' : 'blue', n: i })))
  let res = await call(`${server.url}/indexes/del/documents/3`, { method: 'DELETE' })
  t.equal(res.status, 202)
  t.same(Object.keys(res.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
  let task = await waitTask(server.url, res.body.taskUid)
  t.same([task.type, task.details], ['documentDeletion', { providedIds: 1, deletedDocuments: 1, originalFilter: null }])
  res = await call(`${server.url}/indexes/del/documents/delete-batch`, { method: 'POST', json: [0, '1', 99] })
  task = await waitTask(server.url, res.body.taskUid)
  t.same(task.details, { providedIds: 3, deletedDocuments: 2, originalFilter: null })
  const settings = await call(`${server.url}/indexes/del/settings/filterable-attributes`, { method: 'PUT', json: ['color', 'n'] })
  await waitTask(server.url, settings.body.taskUid)
  res = await call(`${server.url}/indexes/del/documents/delete`, { method: 'POST', json: { filter: 'color = red AND n > 5' } })
  task = await waitTask(server.url, res.body.taskUid)
  t.same(task.details, { providedIds: 0, deletedDocuments: 2, originalFilter: '"color = red AND n > 5"' })
  t.same((await call(`${server.url}/indexes/del/documents?fields=id`)).body.results, [{ id: 2 }, { id: 4 }, { id: 5 }, { id: 6 }, { id: 8 }])
  const listed = await call(`${server.url}/indexes/del/documents?filter=${encodeURIComponent('color = blue')}&fields=id&limit=2`)
  t.same(listed.body, { results: [{ id: 2 }, { id: 4 }], offset: 0, limit: 2, total: 4 }, 'list with a filter')
  res = await call(`${server.url}/indexes/del/documents/delete`, { method: 'POST', json: {} })
  t.equal(res.status, 400)
  t.equal(res.body.code, 'bad_request', 'an empty object is a bad_request (spec)')
  res = await call(`${server.url}/indexes/del/documents/delete`, { method: 'POST', json: { filter: 'nope' } })
  t.equal(res.status, 400)
  t.equal(res.body.code, 'invalid_document_filter')
  res = await call(`${server.url}/indexes/del/documents/delete`, { method: 'POST', json: { filter: 'title = x' } })
  task = await waitTask(server.url, res.body.taskUid)
  t.equal(task.status, 'failed', 'a filter on a non-filterable attribute fails the task')
  t.equal(task.error.code, 'invalid_document_filter')
  res = await call(`${server.url}/indexes/del/documents`, { method: 'DELETE' })
  task = await waitTask(server.url, res.body.taskUid)
  t.same(task.details, { deletedDocuments: 5 })
  t.equal((await call(`${server.url}/indexes/del/documents`)).body.total, 0)
  const filterable = await call(`${server.url}/indexes/del/settings/filterable-attributes`)
  t.same(filterable.body, ['color', 'n'], 'clearing documents keeps the settings')
  await addAndWait(server.url, 'del', [{ id: 1 }])
  t.equal((await call(`${server.url}/indexes/del/stats`)).body.numberOfDocuments, 1)
})

t.test('_vectors are validated, stored, and returned with retrieveVectors', async (t) => {
  const server = shared
  const task = await addAndWait(server.url, 'vec', [
    { id: 1, _vectors: { manual: [0.1, 0.2] } },
    { id: 2, _vectors: { manual: { embeddings: [[1, 2], [3, 4]], regenerate: false } } },
  ])
  t.equal(task.status, 'succeeded')
  t.same((await call(`${server.url}/indexes/vec/documents/1`)).body, { id: 1 }, '_vectors hidden by default')
  t.same((await call(`${server.url}/indexes/vec/documents/1?retrieveVectors=true`)).body, { id: 1, _vectors: { manual: { embeddings: [[0.1, 0.2]], regenerate: false } } })
  const bad = await addAndWait(server.url, 'vec', [{ id: 3, _vectors: { manual: { embeddings: [1, 2] } } }])
  t.equal(bad.status, 'failed')
  t.equal(bad.error.code, 'invalid_vectors_type')
})

t.test('documents survive a restart', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  let server = await startServer({ dbPath })
  await addAndWait(server.url, 'keep', [{ id: 1, a: 'x' }, { id: 2, a: 'y' }])
  await server.stop()
  server = await startServer({ dbPath })
  t.teardown(() => server.stop())
  t.same((await call(`${server.url}/indexes/keep/documents`)).body, { results: [{ id: 1, a: 'x' }, { id: 2, a: 'y' }], offset: 0, limit: 20, total: 2 })
  await addAndWait(server.url, 'keep', [{ id: 3, a: 'z' }])
  t.same((await call(`${server.url}/indexes/keep/documents?fields=id`)).body.results, [{ id: 1 }, { id: 2 }, { id: 3 }], 'new documents come after')
})

t.test('string ids are used as given; integer ids print in decimal', async (t) => {
  const server = shared
  await addAndWait(server.url, 'ids', [{ id: 1, v: 'int' }, { id: '01', v: 'str' }, { id: -7, v: 'neg' }])
  t.same((await call(`${server.url}/indexes/ids/documents/1`)).body, { id: 1, v: 'int' })
  t.same((await call(`${server.url}/indexes/ids/documents/01`)).body, { id: '01', v: 'str' })
  t.same((await call(`${server.url}/indexes/ids/documents/-7`)).body, { id: -7, v: 'neg' })
  const res = await call(`${server.url}/indexes/ids/documents/delete-batch`, { method: 'POST', json: ['01', -7] })
  t.same((await waitTask(server.url, res.body.taskUid)).details, { providedIds: 2, deletedDocuments: 2, originalFilter: null })
  t.same((await call(`${server.url}/indexes/ids/documents`)).body.results, [{ id: 1, v: 'int' }])
})

t.test('every key round-trips, `__proto__` included; static routes win over ids', async (t) => {
  const server = shared
  const body = '[{"id":1,"__proto__":{"x":1},"constructor":"c"}]'
  const res = await call(`${server.url}/indexes/keys/documents`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  t.equal((await waitTask(server.url, res.body.taskUid)).status, 'succeeded')
  const doc = await call(`${server.url}/indexes/keys/documents/1`)
  t.equal(doc.text, '{"id":1,"__proto__":{"x":1},"constructor":"c"}')
  const syn = await call(`${server.url}/indexes/keys/settings/synonyms`, { method: 'PUT', body: '{"__proto__":["proto"]}', headers: { 'content-type': 'application/json' } })
  t.equal((await waitTask(server.url, syn.body.taskUid)).status, 'succeeded')
  t.equal((await call(`${server.url}/indexes/keys/settings/synonyms`)).text, '{"__proto__":["proto"]}')
  const wrong = await call(`${server.url}/indexes/keys/documents/delete-batch`, { method: 'DELETE' })
  t.equal(wrong.status, 405, 'DELETE on delete-batch is not a deletion of a document named so')
  t.equal((await call(`${server.url}/tasks/cancel`)).status, 405)
  const bad = await call(`${server.url}/indexes/keys/documents/%E0%A4%A`)
  t.equal(bad.status, 404, 'a malformed escape is not a server error')
  t.equal((await call(`${server.url}/tasks/%ZZ`)).body.code, 'invalid_task_uids')
})

t.test('delete then add again within one batch', async (t) => {
  const gate = batchGate(t)
  const server = await serverFor(t, { env: gate.env })
  const first = await call(`${server.url}/indexes/again/documents`, { method: 'POST', json: [{ id: 1, v: 'a' }, { id: 2, v: 'b' }] })
  await waitTask(server.url, first.body.taskUid)
  gate.close()
  const hold = await call(`${server.url}/indexes/hold`, { method: 'DELETE' })
  const del = await call(`${server.url}/indexes/again/documents/delete-batch`, { method: 'POST', json: [1, 2] })
  const add = await call(`${server.url}/indexes/again/documents`, { method: 'POST', json: [{ id: 1, v: 'c' }, { id: 3, v: 'd' }] })
  const del2 = await call(`${server.url}/indexes/again/documents/3`, { method: 'DELETE' })
  gate.open()
  await waitTask(server.url, hold.body.taskUid)
  const tasks = await Promise.all([del, add, del2].map((r) => waitTask(server.url, r.body.taskUid)))
  t.equal(new Set(tasks.map((x) => x.batchUid)).size, 1, 'one batch')
  t.same((await call(`${server.url}/indexes/again/documents`)).body.results, [{ id: 1, v: 'c' }])
  t.equal((await call(`${server.url}/indexes/again/documents/3`)).status, 404)
  t.equal((await call(`${server.url}/indexes/again/stats`)).body.numberOfDocuments, 1)
})
