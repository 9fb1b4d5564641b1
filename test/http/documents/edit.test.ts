/**
 * `POST /indexes/{uid}/documents/edit`: edit by a Rhai function, behind the `editDocumentsByFunction` feature, as
 * Meilisearch's route and task do it (`routes/indexes/documents.rs` `edit_documents_by_function`,
 * `milli/src/update/new/indexer/update_by_function.rs`).
 */
import t from 'tap'
import { call, seedIndex, serverFor, waitTask } from '../../helpers/server.js'
import { err } from '../../helpers/meili.js'

const docs = [
  { id: 1, title: 'alpha', views: 10, tags: ['a'] },
  { id: 2, title: 'beta', views: 20, tags: ['b'] },
  { id: 3, title: 'gamma', views: 30, tags: ['a', 'c'] },
]

t.test('edit by function', async (t) => {
  const server = await serverFor(t)
  const { url } = server
  await seedIndex(url, 'movies', { filterableAttributes: ['views'] }, docs)
  const edit = (body: unknown, index = 'movies') => call(`${url}/indexes/${index}/documents/edit`, { method: 'POST', json: body })

  t.test('the feature gate comes after the body is read', async (t) => {
    t.same((await edit({ function: 'doc.views += 1' })).body, err('Using the documents edit route requires enabling the `edit documents by function` experimental feature. See https://github.com/orgs/meilisearch/discussions/762', 'feature_not_enabled'))
    t.same((await edit({})).body, err('Missing field `function`', 'missing_document_edition_function'), 'a bad body is answered first')
  })
  const features = await call(`${url}/experimental-features`, { method: 'PATCH', json: { editDocumentsByFunction: true } })
  t.equal(features.body.editDocumentsByFunction, true)

  t.test('synchronous refusals: body, script syntax, filter, context', async (t) => {
    t.same((await edit({ function: 1 })).body, err('Invalid value type at `.function`: expected a string, but found a positive integer: `1`', 'invalid_document_edition_function_filter'))
    t.same((await edit({ function: 'doc', foo: 1 })).body, err('Unknown field `foo`: expected one of `filter`, `context`, `function`', 'bad_request'))
    const syntax = await edit({ function: 'doc.title = ' })
    t.equal(syntax.status, 400)
    t.equal(syntax.body.code, 'bad_request')
    t.match(syntax.body.message, /\(line 1, position \d+\)$/, "Rhai's message with its position")
    t.same((await edit({ function: 'doc', filter: '' })).body, err('Sending an empty filter is forbidden.', 'invalid_document_filter'))
    t.equal((await edit({ function: 'doc', filter: 'views >' })).body.code, 'invalid_document_filter')
    t.same((await edit({ function: 'doc', context: [1] })).body, err('The context must be an object', 'invalid_document_edition_context'))
    t.same((await edit({ function: 'doc' }, 'bad uid!')).body.code, 'invalid_index_uid')
    const tasks = await call(`${url}/tasks?types=documentEdition`)
    t.equal(tasks.body.total, 0, 'no task was registered')
  })

  t.test('a filtered edit with a context; the details', async (t) => {
    const res = await edit({ function: 'doc.views += context.step; doc.title = `${doc.title}!`', filter: 'views >= 20', context: { step: 5 } })
    t.equal(res.status, 202)
    t.same(Object.keys(res.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt'])
    t.equal(res.body.type, 'documentEdition')
    const task = await waitTask(url, res.body.taskUid)
    t.equal(task.status, 'succeeded', JSON.stringify(task.error))
    t.same(task.details, { editedDocuments: 2, deletedDocuments: 0, originalFilter: '"views >= 20"', context: { step: 5 }, function: 'doc.views += context.step; doc.title = `${doc.title}!`' })
    const all = await call(`${url}/indexes/movies/documents/fetch`, { method: 'POST', json: { fields: ['id', 'title', 'views'] } })
    t.same(all.body.results, [{ id: 1, title: 'alpha', views: 10 }, { id: 2, title: 'beta!', views: 25 }, { id: 3, title: 'gamma!', views: 35 }])
    const search = await call(`${url}/indexes/movies/search`, { method: 'POST', json: { q: 'gamma', filter: 'views = 35' } })
    t.same(search.body.hits.map((h: { id: number }) => h.id), [3], 'the edit reached the search index and the facets')
  })

  t.test('customMetadata rides along, as on every document write', async (t) => {
    const res = await call(`${url}/indexes/movies/documents/edit?customMetadata=nightly`, { method: 'POST', json: { function: 'doc' } })
    t.equal(res.body.customMetadata, 'nightly', 'in the enqueue answer')
    const task = await waitTask(url, res.body.taskUid)
    t.equal(task.customMetadata, 'nightly', 'in the task view')
    t.equal(task.details.editedDocuments, 0, 'an identity function edits nothing')
  })

  t.test('doc = () deletes; an unchanged document is not counted', async (t) => {
    const res = await edit({ function: 'if doc.id == 1 { doc = () }' })
    const task = await waitTask(url, res.body.taskUid)
    t.same([task.details.editedDocuments, task.details.deletedDocuments, task.details.originalFilter, task.details.context], [0, 1, null, null])
    t.equal((await call(`${url}/indexes/movies/documents/1`)).status, 404)
    t.equal((await call(`${url}/indexes/movies/stats`)).body.numberOfDocuments, 2)
  })

  t.test('a runtime error fails the task and changes nothing, not even the documents reached first', async (t) => {
    const before = (await call(`${url}/indexes/movies/documents/fetch`, { method: 'POST', json: {} })).body.results
    for (const [fn, pattern] of [
      ['doc.views = 0; if doc.id == 3 { throw "stop" }', /^Index `movies`: Document edition runtime error encountered while running the function: Runtime error: stop/],
      ['doc.views = 1 / 0', /^Index `movies`: Document edition runtime error encountered while running the function: Division by zero/],
      ['doc.id = 42', /^Index `movies`: Document editions cannot modify a document's primary key$/],
      ['doc = 1', /^Index `movies`: Document editions must keep documents as objects$/],
      ['nope()', /Function not found: nope/],
      ['loop { }', /Too many operations/],
    ] as const) {
      const task = await waitTask(url, (await edit({ function: fn })).body.taskUid, 60_000)
      t.equal(task.status, 'failed', fn)
      t.equal(task.error.code, 'edit_documents_by_function_error', fn)
      t.match(task.error.message, pattern, fn)  // milli's user errors carry the index's name
      t.same([task.details.editedDocuments, task.details.deletedDocuments], [0, 0])
    }
    const after = (await call(`${url}/indexes/movies/documents/fetch`, { method: 'POST', json: {} })).body.results
    t.same(after, before)
  })

  t.test('a filter on a non-filterable attribute fails the task', async (t) => {
    const task = await waitTask(url, (await edit({ function: 'doc', filter: 'title = beta' })).body.taskUid)
    t.equal(task.status, 'failed')
    t.equal(task.error.code, 'invalid_document_filter')
    t.match(task.error.message, /^Index `movies`: Attribute `title` is not filterable/)
  })
})

t.test('an edit of 100,000 documents', async (t) => {
  const { url } = await serverFor(t)
  await call(`${url}/experimental-features`, { method: 'PATCH', json: { editDocumentsByFunction: true } })
  const many = Array.from({ length: 100_000 }, (_, i) => ({ id: i, n: i }))
  await seedIndex(url, 'big', {}, many)
  const res = await call(`${url}/indexes/big/documents/edit`, { method: 'POST', json: { function: 'if doc.n % 2 == 0 { doc.n = doc.n * 2 } else if doc.n % 5 == 0 { doc = () }' } })
  const task = await waitTask(url, res.body.taskUid, 110_000)
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  t.same([task.details.editedDocuments, task.details.deletedDocuments], [49_999, 10_000], 'n = 0 stays 0: unchanged')
  t.same((await call(`${url}/indexes/big/documents/7`)).body, { id: 7, n: 7 })
  t.same((await call(`${url}/indexes/big/documents/8`)).body, { id: 8, n: 16 })
  t.equal((await call(`${url}/indexes/big/documents/15`)).status, 404)
  t.equal((await call(`${url}/indexes/big/stats`)).body.numberOfDocuments, 90_000)
})
