/**
 * A sharded cluster: three shards, each owned by two of three nodes (3 shards × 2 replicas). Each node keeps only
 * the documents of its shards; `_shard` filters; `useNetwork` searches return every document exactly once, also
 * while one node is down (its shards are answered by their other owners); a shard move (new owners) copies the
 * shard's documents to the node that gains it and drops them on the one that loses it (applied on catching up); a
 * new shard gets its documents from the shards they leave.
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

  // A shard move while c is down: s2 goes from [b, c] to [a, b]. Node a gains s2 (fetched from b), c loses it.
  await json(a, 'PATCH', '/network', { shards: { s2: { remotes: ['a', 'b'] } } })
  const tasks = await json(a, 'GET', '/tasks?types=networkTopologyChange&limit=1')
  const move = tasks.results[0].uid as number
  const more = Array.from({ length: 30 }, (_, i) => ({ id: 1000 + i, title: `late ${i}` }))
  const after = await accepted(call(`${b.url}/indexes/docs/documents`, { method: 'POST', json: more }))
  t.ok(after > move)
  const moved = await readAfter(a, `/tasks/${move}`, after)
  t.equal(moved.body.status, 'succeeded', moved.text)
  t.same(moved.body.details, { movedDocuments: inShards(['s2']).length, message: 'Finished' }, "node a fetched s2's documents")
  t.equal((await readAfter(b, `/tasks/${move}`, after)).body.details.movedDocuments, 0, 'node b moved nothing')
  const every = [...docs, ...more]
  const ids = (names: string[]) => every.filter((d) => names.includes(shards.shardOf(d.id)!)).map((d) => String(d.id)).sort()
  t.equal((await readAfter(a, '/indexes/docs/stats', after)).body.numberOfDocuments, every.length, 'node a now holds s1, s2 and s3')
  const s2 = await call(`${a.url}/indexes/docs/documents/fetch`, { method: 'POST', json: { filter: '_shard = s2', limit: 1000 } })
  t.same(s2.body.results.map((d: any) => String(d.id)).sort(), ids(['s2']), "s2's documents, the moved ones and the later ones, on node a")
  const r = await networkSearch(b)
  t.same(r.ids, every.map((d) => String(d.id)).sort(), 'useNetwork after the move: every document once')

  // Node c comes back, catches up and applies the move: it drops s2.
  const c = await cluster.start(2)
  const onC = await readAfter(c, '/indexes/docs/stats', after)
  t.equal(onC.body.numberOfDocuments, ids(['s3']).length, 'node c keeps only s3 after the move')
  t.equal((await readAfter(c, `/tasks/${move}`, after)).body.details.movedDocuments, inShards(['s2']).length, 'node c dropped s2')

  // Node c came back on another port: the network learns its new address (no move: the owners did not change).
  await json(a, 'PATCH', '/network', { remotes: { c: { url: c.url } } })

  // A new shard, s4 on c alone: rendezvous hashing moves some documents of s1, s2 and s3 to it; c fetches them from
  // their former owners, which keep them (no node held them and owns s4).
  await json(a, 'PATCH', '/network', { shards: { s4: { remotes: ['c'] } } })
  const marker = await accepted(call(`${a.url}/indexes/docs/settings`, { method: 'PATCH', json: { filterableAttributes: ['title'] } }))
  const four = new ShardSet(['s1', 's2', 's3', 's4'])
  const inS4 = every.filter((d) => four.shardOf(d.id) === 's4').map((d) => String(d.id)).sort()
  t.ok(inS4.length > 0, 'some documents move to s4')
  const s4 = await readAfter(c, '/indexes/docs/documents/fetch', marker, { method: 'POST', json: { filter: '_shard = s4', limit: 1000 } })
  t.same(s4.body.results.map((d: any) => String(d.id)).sort(), inS4, "node c holds s4's documents")
  for (const node of [a, b, c]) {
    await readAfter(node, '/indexes/docs/stats', marker)
    const r = await networkSearch(node)
    t.same(r.ids, every.map((d) => String(d.id)).sort(), 'useNetwork after a new shard: every document once')
    t.same(r.errors, {})
  }

  // Node c renamed `d` (it owns nothing then: it drops what another owner keeps), then `c` again: it fetches back s3
  // from a (s4, which no other node held, it kept).
  const moves = async () => (await json(c, 'GET', '/tasks?types=networkTopologyChange')).total as number
  const movesBefore = await moves()
  await json(c, 'PATCH', '/network', { self: 'd' })
  const renamedD = await accepted(call(`${c.url}/indexes/docs/settings`, { method: 'PATCH', json: { filterableAttributes: ['title', 'id'] } }))
  const whileD = await readAfter(c, '/indexes/docs/documents/fetch', renamedD, { method: 'POST', json: { filter: '_shard = s3', limit: 1000 } })
  t.same(whileD.body.results, [], 'node c, named d, dropped s3 (node a keeps it)')
  await json(c, 'PATCH', '/network', { self: 'c' })
  t.equal(await moves(), movesBefore + 2, 'each rename is a move')
  const back = await accepted(call(`${a.url}/indexes/docs/documents`, { method: 'POST', json: [{ id: 5000, title: 'after the renames' }] }))
  const everyAfter = [...every, { id: 5000, title: 'after the renames' }]
  const cHolds = (await readAfter(c, '/indexes/docs/documents/fetch', back, { method: 'POST', json: { filter: '_shard IN [s3, s4]', limit: 1000 } })).body.results
  t.same(cHolds.map((d: any) => String(d.id)).sort(), everyAfter.filter((d) => ['s3', 's4'].includes(four.shardOf(d.id)!)).map((d) => String(d.id)).sort(), 'node c holds s3 and s4 again')
  // useNetwork reads each owner as it is: every node must have applied the last addition first.
  for (const node of [a, b]) await readAfter(node, '/indexes/docs/stats', back)
  const final = await networkSearch(a)
  t.same(final.ids, everyAfter.map((d) => String(d.id)).sort(), 'useNetwork after the renames: every document once')
})
