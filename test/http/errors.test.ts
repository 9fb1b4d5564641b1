/**
 * Bad input: every request below gets its documented error (exact message, code, type, link and status),
 * changes nothing (no task registered, no index created), and the server stays up.
 */
import t, { type Test } from 'tap'
import { request } from 'node:http'
import { serverFor, call, waitTask, type TestServer } from '../helpers/server.js'
import { describeCode } from '../../engine/errors/index.js'

const UID_TAIL = 'is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.'

type Tap = Test

/** An error body: exactly message, code, type, link in that order, the status and type from the code table. */
function assertError(t: Tap, res: { status: number; text: string; body: any; headers: Headers }, code: string, message: string, what = ''): void {
  const expected = describeCode(code)
  t.equal(res.status, expected.status, `${what} status`)
  t.match(res.headers.get('content-type') ?? '', /^application\/json/, `${what} content-type`)
  t.same(Object.keys(res.body ?? {}), ['message', 'code', 'type', 'link'], `${what} keys in order`)
  t.equal(res.body?.message, message, `${what} message`)
  t.equal(res.body?.code, code, `${what} code`)
  t.equal(res.body?.type, expected.type, `${what} type`)
  t.equal(res.body?.link, `https://docs.meilisearch.com/errors#${code}`, `${what} link`)
}

/** A raw request, for header combinations fetch will not send (no content-type, empty content-type, ...). */
function raw(server: TestServer, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; text: string; body: any; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c) => parts.push(c))
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8')
        let parsed: unknown
        try { parsed = text ? JSON.parse(text) : undefined } catch { /* not JSON */ }
        const h = new Headers()
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v)
        resolve({ status: res.statusCode!, text, body: parsed, headers: h })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

