/**
 * The workflow API over HTTP against the real server started with a master key: n8n's behaviours from its own
 * integration tests (packages/cli/test/integration/public-api/workflows.test.ts and tags.test.ts), its error
 * bodies for keys, validation, cursors, routes and bodies, and the `X-SERVICE-API-KEY` header.
 */
import t from 'tap'
import { serverFor, type TestServer } from '../../helpers/server.js'

const MASTER = 'workflow-master-key-0123456789'

interface Reply { status: number; body: any; headers: Headers }

function client(server: TestServer) {
  return async (method: string, path: string, options: { json?: unknown; key?: string | null; body?: string; type?: string } = {}): Promise<Reply> => {
    const headers: Record<string, string> = {}
    const key = options.key === undefined ? MASTER : options.key
    if (key !== null) headers['x-service-api-key'] = key
    let body: string | undefined = options.body
    if (options.json !== undefined) body = JSON.stringify(options.json)
    if (body !== undefined) headers['content-type'] = options.type ?? 'application/json'
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers, body })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
  }
}

const NODE = { id: 'uuid-1234', parameters: {}, name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300] }
const TRIGGER = { id: 'uuid-5678', parameters: {}, name: 'Schedule', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1, position: [400, 300] }
const SETTINGS = { saveExecutionProgress: true, saveManualExecutions: true, saveDataErrorExecution: 'all', saveDataSuccessExecution: 'all', executionTimeout: 3600, timezone: 'America/New_York', executionOrder: 'v1' }
const payload = (name: string, nodes: object[] = [NODE]) => ({ name, nodes, connections: {}, staticData: null, settings: SETTINGS })

