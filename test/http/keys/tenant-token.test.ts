/**
 * Tenant tokens through HTTP, made with the official client's `generateTenantToken` (`meilisearch/token`), after
 * `tests/auth/tenant_token.rs` and `tenant_token_multi_search.rs`: a token's rule filter really restricts the hits
 * (ANDed with the request's filter), on search, facet search and multi-search; tokens are refused outside search
 * routes, on indexes outside their rules, when expired, forged or truncated, and when their key lacks `search`,
 * has expired or was deleted.
 */
import t from 'tap'
import { generateTenantToken } from 'meilisearch/token'
import { MOVIES } from '../../helpers/meili.js'
import { authServerFor, MASTER_KEY, type AuthServer } from './auth-server.js'

async function seed(server: AuthServer): Promise<void> {
  for (const uid of ['sales', 'products']) {
    const settings = await server.as(MASTER_KEY, `/indexes/${uid}/settings`, { method: 'PATCH', json: { filterableAttributes: ['color'] } })
    const docs = await server.as(MASTER_KEY, `/indexes/${uid}/documents`, { method: 'POST', json: MOVIES })
    for (const r of [settings, docs]) t.equal((await server.wait(r.body.taskUid)).status, 'succeeded')
  }
}

const hour = () => Math.floor(Date.now() / 1000) + 3600

t.test('rules restrict the hits', async (t) => {
  const server = await authServerFor(t)
  await seed(server)
  const parents = [
    { actions: ['*'], indexes: ['*'] }, { actions: ['search'], indexes: ['*'] }, { actions: ['*'], indexes: ['sales'] },
    { actions: ['search'], indexes: ['sales'] }, { actions: ['search'], indexes: ['sal*', 'prod*'] },
  ]
  const cases: [object, unknown, number][] = [
    [{ '*': {} }, undefined, 5], [['*'], undefined, 5], [{ sales: {} }, undefined, 5], [['sales'], undefined, 5], [{ '*': null }, undefined, 5], [['sa*'], undefined, 5],
    [{ '*': { filter: 'color = blue' } }, undefined, 3], [{ sales: { filter: ['color = blue'] } }, undefined, 3],
    [{ '*': { filter: 'color = green' }, sales: { filter: 'color = blue' } }, undefined, 3],
    [{ '*': {}, 'sal*': { filter: ['color = blue'] } }, undefined, 3],
    [{ '*': { filter: 'color = blue' } }, 'color = yellow', 1], [{ sales: { filter: ['color = blue'] } }, ['color = yellow'], 1],
  ]
  for (const parent of parents) {
    const { uid, key } = await server.createKey(parent)
    for (const [searchRules, filter, count] of cases) {
      const token = await generateTenantToken({ apiKey: key, apiKeyUid: uid, searchRules: searchRules as never, expiresAt: hour() })
      const client = server.clientWith(token)
      const hits = (await client.index('sales').search('', filter === undefined ? {} : { filter: filter as string })).hits
      t.equal(hits.length, count, `${JSON.stringify(parent)} ${JSON.stringify(searchRules)} ${JSON.stringify(filter)}`)
    }
  }
  const { uid, key } = await server.createKey({ actions: ['search'], indexes: ['*'] })
  const token = await generateTenantToken({ apiKey: key, apiKeyUid: uid, searchRules: { sales: { filter: 'color = blue' }, products: { filter: 'color = yellow' } } })
  const get = await server.as(token, '/indexes/sales/search?q=')
  t.equal(get.body.hits.length, 3, 'GET search too')
  const facets = await server.as(token, '/indexes/sales/facet-search', { method: 'POST', json: { facetName: 'color' } })
  t.equal(facets.status, 200, 'facet search takes the token')
  t.equal(facets.body.facetHits.find((h: any) => h.value === 'blue').count, 3, 'facet counts are restricted too')
  const multi = await server.as(token, '/multi-search', { method: 'POST', json: { queries: [{ indexUid: 'sales' }, { indexUid: 'products' }] } })
  t.same(multi.body.results.map((r: any) => r.hits.length), [3, 2], 'each query gets its index\'s rule')
  const federated = await server.as(token, '/multi-search', { method: 'POST', json: { federation: {}, queries: [{ indexUid: 'sales' }, { indexUid: 'products' }] } })
  t.equal(federated.body.hits.length, 5)
})