for (const adapter of ['uws', 'node'] as const) t.test(`bad input gets its documented error and changes nothing (${adapter})`, async (t) => {
  const server = await serverFor(t, { adapter })
  const url = server.url

  // A known starting state: one index, one finished task.
  const created = await call(`${url}/indexes`, { method: 'POST', json: { uid: 'doggo' } })
  t.equal(created.status, 202)
  t.equal((await waitTask(url, created.body.taskUid)).status, 'succeeded')
  const before = await call(`${url}/tasks`)
  t.equal(before.body.total, 1)
  const indexesBefore = await call(`${url}/indexes`)
  t.equal(indexesBefore.body.total, 1)

  const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST') =>
    call(`${url}${path}`, { method, headers, body })

  await t.test('malformed JSON', async (t) => {
    assertError(t, await post('/indexes', '{"uid": '), 'malformed_payload', 'The json payload provided is malformed. `EOF while parsing a value at line 1 column 8`.')
    assertError(t, await post('/indexes', '{"malormed": "payload"'), 'malformed_payload', 'The json payload provided is malformed. `EOF while parsing an object at line 1 column 22`.')
    assertError(t, await post('/swap-indexes', '[{"indexes": ["a", "b"]'), 'malformed_payload', 'The json payload provided is malformed. `EOF while parsing an object at line 1 column 23`.')
    assertError(t, await post('/indexes', '{"uid": "a"} x'), 'malformed_payload', 'The json payload provided is malformed. `trailing characters at line 1 column 14`.')
  })

  await t.test('empty body', async (t) => {
    assertError(t, await post('/indexes', ''), 'missing_payload', 'A json payload is missing.')
    assertError(t, await raw(server, 'POST', '/indexes', { 'content-type': 'application/json' }), 'missing_payload', 'A json payload is missing.', 'no content-length')
    assertError(t, await post('/indexes/doggo', '', undefined, 'PATCH'), 'missing_payload', 'A json payload is missing.', 'PATCH')
  })

  await t.test('content types', async (t) => {
    const missing = 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`'
    assertError(t, await raw(server, 'POST', '/indexes', {}, '{"uid":"nope"}'), 'missing_content_type', missing)
    assertError(t, await raw(server, 'POST', '/swap-indexes', {}, '[]'), 'missing_content_type', missing, 'swap')
    assertError(t, await post('/indexes', '{"uid":"nope"}', { 'content-type': 'text/plain' }), 'invalid_content_type',
      'The Content-Type `text/plain` is invalid. Accepted values for the Content-Type header are: `application/json`')
    assertError(t, await raw(server, 'POST', '/indexes', { 'content-type': '' }, '{"uid":"nope"}'), 'invalid_content_type',
      'The Content-Type `` is invalid. Accepted values for the Content-Type header are: `application/json`', 'empty')
    assertError(t, await post('/indexes/doggo', '{"primaryKey":"id"}', { 'content-type': 'application/x-www-form-urlencoded' }, 'PATCH'), 'invalid_content_type',
      'The Content-Type `application/x-www-form-urlencoded` is invalid. Accepted values for the Content-Type header are: `application/json`', 'PATCH')
  })

  await t.test('wrong types', async (t) => {
    assertError(t, await post('/indexes', '{"uid": true}'), 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a boolean: `true`')
    assertError(t, await post('/indexes', '{"uid": 12}'), 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found a positive integer: `12`')
    assertError(t, await post('/indexes', '{"uid": null}'), 'invalid_index_uid', 'Invalid value type at `.uid`: expected a string, but found null')
    assertError(t, await post('/indexes', '{"uid":"doggo2","primaryKey":["the","best","doggo"]}'), 'invalid_index_primary_key',
      'Invalid value type at `.primaryKey`: expected a string, but found an array: `["the","best","doggo"]`')
    assertError(t, await post('/indexes/doggo', '{"primaryKey":["doggo"]}', undefined, 'PATCH'), 'invalid_index_primary_key',
      'Invalid value type at `.primaryKey`: expected a string, but found an array: `["doggo"]`', 'PATCH')
    assertError(t, await post('/indexes', '"doggo"'), 'bad_request', 'Invalid value type: expected an object, but found a string: `"doggo"`', 'root string')
    assertError(t, await post('/indexes', '[]'), 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`', 'root array')
    assertError(t, await post('/swap-indexes', '"doggo"'), 'bad_request', 'Invalid value type: expected an array, but found a string: `"doggo"`', 'swap root')
    assertError(t, await post('/swap-indexes', '[{"indexes":"doggo"}]'), 'invalid_swap_indexes',
      'Invalid value type at `[0].indexes`: expected an array, but found a string: `"doggo"`', 'swap indexes')
  })

  await t.test('unknown and missing fields', async (t) => {
    assertError(t, await post('/indexes', '{"uid":"doggo2","doggo":"bernese"}'), 'bad_request', 'Unknown field `doggo`: expected one of `uid`, `primaryKey`')
    assertError(t, await post('/indexes/doggo', '{"doggo":"bork"}', undefined, 'PATCH'), 'bad_request', 'Unknown field `doggo`: expected one of `primaryKey`, `uid`', 'PATCH')
    assertError(t, await post('/indexes', '{"primaryKey":"doggo"}'), 'missing_index_uid', 'Missing field `uid`')
    assertError(t, await post('/indexes', '{}'), 'missing_index_uid', 'Missing field `uid`', 'empty object')
    assertError(t, await post('/swap-indexes', '[{}]'), 'missing_swap_indexes', 'Missing field `indexes` inside `[0]`', 'swap')
    assertError(t, await post('/swap-indexes', '[{"indexes":["a","b"],"foo":1}]'), 'bad_request', 'Unknown field `foo` inside `[0]`: expected one of `indexes`, `rename`', 'swap unknown')
  })

  await t.test('immutable fields', async (t) => {
    assertError(t, await post('/indexes/doggo', '{"createdAt":"doggo"}', undefined, 'PATCH'), 'immutable_index_created_at', 'Immutable field `createdAt`: expected one of `primaryKey`, `uid`')
    assertError(t, await post('/indexes/doggo', '{"updatedAt":"doggo"}', undefined, 'PATCH'), 'immutable_index_updated_at', 'Immutable field `updatedAt`: expected one of `primaryKey`, `uid`')
  })

  await t.test('bad index uids', async (t) => {
    assertError(t, await post('/indexes', '{"uid":"the best doggo"}'), 'invalid_index_uid', `Invalid value at \`.uid\`: \`the best doggo\` ${UID_TAIL}`)
    assertError(t, await post('/indexes', '{"uid":"the?index"}'), 'invalid_index_uid', `Invalid value at \`.uid\`: \`the?index\` ${UID_TAIL}`, '?')
    assertError(t, await post('/indexes', '{"uid":"hé"}'), 'invalid_index_uid', `Invalid value at \`.uid\`: \`hé\` ${UID_TAIL}`, 'non-ascii')
    assertError(t, await post('/indexes', '{"uid":""}'), 'invalid_index_uid', `Invalid value at \`.uid\`: \`\` ${UID_TAIL}`, 'empty')
    const long = 'a'.repeat(401)
    assertError(t, await post('/indexes', JSON.stringify({ uid: long })), 'invalid_index_uid', `Invalid value at \`.uid\`: \`${long}\` ${UID_TAIL}`, '401 bytes')
    // 400 bytes is still fine.
    const ok = await post('/indexes', JSON.stringify({ uid: 'b'.repeat(400) }))
    t.equal(ok.status, 202, '400 bytes accepted')
    t.equal((await waitTask(url, ok.body.taskUid)).status, 'succeeded')
    assertError(t, await post('/indexes/doggo', '{"uid":"Invalid UID!"}', undefined, 'PATCH'), 'invalid_index_uid', `Invalid value at \`.uid\`: \`Invalid UID!\` ${UID_TAIL}`, 'PATCH rename')
    assertError(t, await post('/swap-indexes', '[{"indexes":["a","x y"]}]'), 'invalid_swap_indexes', `Invalid value at \`[0].indexes[1]\`: \`x y\` ${UID_TAIL}`, 'swap')
    // In the path: no location prefix, the uid percent-decoded.
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = method === 'PATCH'
        ? await post('/indexes/the%20good%20doggo', '{"primaryKey":"id"}', undefined, 'PATCH')
        : await call(`${url}/indexes/the%20good%20doggo`, { method })
      assertError(t, res, 'invalid_index_uid', `\`the good doggo\` ${UID_TAIL}`, `${method} path`)
    }
    assertError(t, await call(`${url}/indexes/the%20good%20doggo/stats`), 'invalid_index_uid', `\`the good doggo\` ${UID_TAIL}`, 'stats path')
    assertError(t, await call(`${url}/indexes/${'c'.repeat(401)}`), 'invalid_index_uid', `\`${'c'.repeat(401)}\` ${UID_TAIL}`, 'long path')
    assertError(t, await call(`${url}/indexes/missing`), 'index_not_found', 'Index `missing` not found.', 'missing')
  })

  await t.test('bad query strings', async (t) => {
    assertError(t, await call(`${url}/indexes?limit=doggo`), 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer')
    assertError(t, await call(`${url}/indexes?offset=doggo`), 'invalid_index_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer')
    assertError(t, await call(`${url}/indexes?limit=-1`), 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer', 'negative')
    assertError(t, await call(`${url}/indexes?doggo=nolimit`), 'bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`')
    assertError(t, await call(`${url}/indexes?limt=2`), 'bad_request', 'Unknown parameter `limt`: did you mean `limit`? expected one of `offset`, `limit`', 'did you mean')
    assertError(t, await call(`${url}/tasks?uids=doggo`), 'invalid_task_uids', 'Invalid value in parameter `uids`: could not parse `doggo` as a positive integer', 'tasks')
    assertError(t, await call(`${url}/tasks/abc`), 'invalid_task_uids', 'Task uid `abc` is invalid. It should only contain numeric characters.', 'task uid')
    assertError(t, await call(`${url}/tasks/4294967295`), 'task_not_found', 'Task `4294967295` not found.', 'task not found')
  })

  await t.test('unknown routes and wrong methods answer with an empty body', async (t) => {
    for (const [method, path, status] of [
      ['GET', '/doggo', 404], ['GET', '/indexes/doggo/nope/deeper', 404], ['POST', '/nope', 404], ['GET', '/tasks/1/2', 404],
      ['PUT', '/indexes', 405], ['DELETE', '/health', 405], ['POST', '/tasks', 405], ['PUT', '/indexes/doggo', 405], ['GET', '/swap-indexes', 405],
    ] as const) {
      const res = await call(`${url}${path}`, { method })
      t.equal(res.status, status, `${method} ${path}`)
      t.equal(res.text, '', `${method} ${path} empty body`)
    }
    // A body sent to an unknown route is not read, and the connection still works.
    const res = await post('/nope', '{"uid":"x"}')
    t.equal(res.status, 404)
    t.equal(res.text, '')
  })

  await t.test('trailing slashes are trimmed', async (t) => {
    const health = await call(`${url}/health/`)
    t.equal(health.status, 200)
    t.same(health.body, { status: 'available' })
    t.equal((await call(`${url}/indexes/doggo/`)).body.uid, 'doggo')
    t.equal((await call(`${url}/indexes//`)).status, 200)
    assertError(t, await call(`${url}/indexes/?limit=doggo`), 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer', 'with query')
  })

  // Nothing changed: the only new task is the 400-byte uid creation; the server is up.
  const health = await call(`${url}/health`)
  t.equal(health.status, 200)
  t.same(health.body, { status: 'available' })
  const after = await call(`${url}/tasks`)
  t.equal(after.body.total, 2, 'only the one valid creation registered a task')
  t.same(after.body.results.map((x: any) => x.type), ['indexCreation', 'indexCreation'])
  const indexes = await call(`${url}/indexes`)
  t.same(indexes.body.results.map((i: any) => i.uid).sort(), ['b'.repeat(400), 'doggo'])
  t.equal((await call(`${url}/indexes/doggo`)).body.primaryKey, null, 'the PATCHes did not apply')
})