t.test('n8n public API over HTTP', async (t) => {
  const server = await serverFor(t, { args: ['--master-key', MASTER] })
  const api = client(server)

  t.test('API key: missing, empty and wrong keys on every route', async (t) => {
    const routes: [string, string][] = [['GET', '/workflows'], ['GET', '/workflows/2'], ['DELETE', '/workflows/2'], ['POST', '/workflows/2/activate'],
      ['POST', '/workflows/2/deactivate'], ['POST', '/workflows'], ['PUT', '/workflows/1'], ['GET', '/workflows/2/tags'], ['PUT', '/workflows/2/tags'],
      ['GET', '/tags'], ['GET', '/tags/gZqmqiGAuo1dHT7q'], ['DELETE', '/tags/gZqmqiGAuo1dHT7q'], ['POST', '/tags'], ['PUT', '/tags/gZqmqiGAuo1dHT7q'], ['GET', '/projects']]
    for (const [method, path] of routes) {
      const r = await api(method, path, { key: null })
      t.same([r.status, r.body], [401, { message: "'X-SERVICE-API-KEY' header required" }], `${method} ${path} without a key`)
      const w = await api(method, path, { key: 'abcXYZ' })
      t.same([w.status, w.body], [401, { message: 'unauthorized' }], `${method} ${path} with a wrong key`)
    }
    const missing = await api('GET', '/workflows', { key: null })
    t.same([missing.status, missing.body], [401, { message: "'X-SERVICE-API-KEY' header required" }])
    const empty = await api('GET', '/workflows', { key: '' })
    t.same([empty.status, empty.body], [401, { message: "'X-SERVICE-API-KEY' header required" }], 'an empty key is a missing key')
    const wrong = await api('GET', '/workflows', { key: 'abcXYZ' })
    t.same([wrong.status, wrong.body], [401, { message: 'unauthorized' }])
    const legacy = await fetch(`${server.url}/api/v1/workflows`, { headers: { 'x-n8n-api-key': MASTER } })
    t.equal(legacy.status, 401, "n8n's header name is not Tessera's")
    t.equal((await api('GET', '/workflows')).status, 200, 'the master key passes')
  })

  t.test('POST /workflows', async (t) => {
    const invalid = await api('POST', '/workflows', { json: {} })
    t.equal(invalid.status, 400)
    t.match(invalid.body.message, /^request\/body must have required property 'name'/)
    const created = await api('POST', '/workflows', { json: payload('testing') })
    t.equal(created.status, 200)
    const w = created.body
    t.match(w.id, /^[A-Za-z0-9]{16}$/)
    t.same([w.name, w.connections, w.settings, w.staticData, w.nodes, w.active], ['testing', {}, SETTINGS, null, [NODE], false])
    t.equal(w.updatedAt, w.createdAt)
    t.same(Object.keys(w).sort(), ['active', 'connections', 'createdAt', 'id', 'isArchived', 'meta', 'name', 'nodes', 'pinData', 'settings', 'shared', 'staticData', 'tags', 'triggerCount', 'updatedAt', 'versionId'])
    t.same(w.shared[0].role, 'workflow:owner')
    t.same(w.tags, [])
    const ro = await api('POST', '/workflows', { json: { ...payload('x'), active: true } })
    t.same([ro.status, ro.body], [400, { message: 'request/body/active is read-only' }])
    const long = await api('POST', '/workflows', { json: payload('x'.repeat(129)) })
    t.same([long.status, long.body], [400, { message: 'Workflow name must be 1 to 128 characters long.' }])
  })

  t.test('GET, PUT, DELETE /workflows/{id}', async (t) => {
    t.same((await api('GET', '/workflows/2')).body, { message: 'Not Found' })
    t.equal((await api('GET', '/workflows/2')).status, 404)
    const w = (await api('POST', '/workflows', { json: { ...payload('pinned'), pinData: { Webhook1: [{ json: { first: 'first' } }] } } })).body
    const got = await api('GET', `/workflows/${w.id}`)
    t.same(got.body, w, 'GET answers what POST did')
    t.notOk('pinData' in (await api('GET', `/workflows/${w.id}?excludePinnedData=true`)).body, 'excludePinnedData')
    const unknown = await api('GET', `/workflows/${w.id}?foo=bar`)
    t.same([unknown.status, unknown.body], [400, { message: "Unknown query parameter 'foo'" }])

    t.equal((await api('PUT', '/workflows/1', { json: payload('testing') })).status, 404)
    const bad = await api('PUT', '/workflows/1', { json: { nodes: [NODE], connections: {}, settings: SETTINGS } })
    t.same([bad.status, bad.body], [400, { message: "request/body must have required property 'name'" }], 'body checked before existence')
    const put = await api('PUT', `/workflows/${w.id}`, { json: { ...payload('name updated', [NODE, TRIGGER]), staticData: '{"id":1}' } })
    t.equal(put.status, 200)
    t.same([put.body.id, put.body.name, put.body.staticData, put.body.createdAt], [w.id, 'name updated', { id: 1 }, w.createdAt])
    t.ok(put.body.updatedAt > w.updatedAt, 'updatedAt moves forward')

    const del = await api('DELETE', `/workflows/${w.id}`)
    t.same([del.status, del.body.id, del.body.name], [200, w.id, 'name updated'], 'DELETE answers the deleted workflow')
    t.equal((await api('GET', `/workflows/${w.id}`)).status, 404)
    t.equal((await api('DELETE', `/workflows/${w.id}`)).status, 404)
  })

  t.test('activate and deactivate', async (t) => {
    t.equal((await api('POST', '/workflows/2/activate')).status, 404)
    t.equal((await api('POST', '/workflows/2/deactivate')).status, 404)
    const empty = (await api('POST', '/workflows', { json: payload('empty', []) })).body
    const none = await api('POST', `/workflows/${empty.id}/activate`)
    t.same([none.status, none.body], [400, { message: `Workflow "empty" (ID: ${empty.id}) has no node to start the workflow - at least one trigger, poller or webhook node is required` }])
    const start = (await api('POST', '/workflows', { json: payload('start only') })).body
    t.equal((await api('POST', `/workflows/${start.id}/activate`)).status, 400, 'a Start node does not trigger')
    const w = (await api('POST', '/workflows', { json: payload('triggered', [TRIGGER]) })).body
    const on = await api('POST', `/workflows/${w.id}/activate`)
    t.same([on.status, on.body.active, on.body.triggerCount, on.body.updatedAt], [200, true, 1, w.updatedAt])
    t.ok((await api('GET', '/workflows?active=true')).body.data.some((x: { id: string }) => x.id === w.id), 'listed as active')
    const off = await api('POST', `/workflows/${w.id}/deactivate`)
    t.same([off.status, off.body.active, off.body.triggerCount], [200, false, 0])
  })

  t.test('tags of a workflow', async (t) => {
    t.equal((await api('GET', '/workflows/2/tags')).status, 404)
    t.equal((await api('PUT', '/workflows/2/tags', { json: [] })).status, 404)
    const w = (await api('POST', '/workflows', { json: payload('tagged') })).body
    t.same((await api('GET', `/workflows/${w.id}/tags`)).body, [])
    const [a, b, c] = await Promise.all(['wt-a', 'wt-b', 'wt-c'].map(async (name) => (await api('POST', '/tags', { json: { name } })).body))
    const set = await api('PUT', `/workflows/${w.id}/tags`, { json: [{ id: a.id }, { id: b.id }] })
    t.same([set.status, set.body], [200, [a, b]])
    const replaced = await api('PUT', `/workflows/${w.id}/tags`, { json: [{ id: a.id }, { id: c.id }] })
    t.same(replaced.body, [a, c])
    const missing = await api('PUT', `/workflows/${w.id}/tags`, { json: [{ id: a.id }, { id: 'TagDoesNotExist' }] })
    t.same([missing.status, missing.body], [404, { message: 'Some tags not found' }])
    t.same((await api('GET', `/workflows/${w.id}/tags`)).body, [a, c], 'a refused update keeps the tags')
    t.same((await api('GET', `/workflows/${w.id}`)).body.tags, [a, c])
  })

  t.test('/tags', async (t) => {
    t.equal((await api('POST', '/tags', { json: {} })).status, 400)
    const created = await api('POST', '/tags', { json: { name: 'Tag 1' } })
    t.equal(created.status, 201)
    t.same(Object.keys(created.body).sort(), ['createdAt', 'id', 'name', 'updatedAt'])
    t.equal(created.body.updatedAt, created.body.createdAt)
    const dup = await api('POST', '/tags', { json: { name: 'Tag 1' } })
    t.same([dup.status, dup.body], [409, { message: 'Tag already exists' }])
    t.equal((await api('GET', '/tags/gZqmqiGAuo1dHT7q')).status, 404)
    t.same((await api('GET', `/tags/${created.body.id}`)).body, created.body)
    t.equal((await api('PUT', '/tags/gZqmqiGAuo1dHT7q', { json: { name: 'testing' } })).status, 404)
    t.equal((await api('PUT', '/tags/gZqmqiGAuo1dHT7q', { json: {} })).status, 400, 'an invalid body is 400 even for an unknown tag')
    const other = (await api('POST', '/tags', { json: { name: 'Some name' } })).body
    const clash = await api('PUT', `/tags/${created.body.id}`, { json: { name: 'Some name' } })
    t.same([clash.status, clash.body], [409, { message: 'Tag already exists' }])
    const renamed = await api('PUT', `/tags/${created.body.id}`, { json: { name: 'New name' } })
    t.same([renamed.status, renamed.body.name, renamed.body.id], [200, 'New name', created.body.id])
    t.not(renamed.body.updatedAt, created.body.updatedAt)
    const deleted = await api('DELETE', `/tags/${other.id}`)
    t.same([deleted.status, deleted.body], [200, other])
    t.equal((await api('DELETE', `/tags/${other.id}`)).status, 404)

    const first = await api('GET', '/tags?limit=1')
    t.same([first.body.data.length, typeof first.body.nextCursor], [1, 'string'])
    const second = await api('GET', `/tags?limit=1&cursor=${first.body.nextCursor}`)
    t.equal(second.body.data.length, 1)
    t.not(second.body.nextCursor, first.body.nextCursor)
    t.not(second.body.data[0].id, first.body.data[0].id)
    const all = await api('GET', '/tags')
    t.equal(all.body.nextCursor, null)
    t.equal((await api('GET', `/workflows?cursor=${first.body.nextCursor}`)).status, 400, "a tag cursor is not a workflow cursor")
  })

  t.test('GET /workflows: filters and pages (n8n tests)', async (t) => {
    const project = (await api('POST', '/projects', { json: { name: 'Second' } })).body
    t.equal(project.type, 'team')
    const [x, y] = await Promise.all(['flt-x', 'flt-y'].map(async (name) => (await api('POST', '/tags', { json: { name } })).body))
    const make = async (name: string, tags: string[], extra: object = {}) => {
      const w = (await api('POST', '/workflows', { json: { ...payload(name), ...extra } })).body
      if (tags.length) await api('PUT', `/workflows/${w.id}/tags`, { json: tags.map((id) => ({ id })) })
      return w
    }
    const both1 = await make('Filter both 1', [x.id, y.id])
    const both2 = await make('Filter both 2', [x.id, y.id], { pinData: { Webhook3: [{ json: { third: 'third' } }] } })
    const onlyX = await make('Filter only x', [x.id])
    const onlyY = await make('Filter only y', [y.id])
    const moved = await make('Moved workflow', [])
    t.equal((await api('PUT', `/workflows/${moved.id}/transfer`, { json: { destinationProjectId: project.id } })).status, 204)
    t.equal((await api('PUT', `/workflows/${moved.id}/transfer`, { json: {} })).status, 400, 'transfer without a destination')

    const ids = (r: Reply) => r.body.data.map((w: { id: string }) => w.id)
    t.same(ids(await api('GET', '/workflows?tags=flt-x')), [both1.id, both2.id, onlyX.id], 'one tag')
    t.same(ids(await api('GET', '/workflows?tags=flt-x,flt-y')), [both1.id, both2.id], 'two tags: both required')
    t.same(ids(await api('GET', '/workflows?tags=flt-y, flt-x')), [both1.id, both2.id], 'names are trimmed')
    t.same(ids(await api('GET', '/workflows?tags=flt-x,nope')), [], 'a tag no workflow can have')
    t.same(ids(await api('GET', `/workflows?projectId=${project.id}`)), [moved.id], 'projectId')
    t.same(ids(await api('GET', '/workflows?projectId=nope')), [])
    t.same(ids(await api('GET', '/workflows?name=filter%20BOTH')), [both1.id, both2.id], 'name: a case-insensitive substring')
    t.same(ids(await api('GET', '/workflows?name=Filter+only_x')), [onlyX.id], "name: LIKE's `_` wildcard")
    t.same(ids(await api('GET', `/workflows?name=filter&tags=flt-y&projectId=${moved.shared[0].projectId}&active=false`)), [both1.id, both2.id, onlyY.id], 'all filters at once')
    const listed = (await api('GET', '/workflows?tags=flt-x,flt-y')).body.data
    t.same(listed[0].tags.map((tag: { id: string }) => tag.id).sort(), [x.id, y.id].sort(), 'listed with their tags')
    t.same(listed[1].pinData, { Webhook3: [{ json: { third: 'third' } }] })
    const noPins = (await api('GET', '/workflows?tags=flt-x,flt-y&excludePinnedData=true')).body.data
    t.ok(noPins.every((w: object) => !('pinData' in w)), 'excludePinnedData')

    const page1 = await api('GET', '/workflows?tags=flt-x&limit=1')
    t.same([page1.body.data.length, typeof page1.body.nextCursor], [1, 'string'])
    const page2 = await api('GET', `/workflows?tags=flt-x&limit=1&cursor=${page1.body.nextCursor}`)
    t.same([page2.body.data[0].id, typeof page2.body.nextCursor], [both2.id, 'string'])
    t.not(page2.body.nextCursor, page1.body.nextCursor)
    const page3 = await api('GET', `/workflows?tags=flt-x&cursor=${page2.body.nextCursor}`)
    t.same([ids(page3), page3.body.nextCursor], [[onlyX.id], null], 'the cursor keeps its page size; null on the last page')
    const foreign = await api('GET', `/workflows?tags=flt-y&cursor=${page1.body.nextCursor}`)
    t.same([foreign.status, foreign.body], [400, { message: 'An invalid cursor was provided' }], "another query's cursor")
  })

  t.test('bad cursors and limits', async (t) => {
    const first = (await api('GET', '/workflows?limit=1')).body.nextCursor as string
    const flipped = first.slice(0, 10) + (first[10] === 'A' ? 'B' : 'A') + first.slice(11)
    for (const cursor of ['garbage', flipped, Buffer.from('{"limit":1,"offset":1}').toString('base64'), first + 'x']) {
      const r = await api('GET', `/workflows?cursor=${encodeURIComponent(cursor)}`)
      t.same([r.status, r.body], [400, { message: 'An invalid cursor was provided' }], `cursor ${cursor}`)
    }
    const limits: [string, string][] = [['0', 'request/query/limit must be >= 1'], ['251', 'request/query/limit must be <= 250'],
      ['-1', 'request/query/limit must be >= 1'], ['abc', 'request/query/limit must be number']]
    for (const [limit, message] of limits) {
      const r = await api('GET', `/workflows?limit=${limit}`)
      t.same([r.status, r.body], [400, { message }], `limit=${limit}`)
    }
    const empty = await api('GET', '/workflows?cursor=')
    t.same(empty.body, { message: "Empty value found for query parameter 'cursor'" })
    const unknown = await api('GET', '/workflows?offset=3')
    t.same([unknown.status, unknown.body], [400, { message: "Unknown query parameter 'offset'" }])
    const flag = await api('GET', '/workflows?active=yes')
    t.same(flag.body, { message: 'request/query/active must be boolean' })
  })

  t.test('routes, methods and bodies', async (t) => {
    const patch = await api('PATCH', '/workflows/abc')
    t.same([patch.status, patch.body, patch.headers.get('allow')], [405, { message: 'PATCH method not allowed' }, 'GET, PUT, DELETE'])
    const broken = await api('POST', '/workflows', { body: '{"name": ' })
    t.same([broken.status, broken.body], [400, { message: 'Invalid JSON in request body' }])
    const scalar = await api('POST', '/tags', { body: '"name"' })
    t.same([scalar.status, scalar.body], [400, { message: 'Invalid JSON in request body' }], 'only objects and arrays, as express.json')
    const text = await api('POST', '/tags', { body: 'name=x', type: 'text/plain' })
    t.same([text.status, text.body], [415, { message: 'unsupported media type text/plain' }])
    const charset = await api('POST', '/tags', { json: { name: 'charset' }, type: 'application/json; charset=utf-8' })
    t.equal(charset.status, 201, 'JSON with a charset')
    const malformed = await api('GET', '/workflows/%E0%A4%A')
    t.same([malformed.status, malformed.body], [400, { message: "malformed uri'" }])
    const projectName = await api('POST', '/projects', { json: { name: '' } })
    t.same([projectName.status, projectName.body.message, projectName.body.path], [400, 'String must contain at least 1 character(s)', ['name']])
  })
})

t.test('without a master key every request is allowed', async (t) => {
  const server = await serverFor(t)
  const api = client(server)
  t.equal((await api('GET', '/workflows', { key: null })).status, 200)
  t.equal((await api('POST', '/workflows', { key: 'anything', json: payload('open') })).status, 200)
})
