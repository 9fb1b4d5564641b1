/**
 * Cluster mode replicates the network, the experimental features and created API keys through the log: a change
 * taken by one node is applied by every node in log order (so a task registered after it is applied after it
 * everywhere), a network's `self` stays each node's own, a refused change is refused without an entry, and the
 * official client's network calls work against a cluster node.
 */
import t from 'tap'
import { Meilisearch } from 'meilisearch'
import { call, type TestServer } from '../helpers/server.js'
import { accepted, clusterFor, natsMissing, readAfter } from './cluster.js'

t.setTimeout(300_000)

const MASTER = 'a-master-key-of-sixteen-bytes-at-least'
const auth = { authorization: `Bearer ${MASTER}` }

t.test('network, features and keys are applied on every node in log order', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 2, args: ['--master-key', MASTER] })
  const [a, b] = cluster.nodes as [TestServer, TestServer]
  const req = (node: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) => call(`${node.url}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } })

  // The default keys are derived from the cluster's stream name: the same on every node.
  const defaults = async (node: TestServer) => (await req(node, '/keys')).body.results.map((k: any) => [k.name, k.uid, k.key])
  const onA = await defaults(a)
  t.equal(onA.length, 4)
  t.same(await defaults(b), onA, 'the same default keys (uids, values) on every node')

  const features = await req(a, '/experimental-features', { method: 'PATCH', json: { network: true } })
  t.equal(features.status, 200, features.text)
  t.equal(features.body.network, true)

  const network = {
    self: 'a',
    remotes: { a: { url: a.url, searchApiKey: MASTER }, b: { url: b.url, searchApiKey: MASTER } },
    shards: { s1: { remotes: ['a', 'b'] } },
  }
  const patched = await req(a, '/network', { method: 'PATCH', json: network })
  t.equal(patched.status, 200, patched.text)
  t.equal(patched.body.self, 'a')

  // A change refused by the node that took it never reaches the log.
  const refused = await req(b, '/network', { method: 'PATCH', json: { remotes: { c: { searchApiKey: 'k' } } } })
  t.equal(refused.status, 400, refused.text)
  t.equal(refused.body.code, 'missing_network_url')

  const created = await req(a, '/keys', { method: 'POST', json: { name: 'shared', actions: ['search'], indexes: ['*'], expiresAt: null } })
  t.equal(created.status, 201, created.text)

  // Each change took one place in the log (three so far); setting the shards registered a shard move at the
  // change's own place (task 1): the next task's uid comes after them (and after the opening that let the move run).
  const task = await accepted(req(a, '/indexes', { method: 'POST', json: { uid: 'books', primaryKey: 'id' } }))
  t.ok(task >= 3, 'three changes, one of them a shard move, then the next task')
  const move = await readAfter(b, '/tasks/1', task, { headers: auth })
  t.equal(move.body.type, 'networkTopologyChange', move.text)
  t.equal(move.body.status, 'succeeded')

  // Applied in log order: once node b finished the task, it holds every change made before it.
  const onB = await readAfter(b, '/network', task, { headers: auth })
  t.equal(onB.status, 200, onB.text)
  t.equal(onB.body.self, null, "node a's `self` is not node b's")
  t.same(onB.body.remotes, patched.body.remotes)
  t.same(onB.body.shards, { s1: { remotes: ['a', 'b'] } })
  t.equal(onB.body.version, patched.body.version, 'the same version on every node')
  const key = await readAfter(b, `/keys/${created.body.uid}`, task, { headers: auth })
  t.equal(key.status, 200, key.text)
  t.same(key.body, created.body, 'the created key, the same on node b (value, timestamps)')
  const search = await call(`${b.url}/indexes/books/search`, { method: 'POST', json: {}, headers: { authorization: `Bearer ${created.body.key}` } })
  t.equal(search.status, 200, `the key works on node b: ${search.text}`)

  // The official client's network calls, on node b: its own `self`, the shared remotes.
  const client = new Meilisearch({ host: b.url, apiKey: MASTER })
  const mine: any = await client.updateNetwork({ self: 'b' })
  t.equal(mine.self, 'b')
  t.same(Object.keys(mine.remotes), ['a', 'b'])
  t.equal((await client.getNetwork()).self, 'b')
  const deleted = await req(b, `/keys/${created.body.uid}`, { method: 'DELETE' })
  t.equal(deleted.status, 204, deleted.text)
  const later = await accepted(req(b, '/indexes/books/settings', { method: 'PATCH', json: { filterableAttributes: ['genre'] } }))
  const networkOnA = await readAfter(a, '/network', later, { headers: auth })
  t.equal(networkOnA.body.self, 'a', "node b's `self` did not change node a's")
  t.equal((await readAfter(a, `/keys/${created.body.uid}`, later, { headers: auth })).status, 404, 'the key deletion reached node a')
})
