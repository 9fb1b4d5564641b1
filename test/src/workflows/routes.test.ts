/**
 * The routes with a key system plugged in (a ServiceKeyCheck that knows keys and their actions), through the real
 * router and a real Store, in process: 401 for unknown keys, 403 `Forbidden` for a valid key without the route's
 * action, decided after validation as n8n decides it; every route declares one action of WORKFLOW_ACTIONS.
 */
import t from 'tap'
import { Router } from '../../../src/http/router.js'
import type { Request } from '../../../src/http/types.js'
import { workflowRoutes, OPERATIONS } from '../../../src/workflows/routes.js'
import { WORKFLOW_ACTIONS, masterKeyCheck, type ServiceKeyCheck, type WorkflowAction } from '../../../src/workflows/auth.js'
import type { WorkflowServerContext } from '../../../src/workflows/operation.js'
import { openService } from './fixtures.js'

const KEYS: Record<string, readonly string[]> = {
  reader: ['workflows.list', 'workflows.get'],
  writer: ['workflows.*'],
  all: ['*'],
}

/** A key system in miniature: known keys with actions and wildcards. */
const keyCheck: ServiceKeyCheck = async (key, action) => {
  if (key === undefined) return 'missing'
  const actions = KEYS[key]
  if (!actions) return 'invalid'
  return actions.includes(action) || actions.includes('*') || actions.includes(`${action.split('.')[0]}.*`) ? 'ok' : 'forbidden'
}

t.test('actions and verdicts', async (t) => {
  const { store } = await openService(t)
  const router = new Router<WorkflowServerContext>(workflowRoutes({ keyCheck }))
  const host = { engine: { store }, config: { masterKey: 'unused', httpPayloadSizeLimit: 1 << 20 } }
  const call = async (method: string, path: string, key?: string, json?: unknown) => {
    const [p, rawQuery = ''] = path.split('?')
    const headers = new Map<string, string>()
    if (key !== undefined) headers.set('x-service-api-key', key)
    if (json !== undefined) headers.set('content-type', 'application/json')
    const body = json === undefined ? [] : [Buffer.from(JSON.stringify(json))]
    const req: Request = { method, path: p!, rawQuery, headers, body: (async function* () { yield* body })() }
    const match = router.match(method, p!)
    if ('status' in match) return { status: match.status, body: undefined }
    const res = await match.route.handler({ ...host, req, params: match.params })
    return { status: res.status, body: res.body ? JSON.parse(String(res.body)) : undefined }
  }

  t.same(await call('GET', '/api/v1/workflows', 'reader'), { status: 200, body: { data: [], nextCursor: null } })
  t.same(await call('GET', '/api/v1/workflows', 'stranger'), { status: 401, body: { message: 'unauthorized' } })
  t.same(await call('GET', '/api/v1/workflows'), { status: 401, body: { message: "'X-SERVICE-API-KEY' header required" } })
  const body = { name: 'w', nodes: [], connections: {}, settings: {} }
  t.same(await call('POST', '/api/v1/workflows', 'reader', body), { status: 403, body: { message: 'Forbidden' } })
  t.same(await call('POST', '/api/v1/workflows', 'reader', {}), { status: 400, body: { message: "request/body must have required property 'name', request/body must have required property 'nodes', request/body must have required property 'connections', request/body must have required property 'settings'" } },
    'validation comes before the action check, as in n8n')
  t.same(await call('GET', '/api/v1/tags?limit=999', 'reader'), { status: 400, body: { message: 'request/query/limit must be <= 250' } })
  t.same(await call('GET', '/api/v1/tags', 'reader'), { status: 403, body: { message: 'Forbidden' } })
  t.same(await call('GET', '/api/v1/tags?cursor=forged', 'reader'), { status: 403, body: { message: 'Forbidden' } }, 'the cursor is checked after the action')
  const created = await call('POST', '/api/v1/workflows', 'writer', body)
  t.equal(created.status, 200, 'workflows.* grants workflows.create')
  t.equal((await call('POST', '/api/v1/tags', 'writer', { name: 'x' })).status, 403, 'but not tags.create')
  t.equal((await call('POST', '/api/v1/tags', 'all', { name: 'x' })).status, 201)
  t.equal((await call('DELETE', `/api/v1/workflows/${created.body.id}`, 'reader')).status, 403)
  t.equal((await call('GET', `/api/v1/workflows/${created.body.id}`, 'reader')).status, 200)

  const declared = new Set<WorkflowAction>(OPERATIONS.map((op) => op.action))
  t.same([...declared].sort(), [...WORKFLOW_ACTIONS].sort(), 'every action is used by a route, and every route uses a declared action')
})

t.test('the default check: the master key alone, or everyone without one', async (t) => {
  const master = masterKeyCheck('s3cret-master-key')
  t.equal(await master(undefined, 'workflows.list'), 'missing')
  t.equal(await master('s3cret-master-key', 'tags.delete'), 'ok')
  t.equal(await master('s3cret-master-kex', 'workflows.list'), 'invalid')
  t.equal(await master('s3cret', 'workflows.list'), 'invalid')
  const open = masterKeyCheck(null)
  t.equal(await open(undefined, 'workflows.delete'), 'ok')
  t.equal(await open('anything', 'workflows.delete'), 'ok')
})