t.test('refusals', async (t) => {
  const server = await authServerFor(t)
  await seed(server)
  const { uid, key } = await server.createKey({ actions: ['*'], indexes: ['*'] })
  const make = (searchRules: object, expiresAt?: number) => generateTenantToken({ apiKey: key, apiKeyUid: uid, searchRules: searchRules as never, expiresAt })
  const status = async (token: string, path = '/indexes/sales/search') => {
    const r = await server.as(token, path, { method: 'POST', json: path === '/multi-search' ? { queries: [{ indexUid: 'sales' }] } : {} })
    return [r.status, r.body?.code, r.body?.message]
  }
  t.same(await status(await make(['products'])), [403, 'invalid_api_key', 'The provided tenant token cannot acces the index `sales`, allowed indexes are ["products"].'])
  t.same(await status(await make(['products']), '/multi-search'), [403, 'invalid_api_key', 'Inside `.queries[0]`: The provided API key is invalid.'])
  const past = Math.floor(Date.now() / 1000) - 3600
  const expired = await status(await make(['*'], past))
  t.same(expired.slice(0, 2), [403, 'invalid_api_key'])
  t.match(expired[2], new RegExp(`^Tenant token expired\\. Was valid up to \`${past}\` and we're now \`\\d+\`\\.$`))
  const good = await make(['products'])
  const wide = await make(['*'])
  const forged = [good.split('.')[0], wide.split('.')[1], good.split('.')[2]].join('.')
  t.same(await status(forged), [403, 'invalid_api_key', 'Could not decode tenant token, InvalidSignature.'], 'a payload swapped under a signature')
  t.same(await status(wide.slice(0, -3)), [403, 'invalid_api_key', 'Could not decode tenant token, InvalidSignature.'], 'truncated')
  t.same(await status(wide.split('.').slice(0, 2).join('.')), [403, 'invalid_api_key', 'The provided API key is invalid.'], 'without its signature: tried as an API key')
  t.same((await server.as(wide, '/indexes/sales/documents')).body.message, 'The provided API key is invalid.', 'not on other routes')
  t.equal((await server.as(wide, '/indexes/sales/search', { method: 'POST', json: {} })).status, 200)

  const { uid: noSearchUid, key: noSearch } = await server.createKey({ actions: ['documents.get', 'indexes.*'], indexes: ['*'] })
  t.same(await status(await generateTenantToken({ apiKey: noSearch, apiKeyUid: noSearchUid, searchRules: ['*'] })), [403, 'invalid_api_key', 'The provided API key is invalid.'], 'a key without search')
  const { uid: dogUid, key: dog } = await server.createKey({ actions: ['search'], indexes: ['dog'] })
  t.same(await status(await generateTenantToken({ apiKey: dog, apiKeyUid: dogUid, searchRules: ['*'] })), [403, 'invalid_api_key', 'The API key used to generate this tenant token cannot acces the index `sales`.'])
  // Five seconds of validity (room for a busy machine), then wait for the clock to pass the key's expiry.
  const shortExpiry = Date.now() + 5000
  const { uid: shortUid, key: short } = await server.createKey({ actions: ['search'], indexes: ['*'], expiresAt: new Date(shortExpiry).toISOString() })
  const shortToken = await generateTenantToken({ apiKey: short, apiKeyUid: shortUid, searchRules: ['*'], expiresAt: hour() })
  t.equal((await status(shortToken))[0], 200)
  while (Date.now() <= shortExpiry + 200) await new Promise((r) => setTimeout(r, 50))
  t.same(await status(shortToken), [403, 'invalid_api_key', 'The provided API key is invalid.'], 'its key expired')
  t.equal((await status(wide))[0], 200)
  t.equal((await server.as(MASTER_KEY, `/keys/${uid}`, { method: 'DELETE' })).status, 204)
  t.same(await status(wide), [403, 'invalid_api_key', 'The provided API key is invalid.'], 'its key deleted: refused at once')
})
