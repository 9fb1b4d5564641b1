/**
 * Failure of one of three clustered nats-server processes (R3) during ingestion: `kill -9` of it loses no
 * acknowledged task (writes it interrupts answer `task_log_unavailable` or succeed after a retry), the Tessera nodes
 * keep applying through the other servers, and the replicas converge.
 */
import t from 'tap'
import { call, type TestServer } from '../helpers/server.js'
import { accepted, allTasks, clusterFor, increasingUids, natsMissing, readAfter } from './cluster.js'

// Several nats-server and Tessera processes on a shared 2-core machine: more than the default 120 s per file.
t.setTimeout(600_000)

t.test('kill -9 of one nats-server during ingestion loses no acknowledged task', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 3, nodes: 2 })
  const acked = new Set<number>()
  const refusals = new Map<string, number>()
  let nextId = 0
  let killed = false
  const writer = async (w: number) => {
    for (let i = 0; acked.size < 300; i++) {
      const node = cluster.nodes[(w + i) % 2]!
      const id = nextId++
      const r = await call(`${node.url}/indexes/items/documents`, { method: 'POST', json: [{ id, writer: w }] })
      if (r.status === 202) acked.add(id)
      else {
        refusals.set(r.body?.code ?? String(r.status), (refusals.get(r.body?.code ?? String(r.status)) ?? 0) + 1)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      if (!killed && acked.size >= 100) {
        killed = true
        await cluster.nats.kill(1)
      }
    }
  }
  await Promise.all([0, 1, 2, 3].map(writer))
  t.ok(killed, 'a nats-server was killed during ingestion')
  t.same([...refusals.keys()].filter((code) => code !== 'task_log_unavailable'), [], `refusals are task_log_unavailable only (${JSON.stringify([...refusals])})`)
  const last = await accepted(call(`${cluster.nodes[0]!.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 'last' }] }))
  const views = []
  for (const node of cluster.nodes as TestServer[]) {
    const r = await readAfter(node, '/indexes/items/documents?limit=100000', last)
    t.equal(r.status, 200, r.text.slice(0, 300))
    const ids = new Set(r.body.results.map((d: any) => d.id))
    t.same([...acked].filter((id) => !ids.has(id)), [], 'no acknowledged document is missing')
    const tasks = await allTasks(node, last)
    t.ok(increasingUids(tasks) && tasks.length >= acked.size + 1, 'every task of the log, once')
    views.push({ ids: [...ids].map(String).sort(), tasks: tasks.map((task) => [task.uid, task.status, task.details]) })
  }
  t.same(views[1], views[0], 'the replicas converged')
})

t.test('without the log, writes are refused and reads go on; once it is back, writes and applying resume', { skip: natsMissing() }, async (t) => {
  // Writes keep trying the log for 3 s instead of 15 before they are refused.
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 1, env: () => ({ TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS: '3000' }) })
  const node = cluster.nodes[0]!
  const first = await accepted(call(`${node.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 1, title: 'before' }] }))
  t.equal((await readAfter(node, '/indexes/items/search?q=before', first)).body.hits.length, 1)
  await cluster.nats.kill(0)
  const refused = await call(`${node.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 2, title: 'during' }] })
  t.equal(refused.status, 503, refused.text)
  t.equal(refused.body.code, 'task_log_unavailable')
  t.match(refused.body.message, /^The task could not be registered: the task log did not acknowledge it within 3 s/)
  const read = await call(`${node.url}/indexes/items/search?q=before`)
  t.equal(read.status, 200, 'reads are answered from the local replica')
  t.equal(read.body.hits.length, 1)
  await cluster.nats.restart(0)
  let after: number | null = null
  for (let i = 0; i < 60 && after === null; i++) {
    const r = await call(`${node.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 3, title: 'after' }] })
    if (r.status === 202) after = r.body.taskUid
    else await new Promise((resolve) => setTimeout(resolve, 500))
  }
  t.not(after, null, 'a write is accepted again')
  const hits = await readAfter(node, '/indexes/items/search?q=after', after!)
  t.equal(hits.body.hits.length, 1, 'and applied')
  // A refused write may still have reached the stream (its acknowledgement lost): whatever is in the log is applied.
  const tasks = await allTasks(node, after!)
  t.ok(increasingUids(tasks) && tasks.every((task) => task.status === 'succeeded'), 'increasing uids, all succeeded')
})
