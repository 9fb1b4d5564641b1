/**
 * Failures of Tessera nodes in cluster mode: `kill -9` of a node during ingestion loses no acknowledged task and
 * applies none twice (a counter incremented by edit-by-function tasks counts each registered edition exactly once on
 * every node), a node that was down while 1,000 tasks were registered catches up from the log, within a bound, and
 * a new node starts from a snapshot of another plus the log's tail.
 */
import t from 'tap'
import { join } from 'node:path'
import { call, startServer, type TestServer } from '../helpers/server.js'
import { accepted, allTasks, clusterFor, increasingUids, natsMissing, readAfter } from './cluster.js'

// Several nats-server and Tessera processes on a shared 2-core machine: more than the default 120 s per file.
t.setTimeout(600_000)

const INDEX = '/indexes/items'

async function documentsOf(node: TestServer, after: number): Promise<Map<number, any>> {
  const r = await readAfter(node, `${INDEX}/documents?limit=100000`, after)
  if (r.status !== 200) throw new Error(`documents: ${r.status} ${r.text}`)
  return new Map(r.body.results.map((d: any) => [d.id, d]))
}

t.test('kill -9 of a node during ingestion loses no acknowledged task and applies none twice', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 2 })
  const [a] = cluster.nodes as [TestServer, TestServer]
  for (const node of cluster.nodes) {
    const f = await call(`${node.url}/experimental-features`, { method: 'PATCH', json: { editDocumentsByFunction: true } })
    t.equal(f.status, 200, f.text)
  }
  await accepted(call(`${a.url}${INDEX}/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } }))
  await accepted(call(`${a.url}${INDEX}/documents`, { method: 'POST', json: [{ id: 0, count: 0 }] }))

  const ackedDocs = new Set<number>()
  let ackedEdits = 0
  let refused = 0
  let nextId = 1
  let killed = false
  // Four writers send to both nodes in turn; node b dies by SIGKILL once 120 writes are acknowledged.
  const writer = async (w: number) => {
    for (let i = 0; ackedDocs.size + ackedEdits < 360; i++) {
      const node = cluster.nodes[(w + i) % 2]!
      const edit = i % 3 === 0
      const id = nextId++
      try {
        const r = edit
          ? await call(`${node.url}${INDEX}/documents/edit`, { method: 'POST', json: { function: 'doc.count = doc.count + 1', filter: 'id = 0' } })
          : await call(`${node.url}${INDEX}/documents`, { method: 'POST', json: [{ id, writer: w }] })
        if (r.status !== 202) throw new Error(`${r.status} ${r.text}`)
        if (edit) ackedEdits++
        else ackedDocs.add(id)
      } catch {
        refused++ // a request to the killed node: not acknowledged, so nothing is promised about it
      }
      if (!killed && ackedDocs.size + ackedEdits >= 120) {
        killed = true
        await cluster.nodes[1]!.kill9()
      }
    }
  }
  await Promise.all([0, 1, 2, 3].map(writer))
  t.ok(killed && refused > 0, `node b was killed during ingestion (${refused} writes refused)`)
  await cluster.start(1)
  const last = await accepted(call(`${a.url}${INDEX}/documents`, { method: 'POST', json: [{ id: 1_000_000, last: true }] }))

  const views = []
  for (const node of cluster.nodes) {
    const tasks = await allTasks(node, last)
    // The two feature changes took the log's first two places (uids 0 and 1, which no task has), openings others.
    t.ok(increasingUids(tasks) && tasks[0].uid === 2, 'every task of the log, once, after the changes')
    t.ok(tasks.every((task) => task.status === 'succeeded'), 'all succeeded')
    const docs = await documentsOf(node, last)
    const missing = [...ackedDocs].filter((id) => !docs.has(id))
    t.same(missing, [], 'no acknowledged document is missing')
    const editions = tasks.filter((task) => task.type === 'documentEdition').length
    t.ok(editions >= ackedEdits, 'every acknowledged edition is registered')
    t.equal(docs.get(0).count, editions, 'each registered edition applied exactly once')
    views.push({ tasks: tasks.map((task) => [task.uid, task.type, task.details]), docs: [...docs.values()].sort((x, y) => x.id - y.id) })
  }
  t.same(views[1], views[0], 'the restarted node converged with the other')
})

t.test('a node down for 1,000 tasks catches up', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 2 })
  const [a] = cluster.nodes as [TestServer, TestServer]
  await accepted(call(`${a.url}/indexes`, { method: 'POST', json: { uid: 'items', primaryKey: 'id' } }))
  await cluster.nodes[1]!.kill9()
  let next = 0
  let last = 0
  const writer = async () => {
    while (next < 1_000) {
      const id = next++
      last = Math.max(last, await accepted(call(`${a.url}${INDEX}/documents`, { method: 'POST', json: [{ id, title: `item ${id}` }] })))
    }
  }
  await Promise.all(Array.from({ length: 8 }, writer))
  t.ok(last >= 1_000, 'a thousand tasks after the index creation (openings take places of their own)')
  const started = Date.now()
  const b = await cluster.start(1)
  // Bounded: the read waits at most the nodes' --cluster-read-timeout-seconds (120 s) for task `last`.
  const stats = await readAfter(b, `${INDEX}/stats`, last)
  t.equal(stats.status, 200, stats.text)
  t.equal(stats.body.numberOfDocuments, 1_000)
  t.comment(`caught up 1,000 tasks in ${Date.now() - started} ms (restart included)`)
  const tasks = await allTasks(b, last)
  t.equal(tasks.length, 1_001)
  t.same((await documentsOf(b, last)).size, (await documentsOf(a, last)).size)
})

t.test('a new node bootstraps from a snapshot of another node plus the tail of the log', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 1 })
  const a = cluster.nodes[0]!
  await accepted(call(`${a.url}${INDEX}/documents`, { method: 'POST', json: Array.from({ length: 50 }, (_, id) => ({ id })) }))
  const snapshot = await accepted(call(`${a.url}/snapshots`, { method: 'POST' }))
  t.equal((await readAfter(a, `/tasks/${snapshot}`, snapshot)).body.status, 'succeeded')
  const tail = await accepted(call(`${a.url}${INDEX}/documents`, { method: 'POST', json: Array.from({ length: 25 }, (_, i) => ({ id: 50 + i })) }))
  const b = await startServer({
    dbPath: join(cluster.dir, 'from-snapshot'),
    args: ['--cluster', '--cluster-nats', cluster.nats.urls[0]!, '--import-snapshot', join(a.dbPath, 'snapshots', 'node-0.snapshot')],
    env: { TESSERA_LOG_LEVEL: 'INFO' },
  })
  cluster.nodes.push(b)
  const stats = await readAfter(b, `${INDEX}/stats`, tail)
  t.equal(stats.body.numberOfDocuments, 75, 'the snapshot and the tail')
  t.match(b.logs(), /applying task log tessera from task [1-9]/, 'it started from the snapshot, not from the first entry')
  const tasks = await allTasks(b, tail)
  // A snapshot leaves its own task out (as on a single node): the rest is the same.
  const expected = (await allTasks(a, tail)).filter((task) => task.uid !== snapshot)
  t.same(tasks.map((task) => [task.uid, task.type, task.status]), expected.map((task) => [task.uid, task.type, task.status]), 'the same tasks')
})
