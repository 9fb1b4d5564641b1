/**
 * Document routes as the official client uses them (issue 21): `customMetadata` on every document write, shown in
 * the enqueue answer (a sixth key) and in task views; `sort` on `GET /documents` and `POST /documents/fetch`;
 * `skipCreation=true` leaving new documents out.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../helpers/server.js'
import { err } from '../helpers/meili.js'

const ENQUEUED_KEYS = ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']
const TASK_KEYS = ['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'details', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt']

t.test('customMetadata: on every document write, in the enqueue answer and the task views', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  const index = client.index('meta')
  // Through the client: addDocuments, updateDocuments, deleteDocument(s), deleteAllDocuments take it.
  const added = await index.addDocuments([{ id: 1, t: 'a' }, { id: 2, t: 'b' }, { id: 3, t: 'c' }], { customMetadata: 'import-1' })
  const raw = await call(`${url}/indexes/meta/documents?customMetadata=raw%20%C3%A9`, { method: 'PUT', json: [{ id: 4, t: 'd' }] })
  t.same(Object.keys(raw.body), [...ENQUEUED_KEYS, 'customMetadata'], 'the sixth key comes last')
  t.equal(raw.body.customMetadata, 'raw é')
  const plain = await call(`${url}/indexes/meta/documents`, { method: 'POST', json: [{ id: 5 }] })
  t.same(Object.keys(plain.body), ENQUEUED_KEYS, 'five keys when none was sent (the client asserts five)')
  t.equal((added as { customMetadata?: string }).customMetadata, 'import-1')
  const updated = await index.updateDocuments([{ id: 1, u: true }], { customMetadata: 'update' })
  const one = await index.deleteDocument(2, { customMetadata: 'delete-one' })
  const batch = await index.deleteDocuments([3], { customMetadata: 'delete-batch' })
  const byFilter = await call(`${url}/indexes/meta/documents/delete?customMetadata=by-filter`, { method: 'POST', json: { filter: 'id = 1' } })
  const cleared = await index.deleteAllDocuments({ customMetadata: 'clear' })
  const expected: [number, string][] = [
    [added.taskUid, 'import-1'], [raw.body.taskUid, 'raw é'], [updated.taskUid, 'update'], [one.taskUid, 'delete-one'],
    [batch.taskUid, 'delete-batch'], [byFilter.body.taskUid, 'by-filter'], [cleared.taskUid, 'clear'],
  ]
  for (const [uid, metadata] of expected) {
    const task = await waitTask(url, uid)
    t.equal(task.customMetadata, metadata, `task ${uid}`)
    t.same(Object.keys(task), [...TASK_KEYS, 'customMetadata'], 'after finishedAt')
  }
  const plainTask = await client.tasks.getTask(plain.body.taskUid)
  t.notOk('customMetadata' in plainTask)
  const listed = await client.tasks.getTasks({ uids: [added.taskUid] })
  t.equal(listed.results[0]!.customMetadata, 'import-1', 'GET /tasks shows it too')
  // Unknown parameters are still refused on the deletion routes (CustomMetadataQuery denies unknown fields).
  const bad = await call(`${url}/indexes/meta/documents?doggo=1`, { method: 'DELETE' })
  t.equal(bad.status, 400)
  t.same(bad.body, err('Unknown parameter `doggo`: expected one of `customMetadata`', 'bad_request'))
})

/** tests/common/mod.rs `GEO_DOCUMENTS` (the string coordinates are Meilisearch's own). */
const GEO = [
  { id: 1, name: 'Taco Truck', address: '444 Salsa Street, Burritoville', type: 'Mexican', rating: 9, _geo: { lat: 34.0522, lng: -118.2437 } },
  { id: 2, name: 'La Bella Italia', address: '456 Elm Street, Townsville', type: 'Italian', rating: 9, _geo: { lat: '45.4777599', lng: '9.1967508' } },
  { id: 3, name: 'Crêpe Truck', address: '2 Billig Avenue, Rouenville', type: 'French', rating: 10 },
]

