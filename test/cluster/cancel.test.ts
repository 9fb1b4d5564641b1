/**
 * Cancelations racing processing in a cluster (engine/cluster/openings.ts): a cancelation is decided at its place in
 * the log, alike on every node, whatever each node has processed by then, so replicas end with the same task
 * statuses and documents. Three nodes, each with a batch gate, one cluster for both cases.
 */
import t from 'tap'
import { call, waitStatus, type TestServer } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { accepted, allTasks, clusterFor, natsMissing, readAfter } from './cluster.js'

t.setTimeout(300_000)

const EDIT = { function: 'doc.count = doc.count + 1', filter: 'id = 0' }

/** `POST /tasks/cancel` (answered `200`, as Meilisearch does): its task uid. */
async function cancelTasks(node: TestServer, query: string): Promise<number> {
  const r = await call(`${node.url}/tasks/cancel?${query}`, { method: 'POST' })
  if (r.status !== 200) throw new Error(`cancel: ${r.status} ${r.text}`)
  return r.body.taskUid as number
}

/**
 * What must be the same on every node once every task up to `marker` is finished there (an index task: the index's
 * tasks before it are processed first): each task's uid, type and status, and the documents.
 */
async function replica(node: TestServer, marker: number): Promise<unknown> {
  const after = marker
  const tasks = (await allTasks(node, after)).map((task) => [task.uid, task.type, task.status])
  const docs = await readAfter(node, '/indexes/items/documents?limit=1000', after)
  return { tasks, docs: docs.body.results.sort((x: any, y: any) => x.id - y.id) }
}

t.test('cancelations racing processing leave identical replicas', { skip: natsMissing() }, async (t) => {
  const gates = [batchGate(t), batchGate(t), batchGate(t)]
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 3, env: (i) => gates[i]!.env })
  const [a, b, c] = cluster.nodes as [TestServer, TestServer, TestServer]
  const f = await call(`${a.url}/experimental-features`, { method: 'PATCH', json: { editDocumentsByFunction: true } })
  t.equal(f.status, 200, f.text)
  await accepted(call(`${a.url}/indexes/items/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } }))
  const seeded = await accepted(call(`${a.url}/indexes/items/documents`, { method: 'POST', json: [{ id: 0, count: 0 }] }))
  for (const node of cluster.nodes) await readAfter(node, `/tasks/${seeded}`, seeded)

  t.test('a node behind the others cancels nothing the others ran', async (t) => {
    // Node c holds its batches: the edits run on a and b, and wait on c when the cancelation reaches it.
    gates[2]!.close()
    const edits: number[] = []
    for (let i = 0; i < 6; i++) edits.push(await accepted(call(`${[a, b][i % 2]!.url}/indexes/items/documents/edit`, { method: 'POST', json: EDIT })))
    const last = edits[edits.length - 1]!
    await readAfter(a, `/tasks/${last}`, last)
    await readAfter(b, `/tasks/${last}`, last)
    await waitStatus(c.url, edits[0]!, 'processing')
    // Taken by c, which still has them enqueued or processing.
    const cancel = await cancelTasks(c, 'statuses=enqueued,processing&types=documentEdition')
    gates[2]!.open()
    const marker = await accepted(call(`${a.url}/indexes/items/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } }))
    const views = await Promise.all(cluster.nodes.map((node) => replica(node, marker)))
    t.same(views[1], views[0], 'b as a')
    t.same(views[2], views[0], 'c as a')
    const onC = (await readAfter(c, `/tasks/${cancel}`, cancel)).body
    t.equal(onC.details.canceledTasks, 0, 'the edits were opened before the cancelation: they ran everywhere')
    t.equal((views[0] as any).docs[0].count, 6)
  })

  t.test('tasks no node opened yet are canceled on every node', async (t) => {
    for (const gate of gates) gate.close()
    // Each node opens and holds the first; the next ones wait, opened by none, when the cancelation comes.
    const first = await accepted(call(`${a.url}/indexes/items/documents/edit`, { method: 'POST', json: EDIT }))
    for (const node of cluster.nodes) await waitStatus(node.url, first, 'processing')
    const more: number[] = []
    for (let i = 0; i < 4; i++) more.push(await accepted(call(`${cluster.nodes[i % 3]!.url}/indexes/items/documents/edit`, { method: 'POST', json: EDIT })))
    const cancel = await cancelTasks(b, `uids=${[first, more[0], more[1]].join(',')}`)
    for (const gate of gates) gate.open()
    const marker = await accepted(call(`${a.url}/indexes/items/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } }))
    const views = await Promise.all(cluster.nodes.map((node) => replica(node, marker)))
    t.same(views[1], views[0], 'b as a')
    t.same(views[2], views[0], 'c as a')
    const status = (uid: number) => (views[0] as any).tasks.find((task: any) => task[0] === uid)[2]
    t.equal(status(first), 'succeeded', 'the running task was opened before: it ran')
    t.same([status(more[0]!), status(more[1]!)], ['canceled', 'canceled'], 'the two waiting ones are canceled')
    t.same([status(more[2]!), status(more[3]!)], ['succeeded', 'succeeded'])
    t.equal((views[0] as any).docs[0].count, 6 + 3)
  })
})
