/**
 * `GET/PATCH /experimental-features` over HTTP (fetch and the `meilisearch` client): the features object, null
 * values, validation errors with Meilisearch's messages, and persistence across a restart.
 */
import t, { type Test } from 'tap'
import { rmSync } from 'node:fs'
import { serverFor, startServer, call, tempDir } from '../helpers/server.js'

const ALL_OFF = { metrics: false, logsRoute: false, editDocumentsByFunction: false, containsFilter: false, network: false, chatCompletions: false }
// The current release's switches, in its declaration order (crates/index-scheduler/src/features.rs and
// routes/features.rs; the "expected one of" list of tests/features/mod.rs `errors`).
const ACCEPTED = '`metrics`, `logsRoute`, `tasksStreamingRoute`, `editDocumentsByFunction`, `containsFilter`, `dynamicSearchRules`, `network`, `getTaskDocumentsRoute`, `taskQueueCompactionRoute`, `compositeEmbedders`, `chatCompletions`, `multimodal`, `foreignKeys`, `disableDocumentsFetchQueue`, `legacySearch`, `renderRoute`'
/** What a client that resets every switch it knows sends in one call (current and retired 1.x switches). */
const EVERY_SWITCH = [
  'metrics', 'logsRoute', 'tasksStreamingRoute', 'editDocumentsByFunction', 'containsFilter', 'dynamicSearchRules', 'network',
  'getTaskDocumentsRoute', 'taskQueueCompactionRoute', 'compositeEmbedders', 'chatCompletions', 'multimodal', 'foreignKeys',
  'disableDocumentsFetchQueue', 'legacySearch', 'renderRoute', 'vectorStoreSetting', 'vectorStore', 'scoreDetails', 'exportPuffinReports',
]

