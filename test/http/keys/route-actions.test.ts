/**
 * The actions matrix over the whole route table (`ROUTES`): every route declares the access Meilisearch gives
 * it (the table below is written from Meilisearch's routes and `tests/auth/authorization.rs`, independently of
 * the code), and, through HTTP with a master key: no key → 401, a key holding exactly that action → accepted, a key
 * holding every other action → 403; instance-wide routes refuse an index-restricted key holding `*`. A route added
 * without a declared action, or with another one, fails here.
 */
import t from 'tap'
import { ROUTES } from '../../../src/routes/index.js'
import { ACTIONS, expandActions } from '../../../src/keys/actions.js'
import { err } from '../../helpers/meili.js'
import { authServerFor, MASTER_KEY } from './auth-server.js'

/** What each route needs: an action, `search+tenant` (search routes, which take tenant tokens), or `public`. */
function expectedAccess(method: string, path: string): string | undefined {
  if (path.startsWith('/indexes/:uid/settings')) return method === 'GET' ? 'settings.get' : 'settings.update'
  const table: Record<string, string> = {
    'GET /health': 'public',
    // The search preview: open (the page asks for a key when the API answers 401/403).
    'GET /': 'public', 'GET /preview/charts': 'public', 'GET /preview/charts/:file': 'public', 'GET /preview/:file': 'public',
    'GET /version': 'version',
    'GET /stats': 'stats.get',
    'GET /tasks': 'tasks.get', 'GET /tasks/:uid': 'tasks.get', 'POST /tasks/cancel': 'tasks.cancel', 'DELETE /tasks': 'tasks.delete',
    'GET /batches': 'tasks.get', 'GET /batches/:uid': 'tasks.get',
    'GET /indexes': 'indexes.get', 'POST /indexes': 'indexes.create', 'GET /indexes/:uid': 'indexes.get',
    'PATCH /indexes/:uid': 'indexes.update', 'DELETE /indexes/:uid': 'indexes.delete', 'GET /indexes/:uid/stats': 'stats.get',
    'POST /swap-indexes': 'indexes.swap', 'POST /indexes/:uid/fields': 'fields.post', 'POST /indexes/:uid/compact': 'indexes.compact',
    'POST /indexes/:uid/documents': 'documents.add', 'PUT /indexes/:uid/documents': 'documents.add',
    'GET /indexes/:uid/documents': 'documents.get', 'POST /indexes/:uid/documents/fetch': 'documents.get',
    // Tessera's own (cluster mode): a shard's documents for a node that gained it in a move (routes/shard-transfer.ts).
    'POST /indexes/:uid/shard-transfer': 'documents.get', 'GET /indexes/:uid/documents/:id': 'documents.get',
    'DELETE /indexes/:uid/documents/:id': 'documents.delete', 'DELETE /indexes/:uid/documents': 'documents.delete',
    'POST /indexes/:uid/documents/delete-batch': 'documents.delete', 'POST /indexes/:uid/documents/delete': 'documents.delete',
    'POST /indexes/:uid/search': 'search+tenant', 'GET /indexes/:uid/search': 'search+tenant',
    'POST /indexes/:uid/facet-search': 'search+tenant',
    'POST /indexes/:uid/similar': 'search+tenant', 'GET /indexes/:uid/similar': 'search+tenant', 'POST /multi-search': 'search+tenant',
    'GET /experimental-features': 'experimental.get', 'PATCH /experimental-features': 'experimental.update',
    'GET /network': 'network.get', 'PATCH /network': 'network.update', 'POST /network/control': 'network.update',
    'POST /dumps': 'dumps.create', 'POST /snapshots': 'snapshots.create',
    // Meilisearch asks for settings.get and documents.get; Tessera declares the first (see routes/render-template.ts).
    'POST /render-template': 'settings.get',
    'GET /keys': 'keys.get', 'POST /keys': 'keys.create', 'GET /keys/:key': 'keys.get', 'PATCH /keys/:key': 'keys.update', 'DELETE /keys/:key': 'keys.delete',
  }
  // Edit by function: Meilisearch's route guards it with `documents.*` (routes/indexes/documents.rs).
  table['POST /indexes/:uid/documents/edit'] = 'documents.*'
  // The auth collections (area A) use their own tokens; the workflow API (area D) its service key.
  if (path === '/api' || path.startsWith('/api/') && !path.startsWith('/api/v1/')) return 'collections'
  if (path.startsWith('/api/v1/')) return workflowAccess(method, path)
  return table[`${method} ${path}`]
}

/** The workflow API's action per route (n8n's public API routes; the other methods answer 405 without a key). */
function workflowAccess(method: string, path: string): string {
  const table: Record<string, string> = {
    'GET /api/v1/workflows': 'workflows.list', 'POST /api/v1/workflows': 'workflows.create',
    'GET /api/v1/workflows/:id': 'workflows.get', 'PUT /api/v1/workflows/:id': 'workflows.update', 'DELETE /api/v1/workflows/:id': 'workflows.delete',
    'POST /api/v1/workflows/:id/activate': 'workflows.activate', 'POST /api/v1/workflows/:id/deactivate': 'workflows.activate',
    'PUT /api/v1/workflows/:id/transfer': 'workflows.transfer',
    'GET /api/v1/workflows/:id/tags': 'workflows.tags.get', 'PUT /api/v1/workflows/:id/tags': 'workflows.tags.update',
    'GET /api/v1/tags': 'tags.list', 'POST /api/v1/tags': 'tags.create',
    'GET /api/v1/tags/:id': 'tags.get', 'PUT /api/v1/tags/:id': 'tags.update', 'DELETE /api/v1/tags/:id': 'tags.delete',
    'GET /api/v1/projects': 'projects.list', 'POST /api/v1/projects': 'projects.create',
  }
  return table[`${method} ${path}`] === undefined ? 'public' : `service:${table[`${method} ${path}`]}`
}

