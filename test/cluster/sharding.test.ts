/**
 * A sharded cluster: three shards, each owned by two of three nodes (3 shards × 2 replicas). Each node keeps only
 * the documents of its shards; `_shard` filters; `useNetwork` searches return every document exactly once, also
 * while one node is down (its shards are answered by their other owners).
 */
import t from 'tap'
import { Meilisearch } from 'meilisearch'
import { call, type TestServer } from '../helpers/server.js'
import { accepted, clusterFor, natsMissing, readAfter } from './cluster.js'
import { ShardSet } from '../../engine/network/sharding.js'

t.setTimeout(300_000)

const OWNERS = { s1: ['a', 'b'], s2: ['b', 'c'], s3: ['a', 'c'] } as const
const NAMES = ['a', 'b', 'c'] as const
const shards = new ShardSet(Object.keys(OWNERS))
const ownedBy = (node: string) => Object.entries(OWNERS).filter(([, owners]) => (owners as readonly string[]).includes(node)).map(([s]) => s)

t.test('3 shards × 2 replicas: each node keeps its shards, useNetwork returns each document once, one node down too', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 3 })
  const nodes = cluster.nodes as [TestServer, TestServer, TestServer]
  const [a, b] = nodes
  const json = async (node: TestServer, method: string, path: string, body?: unknown) => {
    const r = await call(`${node.url}${path}`, { method, json: body })
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
    return r.body
  }

  await json(a, 'PATCH', '/experimental-features', { network: true })
  // Each node names itself (its `self` is its own); remotes and shards are set once, for all.
  for (const [i, node] of nodes.entries()) t.equal((await json(node, 'PATCH', '/network', { self: NAMES[i] })).self, NAMES[i])
  const remotes = Object.fromEntries(nodes.map((node, i) => [NAMES[i], { url: node.url }]))
  const shardsBody = Object.fromEntries(Object.entries(OWNERS).map(([s, owners]) => [s, { remotes: owners }]))
  await json(a, 'PATCH', '/network', { remotes, shards: shardsBody })

  const docs = Array.from({ length: 300 }, (_, i) => ({ id: i % 3 === 0 ? `d${i}` : i, title: `item ${i % 10 === 0 ? 'round' : 'plain'} ${i}` }))
  await accepted(call(`${b.url}/indexes`, { method: 'POST', json: { uid: 'docs', primaryKey: 'id' } }))
  const last = await accepted(call(`${b.url}/indexes/docs/documents`, { method: 'POST', json: docs }))
  const all = docs.map((d) => String(d.id)).sort()
  const inShards = (names: readonly string[]) => docs.filter((d) => names.includes(shards.shardOf(d.id)!)).map((d) => String(d.id)).sort()

  for (const [i, node] of nodes.entries()) {
    const stats = await readAfter(node, '/indexes/docs/stats', last)
    t.equal(stats.body.numberOfDocuments, inShards(ownedBy(NAMES[i])).length, `node ${NAMES[i]} keeps the documents of ${ownedBy(NAMES[i]).join(', ')}`)
    const task = await readAfter(node, `/tasks/${last}`, last)
    t.equal(task.body.details.indexedDocuments, 300, 'the task says the same on every node')
  }
  const filtered = await call(`${a.url}/indexes/docs/documents/fetch`, { method: 'POST', json: { filter: '_shard = s1', limit: 1000 } })
  t.same(filtered.body.results.map((d: any) => String(d.id)).sort(), inShards(['s1']), '_shard = s1 on a node owning s1')
  t.same((await json(a, 'POST', '/indexes/docs/search', { filter: '_shard = s2', limit: 1000 })).hits, [], 'a node holds nothing of a shard it does not own')

  const networkSearch = async (node: TestServer, body: Record<string, unknown> = {}) => {
    const r = await json(node, 'POST', '/indexes/docs/search', { useNetwork: true, limit: 1000, ...body })
    return { ids: r.hits.map((h: any) => String(h.id)).sort(), total: r.estimatedTotalHits, errors: r.remoteErrors }
  }
  for (const node of nodes) {
    const r = await networkSearch(node)
    t.same(r.ids, all, 'every document exactly once')
    t.equal(r.total, 300)
    t.same(r.errors, {})
  }
  const round = await networkSearch(b, { q: 'round' })
  t.same(round.ids, docs.filter((d) => d.title.includes('round')).map((d) => String(d.id)).sort(), 'a query, over every shard')
  const client: any = new Meilisearch({ host: a.url }).index('docs')
  const viaClient = await client.search('', { useNetwork: true, limit: 1000, filter: '_shard IN [s2, s3]' })
  t.same(viaClient.hits.map((h: any) => String(h.id)).sort(), inShards(['s2', 's3']), "the official client's search with useNetwork and a _shard filter")

  // Node c down: s2 is answered by b, s3 by a, whichever owner each search picks first.
  await nodes[2].stop()
  for (let i = 0; i < 4; i++) {
    for (const node of [a, b]) {
      const r = await networkSearch(node)
      t.same(r.ids, all, `every document exactly once with c down (search ${i + 1})`)
      t.same(r.errors, {}, 'no shard lost')
    }
  }
})