function assertError(t: Test, res: { status: number; body: any }, code: string, message: string): void {
  t.equal(res.status, 400)
  t.same(res.body, { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` })
}

t.test('GET and PATCH', async (t) => {
  const server = await serverFor(t)
  const url = `${server.url}/experimental-features`

  const get = await call(url)
  t.equal(get.status, 200)
  t.same(get.body, ALL_OFF)
  t.same(Object.keys(get.body), Object.keys(ALL_OFF))

  const patched = await call(url, { method: 'PATCH', json: { logsRoute: true } })
  t.equal(patched.status, 200)
  t.same(patched.body, { ...ALL_OFF, logsRoute: true }, 'the full object')

  const nulls = await call(url, { method: 'PATCH', json: { logsRoute: null, metrics: true } })
  t.same(nulls.body, { ...ALL_OFF, logsRoute: true, metrics: true }, 'null leaves a switch unchanged')

  const empty = await call(url, { method: 'PATCH', json: {} })
  t.same(empty.body, { ...ALL_OFF, logsRoute: true, metrics: true })

  const composite = await call(url, { method: 'PATCH', json: { compositeEmbedders: true } })
  t.equal(composite.status, 200)
  t.same(composite.body, { ...ALL_OFF, logsRoute: true, metrics: true, compositeEmbedders: true }, 'a switch outside the six is shown while it is on')

  t.same((await call(url)).body, { ...ALL_OFF, logsRoute: true, metrics: true, compositeEmbedders: true }, 'GET sees the change at once')
  t.same((await call(url, { method: 'PATCH', json: { compositeEmbedders: false } })).body, { ...ALL_OFF, logsRoute: true, metrics: true }, 'and not once it is off')

  const tasks = await call(`${server.url}/tasks`)
  t.equal(tasks.body.total, 0, 'no task is created')
})

t.test('validation errors', async (t) => {
  const server = await serverFor(t)
  const url = `${server.url}/experimental-features`
  assertError(t, await call(url, { method: 'PATCH', json: { NotAFeature: true } }), 'bad_request', `Unknown field \`NotAFeature\`: expected one of ${ACCEPTED}`)
  assertError(t, await call(url, { method: 'PATCH', json: { metrcs: true } }), 'bad_request', `Unknown field \`metrcs\`: did you mean \`metrics\`? expected one of ${ACCEPTED}`)
  assertError(t, await call(url, { method: 'PATCH', json: { multimodl: true } }), 'bad_request', `Unknown field \`multimodl\`: did you mean \`multimodal\`? expected one of ${ACCEPTED}`)
  assertError(t, await call(url, { method: 'PATCH', json: { metrics: 42 } }), 'bad_request', 'Invalid value type at `.metrics`: expected a boolean, but found a positive integer: `42`')
  assertError(t, await call(url, { method: 'PATCH', json: { containsFilter: 'true' } }), 'bad_request', 'Invalid value type at `.containsFilter`: expected a boolean, but found a string: `"true"`')
  assertError(t, await call(url, { method: 'PATCH', json: { metrics: true, nope: 1 } }), 'bad_request', `Unknown field \`nope\`: expected one of ${ACCEPTED}`)
  assertError(t, await call(url, { method: 'PATCH', json: { metrics: 'x', nope: 1 } }), 'bad_request', 'Invalid value type at `.metrics`: expected a boolean, but found a string: `"x"`')
  assertError(t, await call(url, { method: 'PATCH', json: [] }), 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`')
  t.same((await call(url)).body, ALL_OFF, 'failed patches change nothing (not even their valid fields)')
  t.equal((await call(url, { method: 'POST', json: {} })).status, 405)
})

t.test('the meilisearch client', async (t) => {
  const server = await serverFor(t)
  t.same(await server.client.getExperimentalFeatures(), ALL_OFF)
  t.same(await server.client.updateExperimentalFeatures({ containsFilter: true, network: true }), { ...ALL_OFF, containsFilter: true, network: true })
  t.same(await server.client.updateExperimentalFeatures({ network: false }), { ...ALL_OFF, containsFilter: true })
  t.same(await server.client.getExperimentalFeatures(), { ...ALL_OFF, containsFilter: true })
})

t.test('every switch Meilisearch 1.x knows is accepted in one call, persisted, and shown while on', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const first = await startServer({ dbPath })
  try {
    const all = Object.fromEntries(EVERY_SWITCH.map((name) => [name, true]))
    const r = await call(`${first.url}/experimental-features`, { method: 'PATCH', json: all })
    t.equal(r.status, 200)
    t.same(Object.keys(r.body).sort(), [...EVERY_SWITCH].sort(), 'every switch that is on is shown')
    t.ok(Object.values(r.body).every((v) => v === true))
    // The client's own call with the switches it knows (it sends them all).
    t.same(Object.keys(await first.client.updateExperimentalFeatures(Object.fromEntries(EVERY_SWITCH.map((n) => [n, false])) as never)), Object.keys(ALL_OFF), 'all off: the six-field object')
    await call(`${first.url}/experimental-features`, { method: 'PATCH', json: all })
    // A switch Tessera implements takes effect at once: CONTAINS is allowed now.
    await first.client.createIndex('f', { primaryKey: 'id' }).waitTask()
    await first.client.index('f').updateFilterableAttributes(['t']).waitTask()
    t.equal((await call(`${first.url}/indexes/f/search`, { method: 'POST', json: { filter: 't CONTAINS x' } })).status, 200)
  } finally {
    await first.stop()
  }
  const second = await startServer({ dbPath })
  try {
    t.same((await call(`${second.url}/experimental-features`)).body, Object.fromEntries(EVERY_SWITCH.map((k) => [k, true])), 'persisted')
  } finally {
    await second.stop()
  }
})

t.test('switches survive a restart', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const first = await startServer({ dbPath })
  try {
    const r = await call(`${first.url}/experimental-features`, { method: 'PATCH', json: { editDocumentsByFunction: true, chatCompletions: true } })
    t.equal(r.status, 200)
  } finally {
    await first.stop()
  }
  const second = await startServer({ dbPath })
  try {
    t.same((await call(`${second.url}/experimental-features`)).body, { ...ALL_OFF, editDocumentsByFunction: true, chatCompletions: true })
  } finally {
    await second.stop()
  }
})
