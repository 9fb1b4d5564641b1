/**
 * Cluster mode over three clustered nats-server processes (R3) and three Tessera nodes: writes through any node are
 * applied on every node (a large payload through the object store too), task uids come from the log and task views
 * agree, replicas converge (document counts, settings, top-20 of fixed queries), read-your-writes answers after the
 * named task and refuses a bad header, and the official client works against any node.
 */
import t from 'tap'
import { Meilisearch } from 'meilisearch'
import { call } from '../helpers/server.js'
import { accepted, allTasks, clusterFor, increasingUids, natsMissing, readAfter } from './cluster.js'

// Several nats-server and Tessera processes on a shared 2-core machine: more than the default 120 s per file.
t.setTimeout(600_000)

const words = ['river', 'stone', 'garden', 'winter', 'harbor', 'lantern', 'meadow', 'copper']
const doc = (id: number) => ({ id, title: `${words[id % 8]} ${words[(id * 3) % 8]} ${id}`, genre: id % 2 === 0 ? 'even' : 'odd', rank: id % 17 })

t.test('writes through any node are applied on every node, and replicas converge', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 3, nodes: 3 })
  const [a, b, c] = cluster.nodes as [typeof cluster.nodes[0], typeof cluster.nodes[0], typeof cluster.nodes[0]]
  const post = (node: typeof a, path: string, json: unknown, method = 'POST') => accepted(call(`${node.url}${path}`, { method, json }))

  const created = await post(a, '/indexes', { uid: 'books', primaryKey: 'id' })
  t.equal(created, 0, 'the first task of the log is task 0')
  await post(b, '/indexes/books/settings', { filterableAttributes: ['genre'], sortableAttributes: ['rank', 'id'], synonyms: { rock: ['stone'] } }, 'PATCH')
  await post(c, '/indexes/books/documents', Array.from({ length: 300 }, (_, i) => doc(i)))
  await post(a, '/indexes/books/documents', Array.from({ length: 300 }, (_, i) => doc(300 + i)))
  // Past the 256 KiB a payload is kept inline: this one travels through the payloads bucket.
  const large = Array.from({ length: 2_000 }, (_, i) => ({ ...doc(600 + i), body: 'lorem ipsum dolor sit amet '.repeat(8) }))
  t.ok(JSON.stringify(large).length > 300_000)
  await post(b, '/indexes/books/documents', large)
  await post(c, '/indexes/books/documents/delete-batch', [1, 2, 3])
  const last = await post(a, '/indexes/books/documents', [{ id: 5, title: 'lantern replaced' }], 'PUT')

  const views = []
  for (const node of cluster.nodes) {
    const stats = await readAfter(node, '/indexes/books/stats', last)
    t.equal(stats.status, 200, stats.text)
    t.equal(stats.body.numberOfDocuments, 2_597, 'every document on every node')
    const settings = (await readAfter(node, '/indexes/books/settings', last)).body
    const searches = []
    for (const q of ['river', 'rock', 'lantern', 'winter meadow', '']) {
      const r = await readAfter(node, '/indexes/books/search', last, { method: 'POST', json: q === '' ? { q, limit: 20, filter: 'genre = even', sort: ['rank:asc', 'id:asc'] } : { q, limit: 20 } })
      t.equal(r.status, 200, r.text)
      searches.push(r.body.hits.map((h: any) => h.id))
    }
    const tasks = (await allTasks(node, last)).map((task) => ({ uid: task.uid, type: task.type, status: task.status, indexUid: task.indexUid, details: task.details, enqueuedAt: task.enqueuedAt }))
    views.push({ settings, searches, tasks })
  }
  t.equal(views[0]!.tasks.length, 7, 'every task once')
  t.ok(increasingUids(views[0]!.tasks) && views[0]!.tasks.every((task: any) => task.status === 'succeeded'), 'increasing uids, all succeeded')
  t.same(views[0]!.settings.filterableAttributes, ['genre'])
  t.ok(views[0]!.searches.every((ids: number[]) => ids.length === 20), 'every query has a full page')
  t.ok(views[0]!.searches[1].length > 0, 'the synonym applied')
  t.same(views[1], views[0], 'node 2 converged with node 1')
  t.same(views[2], views[0], 'node 3 converged with node 1')
})

t.test("read-your-writes, and the official client on a cluster node", { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 2 })
  const [a, b] = cluster.nodes as [typeof cluster.nodes[0], typeof cluster.nodes[0]]
  const client = new Meilisearch({ host: a.url })
  const task = await client.index('movies').addDocuments([{ id: 1, title: 'Carol' }, { id: 2, title: 'Wonder Woman' }])
  // Read on the other node right away: the header makes it wait until the task is applied there.
  const hits = await readAfter(b, '/indexes/movies/search?q=carol', task.taskUid)
  t.equal(hits.status, 200, hits.text)
  t.same(hits.body.hits, [{ id: 1, title: 'Carol' }])
  const done = await new Meilisearch({ host: b.url }).tasks.waitForTask(task.taskUid)
  t.equal(done.status, 'succeeded', "the client's waitForTask on another node")

  const bad = await call(`${b.url}/indexes/movies/search?q=carol`, { headers: { 'x-tessera-after-task': 'soon' } })
  t.equal(bad.status, 400)
  t.equal(bad.body.code, 'invalid_header_value')

  // Experimental features go through the log (test/cluster/state.test.ts): enabling them on one node is enough, but
  // a change answered by node b is one node b has applied, so the remote search below finds it enabled there.
  await client.updateExperimentalFeatures({ network: true })
  await new Meilisearch({ host: b.url }).updateExperimentalFeatures({ network: true })
  const network = { self: 'a', remotes: { a: { url: a.url, searchApiKey: null }, b: { url: b.url, searchApiKey: null } } }
  const updated: any = await client.updateNetwork(network)
  t.equal(updated.self, 'a')
  t.same(Object.keys((await client.getNetwork()).remotes ?? {}).sort(), ['a', 'b'])
  // A remote federated search sent to node a and answered by node b's replica.
  const federated: any = await client.multiSearch({ federation: {}, queries: [{ indexUid: 'movies', q: 'wonder', federationOptions: { remote: 'b' } }] })
  t.same(federated.hits.map((h: any) => [h.id, h._federation.remote]), [[2, 'b']], JSON.stringify(federated))
})
