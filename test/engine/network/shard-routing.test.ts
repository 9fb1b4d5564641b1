/**
 * Sharded `useNetwork` routing: one owner per shard (this instance first), `_shard IN [...]` filters, and the shards
 * of an owner that fails asked of another owner (a real Tessera server on 127.0.0.1; the failing owner is a closed
 * port), its error then left out; a shard with no other owner keeps the error.
 */
import t from 'tap'
import { createServer } from 'node:net'
import { call, serverFor, waitTask } from '../../helpers/server.js'
import { emptyNetwork, emptyPlan, startRemoteSearches, type Network } from '../../../engine/network/index.js'
import { assignShards, fuseFilters, restrictedBody, shardFilter } from '../../../engine/network/shard-routing.js'
import { ShardSet } from '../../../engine/network/sharding.js'
import type { Federation } from '../../../engine/search/request.js'

t.test('assignment, filters', async (t) => {
  const network: Network = {
    ...emptyNetwork(), self: 'a',
    remotes: { a: { url: 'http://127.0.0.1:1', searchApiKey: null, writeApiKey: null }, b: { url: 'http://127.0.0.1:2', searchApiKey: null, writeApiKey: null } },
    shards: { s1: { remotes: ['a', 'b'] }, s2: { remotes: ['b'] }, s3: { remotes: ['gone'] } },
  }
  t.same([...assignShards(network)], [['a', ['s1']], ['b', ['s2']]], 'this instance answers for its shards; a shard without a known owner is left out')
  t.same([...assignShards(network, new Set(['a']))], [['b', ['s1', 's2']]], 'an excluded owner is not picked')
  t.equal(shardFilter(['s1', 'we"ird\\']), '_shard IN ["s1", "we\\"ird\\\\"]')
  t.equal(fuseFilters(null, 'x'), 'x')
  t.same(fuseFilters('a = 1', 'x'), ['a = 1', 'x'])
  t.same(fuseFilters(['a = 1', ['b = 2', 'c = 3']], 'x'), ['a = 1', ['b = 2', 'c = 3'], 'x'])
})

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

t.test("an owner that fails: its shards are asked of another owner", async (t) => {
  const live = await serverFor(t)
  await call(`${live.url}/experimental-features`, { method: 'PATCH', json: { network: true } })
  // `_shard` is computed from the shard names of the network the remote holds (a cluster's nodes share it).
  const shared = await call(`${live.url}/network`, { method: 'PATCH', json: { self: 'live', remotes: { live: { url: live.url } }, shards: { s1: { remotes: ['live'] }, s2: { remotes: ['live'] } } } })
  t.equal(shared.status, 200, shared.text)
  const docs = Array.from({ length: 40 }, (_, i) => ({ id: i }))
  const added = await call(`${live.url}/indexes/docs/documents`, { method: 'POST', json: docs })
  t.equal((await waitTask(live.url, added.body.taskUid)).status, 'succeeded')

  const network: Network = {
    ...emptyNetwork(), self: 'me',
    remotes: { dead: { url: `http://127.0.0.1:${await closedPort()}`, searchApiKey: null, writeApiKey: null }, live: { url: live.url, searchApiKey: null, writeApiKey: null } },
    shards: { s1: { remotes: ['dead', 'live'] }, s2: { remotes: ['dead'] } },
  }
  const federation: Federation = { limit: 100, offset: 0, page: null, hitsPerPage: null, facetsByIndex: new Map(), mergeFacets: null, distinct: null, showPerformanceDetails: false }
  const body = { indexUid: 'docs', federationOptions: { weight: 1, queryPosition: 0 } }
  const shards = new ShardSet(['s1', 's2'])
  const inS1 = docs.filter((d) => shards.shardOf(d.id) === 's1').map((d) => d.id).sort((x, y) => x - y)

  const planFor = (asked: string[]) => {
    const plan = emptyPlan(network)
    plan.hasRemote = true
    plan.remote.set('dead', { name: 'dead', remote: network.remotes.dead!, queries: [restrictedBody(body, asked)] })
    plan.shardQueries.set('dead', [{ body, shards: asked }])
    return plan
  }
  const covered = await startRemoteSearches(planFor(['s1']), federation, {})
  t.same(covered.map((o) => o.name), ['live'], "the dead owner's shard answered by the other, its error left out")
  const hits = (covered[0] as any).result.hits.map((h: any) => h.id).sort((x: number, y: number) => x - y)
  t.same(hits, inS1, 'only the shard asked for')

  const lost = await startRemoteSearches(planFor(['s1', 's2']), federation, {})
  t.same(lost.map((o) => [o.name, 'error' in o ? (o as any).error.code : 'ok']), [['dead', 'remote_could_not_send_request'], ['live', 'ok']], 'a shard no other owner holds: the error stays')
})