const declared = (r: (typeof ROUTES)[number]) => r.access.kind === 'public' ? 'public' : r.access.kind === 'key' ? `${r.access.action}${r.access.tenantToken ? '+tenant' : ''}` : r.access.kind === 'serviceKey' ? `service:${r.access.action}` : r.access.kind
const INSTANCE_WIDE = new Set(['version', 'keys.get', 'keys.create', 'keys.update', 'keys.delete', 'experimental.get', 'experimental.update',
  'network.get', 'network.update', 'dumps.create', 'snapshots.create'])

t.test('every route declares the access Meilisearch gives it', async (t) => {
  for (const r of ROUTES) t.equal(declared(r), expectedAccess(r.method, r.path), `${r.method} ${r.path}`)
  t.ok(ROUTES.length > 80, `${ROUTES.length} routes`)
})

/** A request for the route: its parameters filled in, a small body where it takes one. */
function concrete(r: (typeof ROUTES)[number]): { path: string; init: RequestInit & { json?: unknown } } {
  if (r.path === '/preview/:file') return { path: '/preview/app.js', init: { method: 'GET' } }
  const path = r.path.replace(':uid', r.path.startsWith('/indexes') ? 'products' : '0').replace(':id', '1').replace(':key', '00000000-0000-0000-0000-0000000000ff')
  if (r.method === 'GET' || r.method === 'DELETE') return { path, init: { method: r.method } }
  const json = path.endsWith('/documents') ? [{ id: 1 }] : path === '/swap-indexes' ? [{ indexes: ['products', 'products_other'] }]
    : path === '/multi-search' ? { queries: [{ indexUid: 'products' }] } : path.endsWith('delete-batch') ? [1]
    : path.endsWith('/documents/delete') ? { filter: 'id = 1' } : path === '/indexes' ? { uid: 'products_new' } : path.endsWith('facet-search') ? { facetName: 'id' } : {}
  return { path: r.path === '/tasks/cancel' ? `${path}?uids=0` : path, init: { method: r.method, json } }
}

t.test('through HTTP: no key, the exact action, every other action, an index-restricted `*`', async (t) => {
  const server = await authServerFor(t)
  const seed = await server.as(MASTER_KEY, '/indexes/products/documents', { method: 'POST', json: [{ id: 1 }] })
  await server.wait(seed.body.taskUid)
  const actions = [...new Set(ROUTES.flatMap((r) => (r.access.kind === 'key' ? [r.access.action] : [])))]
  const withAction = new Map<string, string>()
  const withoutAction = new Map<string, string>()
  for (const action of actions) {
    withAction.set(action, (await server.createKey({ actions: [action], indexes: ['*'] })).key)
    // Every action, wildcards included, but those that grant this one.
    const others = ACTIONS.filter((a) => !expandActions([a]).has(action as never))
    withoutAction.set(action, (await server.createKey({ actions: others, indexes: ['*'] })).key)
  }
  const scopedAll = (await server.createKey({ actions: ['*'], indexes: ['products*'] })).key
  const allKey = (await server.createKey({ actions: ['*'], indexes: ['*'] })).key
  const invalid = err('The provided API key is invalid.', 'invalid_api_key', 'auth')
  for (const r of ROUTES) {
    const { path, init } = concrete(r)
    const name = `${r.method} ${r.path}`
    const anonymous = await server.as(null, path, init)
    if (r.path.startsWith('/api')) continue // areas A and D: their own answers, tested in test/src/auth and test/http/keys/service-key.test.ts
    if (r.access.kind === 'public') {
      // A chart exists only after a bench run: its route answers 404 then, never 401.
      if (r.path === '/preview/charts/:file') t.notOk([401, 403].includes(anonymous.status), `${name}: public`)
      else t.equal(anonymous.status, 200, `${name}: public`)
      continue
    }
    if (r.access.kind !== 'key') continue
    t.equal(anonymous.status, 401, `${name}: no key`)
    t.same(anonymous.body, err('The Authorization header is missing. It must use the bearer authorization method.', 'missing_authorization_header', 'auth'))
    const allowed = await server.as(withAction.get(r.access.action)!, path, init)
    if (r.access.action.endsWith('.*')) {
      // Meilisearch's key store expands a group into its members without the group itself, so a route guarded by
      // the group (edit by function: `documents.*`) takes only `*` (meilisearch-auth/src/store.rs, put_api_key).
      t.same([allowed.status, allowed.body], [403, invalid], `${name}: a key holding ${r.access.action} is refused, as in Meilisearch`)
      const all = await server.as(allKey, path, init)
      t.notOk([401, 403].includes(all.status), `${name}: accepted with \`*\` (${all.status} ${all.text.slice(0, 120)})`)
    } else t.notOk([401, 403].includes(allowed.status), `${name}: accepted with exactly ${r.access.action} (${allowed.status} ${allowed.text.slice(0, 120)})`)
    const refused = await server.as(withoutAction.get(r.access.action)!, path, init)
    t.equal(refused.status, 403, `${name}: refused with every action but ${r.access.action}`)
    t.same(refused.body, invalid)
    const scoped = await server.as(scopedAll, path, init)
    if (INSTANCE_WIDE.has(r.access.action)) t.same([scoped.status, scoped.body], [403, invalid], `${name}: instance-wide, refused to an index-restricted key`)
    else t.not(scoped.status, 403, `${name}: about indexes, accepted from a key restricted to \`products*\``)
  }
})
