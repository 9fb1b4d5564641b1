/**
 * One key system for the whole service: keys made through `/keys` with workflow actions open the workflow API
 * (area D, `X-SERVICE-API-KEY`), which answers in n8n's words; an index-scoped key cannot hold them.
 */
import t from 'tap'
import { call } from '../../helpers/server.js'
import { WORKFLOW_ACTIONS } from '../../../src/workflows/auth.js'
import { isAction, expandActions, GLOBAL_ACTIONS } from '../../../src/keys/actions.js'
import { authServerFor, MASTER_KEY } from './auth-server.js'

t.test('every workflow action is a key action, granted by its wildcard and by `*`, and instance-wide', async (t) => {
  for (const action of WORKFLOW_ACTIONS) {
    t.ok(isAction(action), action)
    t.ok(expandActions(['*']).has(action as never), `* grants ${action}`)
    t.ok(expandActions([`${action.split('.')[0]}.*` as never]).has(action as never), `its group grants ${action}`)
    t.ok(GLOBAL_ACTIONS.has(action as never), `${action} is instance-wide`)
  }
})

t.test('workflow routes with keys made through /keys', async (t) => {
  const server = await authServerFor(t)
  const wf = (key: string | undefined, path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers)
    if (key !== undefined) headers.set('x-service-api-key', key)
    return call(`${server.url}/api/v1${path}`, { ...init, headers })
  }
  const reader = await server.createKey({ actions: ['workflows.list', 'workflows.get'], indexes: ['*'] })
  const writer = await server.createKey({ actions: ['workflows.*'], indexes: ['*'] })
  const searcher = await server.createKey({ actions: ['search'], indexes: ['*'] })
  const body = { name: 'w', nodes: [], connections: {}, settings: {} }

  t.same((await wf(undefined, '/workflows')).body, { message: "'X-SERVICE-API-KEY' header required" })
  t.same((await wf('nope', '/workflows')).body, { message: 'unauthorized' })
  t.equal((await wf(MASTER_KEY, '/workflows')).status, 200, 'the master key')
  t.same((await wf(reader.key, '/workflows')).body, { data: [], nextCursor: null }, 'a key with workflows.list')
  t.same(await wf(reader.key, '/workflows', { method: 'POST', json: body }).then((r) => [r.status, r.body]), [403, { message: 'Forbidden' }], 'without workflows.create')
  const created = await wf(writer.key, '/workflows', { method: 'POST', json: body })
  t.equal(created.status, 200, 'workflows.* grants workflows.create')
  t.equal((await wf(writer.key, '/tags')).status, 403, 'but not tags.list')
  t.equal((await wf(searcher.key, '/workflows')).status, 403, 'a search key is a valid key without the action')
  t.equal((await server.as(writer.key, '/indexes')).status, 403, 'a workflow key opens nothing of the search API')

  const scoped = await server.as(MASTER_KEY, '/keys', { method: 'POST', json: { actions: ['workflows.list'], indexes: ['products'], expiresAt: null } })
  t.equal(scoped.status, 400)
  t.equal(scoped.body.code, 'index_scoped_api_key_with_global_action')

  t.equal((await server.as(MASTER_KEY, `/keys/${writer.uid}`, { method: 'DELETE' })).status, 204)
  t.same((await wf(writer.key, '/workflows')).body, { message: 'unauthorized' }, 'a deleted key stops working at once')
})