t.test('sort on GET /documents and POST /documents/fetch (documents/get_documents.rs)', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  const people = client.index('people')
  await people.addDocuments([
    { id: 5, age: 20, email: 'warrenwatson@chorizon.com', gender: 'male', name: 'Warren Watson' },
    { id: 6, age: 20, email: 'sheliaberry@chorizon.com', gender: 'female', name: 'Shelia Berry' },
    { id: 57, age: 20, email: 'kaitlinconner@chorizon.com', gender: 'female', name: 'Kaitlin Conner' },
    { id: 45, age: 20, email: 'irenebennett@chorizon.com', gender: 'female', name: 'Irene Bennett' },
    { id: 40, age: 21, email: 'staffordemerson@chorizon.com', gender: 'male', name: 'Stafford Emerson' },
    { id: 41, age: 21, email: 'salinasgamble@chorizon.com', gender: 'male', name: 'Salinas Gamble' },
    { id: 9, age: 26, email: 'kellimendez@chorizon.com', gender: 'female', name: 'Kelli Mendez' },
    { id: 44, age: 22, email: 'jonispears@chorizon.com', gender: 'male', name: 'Joni Spears' },
    { id: 3, email: 'adeline@chorizon.com', gender: 'female', name: 'Adeline Flynn' },
  ]).waitTask()
  // get_document_sort_the_unsortable: no sortable attribute yet.
  const unsortable = await call(`${url}/indexes/people/documents?fields=id,name&sort=name:asc`)
  t.equal(unsortable.status, 400)
  t.same(unsortable.body, err('Attribute `name` is not sortable. This index does not have configured sortable attributes.', 'invalid_document_sort'))
  await people.updateSortableAttributes(['age', 'email', 'gender', 'name']).waitTask()
  // get_document_sorted: `age:asc, email:desc`: the email breaks the ties of the age; no age comes last.
  const sorted = await people.getDocuments({ fields: ['id', 'age', 'email'], sort: ['age:asc', 'email:desc'] })
  t.same(sorted.results.map((d) => d.id), [5, 6, 57, 45, 40, 41, 44, 9, 3])
  t.equal(sorted.total, 9)
  const page = await call(`${url}/indexes/people/documents?sort=gender:asc,name:asc&fields=id&limit=3&offset=1`)
  t.same(page.body, { results: [{ id: 45 }, { id: 57 }, { id: 9 }], offset: 1, limit: 3, total: 9 }, 'GET, comma-separated, paged')
  // With a filter (POST /fetch, which the client uses when a filter is given).
  await people.updateFilterableAttributes(['gender']).waitTask()
  const filtered = await people.getDocuments({ filter: 'gender = male', sort: ['name:desc'], fields: ['id'] })
  t.same(filtered.results.map((d) => d.id), [5, 40, 41, 44])
  const byIds = await call(`${url}/indexes/people/documents/fetch`, { method: 'POST', json: { ids: [3, 5, 6], sort: ['age:desc'], fields: ['id'] } })
  t.same(byIds.body.results, [{ id: 5 }, { id: 6 }, { id: 3 }], 'ids, sorted')
  // Errors: not sortable, syntax, body type.
  const notSortable = await call(`${url}/indexes/people/documents/fetch`, { method: 'POST', json: { sort: ['id:asc'] } })
  t.same(notSortable.body, err('Attribute `id` is not sortable. Available sortable attributes are: `age, email, gender, name`.', 'invalid_document_sort'))
  const syntax = await call(`${url}/indexes/people/documents?sort=age`)
  t.same(syntax.body, err('Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `age`.', 'invalid_document_sort'))
  const type = await call(`${url}/indexes/people/documents/fetch`, { method: 'POST', json: { sort: 'age:asc' } })
  t.same(type.body, err('Invalid value type at `.sort`: expected an array, but found a string: `"age:asc"`', 'invalid_document_sort'))
  t.equal((await people.getDocuments({ sort: [] })).total, 9, 'an empty sort is no sort (the client drops it)')

  // get_document_geosorted.
  const geo = client.index('geo')
  await geo.updateSortableAttributes(['_geo']).waitTask()
  await geo.addDocuments(GEO).waitTask()
  const near = await geo.getDocuments({ sort: ['_geoPoint(45.4777599, 9.1967508):asc'] })
  t.same(near.results, [GEO[1], GEO[0], GEO[2]], 'nearest first, documents without _geo last')
})

t.test('skipCreation=true updates existing documents and creates none', async (t) => {
  const server = await serverFor(t)
  const { client, url } = server
  const index = client.index('skip')
  await index.addDocuments([{ id: 1, title: 'one', n: 1 }, { id: 2, title: 'two', n: 2 }]).waitTask()
  const replaced = await index.addDocuments([{ id: 1, title: 'uno' }, { id: 3, title: 'tres' }], { skipCreation: true }).waitTask()
  t.equal(replaced.status, 'succeeded')
  t.same(replaced.details, { receivedDocuments: 2, indexedDocuments: 1 })
  const updated = await index.updateDocuments([{ id: 2, extra: true }, { id: 4, title: 'cuatro' }], { skipCreation: true }).waitTask()
  t.same(updated.details, { receivedDocuments: 2, indexedDocuments: 1 })
  const docs = await index.getDocuments()
  t.same(docs.results, [{ id: 1, title: 'uno' }, { id: 2, title: 'two', n: 2, extra: true }], 'replaced, updated, nothing created')
  // The kept documents are searchable under their new words; the skipped ones are nowhere.
  t.same((await index.search('uno')).hits.map((h) => h.id), [1])
  t.same((await index.search('tres')).hits, [])
  t.same((await index.search('cuatro')).hits, [])
  // skipCreation=false creates as usual.
  await index.addDocuments([{ id: 5 }], { skipCreation: false }).waitTask()
  t.equal((await index.getDocuments()).total, 3)
  // Without the index, nothing is created either (the index included).
  const missing = await call(`${url}/indexes/none/documents?skipCreation=true`, { method: 'POST', json: [{ id: 1 }] })
  const task = await waitTask(url, missing.body.taskUid)
  t.equal(task.status, 'failed')
  t.equal((await call(`${url}/indexes/none`)).status, 404)
})
