/**
 * Shard moves that survive failures (issue 25), on one cluster of two nodes shared by the cases, run in order:
 * - the node that took a `PATCH /network` changing the owners dies (`kill -9`) after the change is in the log but
 *   before it answered: the move still happens on every node, that node included once restarted (the move is
 *   registered with the change, at its place in the log);
 * - a node dies during its move (held in `processing` by a batch gate): restarted, it applies the move;
 * - an edit by function registered after a move, applied by the donor before the new owner fetches from it, takes
 *   effect once on the moved documents (the donor's position settles them).
 */
import t from 'tap'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, tempDir, waitStatus, type TestServer } from '../helpers/server.js'
import { batchGate } from '../helpers/batch-gate.js'
import { accepted, clusterFor, natsMissing, readAfter } from './cluster.js'
import { ShardSet } from '../../engine/network/sharding.js'

t.setTimeout(300_000)

const SHARDS = new ShardSet(['s1', 's2'])
const DOCS = Array.from({ length: 200 }, (_, i) => ({ id: i, n: 0 }))
const inShard = (s: string) => DOCS.filter((d) => SHARDS.shardOf(d.id) === s).length

async function json(node: TestServer, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(`${node.url}${path}`, { method, json: body })
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}

/** Poll `check` until it holds (a generous bound: the machine is shared). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`)
}

t.test('shard moves survive kill -9', { skip: natsMissing() }, async (t) => {
  const hooks = tempDir('tessera-moves-hooks-')
  t.teardown(() => rmSync(hooks, { recursive: true, force: true }))
  const gates = [batchGate(t), batchGate(t)]
  const answerGate = (i: number) => join(hooks, `network-answer-${i}`)
  const cluster = await clusterFor(t, {
    natsServers: 1, nodes: 2,
    env: (i) => ({ ...gates[i]!.env, TESSERA_TEST_NETWORK_ANSWER_GATE: answerGate(i) }),
  })
  const node = (i: number) => cluster.nodes[i]!
  await json(node(0), 'PATCH', '/experimental-features', { network: true, editDocumentsByFunction: true })
  await json(node(0), 'PATCH', '/network', { self: 'a' })
  await json(node(1), 'PATCH', '/network', { self: 'b' })
  const remotes = () => ({ a: { url: node(0).url }, b: { url: node(1).url } })
  await json(node(0), 'PATCH', '/network', { remotes: remotes(), shards: { s1: { remotes: ['a'] }, s2: { remotes: ['b'] } } })
  await accepted(call(`${node(0).url}/indexes`, { method: 'POST', json: { uid: 'docs', primaryKey: 'id' } }))
  const loaded = await accepted(call(`${node(0).url}/indexes/docs/documents`, { method: 'POST', json: DOCS }))
  t.equal((await readAfter(node(1), '/indexes/docs/stats', loaded)).body.numberOfDocuments, inShard('s2'), 'b holds s2')

  t.test('the node that took the change dies before answering: the move still happens', async (t) => {
    const before = (await json(node(0), 'GET', '/tasks?types=networkTopologyChange')).total as number
    writeFileSync(answerGate(1), '')
    // b gains s1 (from a). The answer waits at b's gate; the change is in the log once a applied it.
    const patch = call(`${node(1).url}/network`, { method: 'PATCH', json: { shards: { s1: { remotes: ['a', 'b'] } } } }).catch(() => null)
    await until('a applied the change', async () => (await json(node(0), 'GET', '/network')).shards.s1.remotes.includes('b'))
    await node(1).kill9()
    t.equal(await patch, null, 'b never answered')
    rmSync(answerGate(1))
    const moves = await json(node(0), 'GET', '/tasks?types=networkTopologyChange')
    t.equal(moves.total, before + 1, 'the move is registered on a')
    const move = moves.results[0].uid as number
    const marker = await accepted(call(`${node(0).url}/indexes/docs/settings`, { method: 'PATCH', json: { filterableAttributes: ['n'] } }))
    t.ok(marker > move)
    await cluster.start(1)
    const onB = await readAfter(node(1), `/tasks/${move}`, marker)
    t.equal(onB.body.status, 'succeeded', onB.text)
    t.same(onB.body.details, { movedDocuments: inShard('s1'), message: 'Finished' }, "b fetched s1's documents")
    t.equal((await readAfter(node(1), '/indexes/docs/stats', marker)).body.numberOfDocuments, DOCS.length, 'b holds s1 and s2')
    t.equal((await readAfter(node(0), `/tasks/${move}`, marker)).body.details.movedDocuments, 0, 'a moved nothing')
    await json(node(0), 'PATCH', '/network', { remotes: remotes() }) // b's new address
  })

  t.test('a node killed during its move applies it after a restart', async (t) => {
    gates[0]!.close()
    // a gains s2 (from b); a's batch waits in `processing`.
    await json(node(1), 'PATCH', '/network', { shards: { s2: { remotes: ['a', 'b'] } } })
    // Asked of the node that took the change: it answered once it registered the move.
    const move = (await json(node(1), 'GET', '/tasks?types=networkTopologyChange&limit=1')).results[0].uid as number
    await waitStatus(node(0).url, move, 'processing')
    await node(0).kill9()
    gates[0]!.open()
    await cluster.start(0)
    const marker = await accepted(call(`${node(1).url}/indexes/docs/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } }))
    const onA = await readAfter(node(0), `/tasks/${move}`, marker)
    t.equal(onA.body.status, 'succeeded', onA.text)
    t.same(onA.body.details, { movedDocuments: inShard('s2'), message: 'Finished' }, "a fetched s2's documents")
    t.equal((await readAfter(node(0), '/indexes/docs/stats', marker)).body.numberOfDocuments, DOCS.length, 'a holds s1 and s2')
    await json(node(1), 'PATCH', '/network', { remotes: remotes() }) // a's new address
  })

  t.test('a task the donor applied before the new owner fetched applies once to the moved documents', async (t) => {
    // Back to one owner each (drops only), then a gains s2 again while its batches wait.
    await json(node(0), 'PATCH', '/network', { shards: { s1: { remotes: ['a'] }, s2: { remotes: ['b'] } } })
    const drops = (await json(node(0), 'GET', '/tasks?types=networkTopologyChange&limit=1')).results[0].uid as number
    await readAfter(node(0), `/tasks/${drops}`, drops)
    gates[0]!.close()
    await json(node(1), 'PATCH', '/network', { shards: { s2: { remotes: ['a', 'b'] } } })
    // Asked of the node that took the change: it answered once it registered the move.
    const move = (await json(node(1), 'GET', '/tasks?types=networkTopologyChange&limit=1')).results[0].uid as number
    await waitStatus(node(0).url, move, 'processing')
    const edit = await accepted(call(`${node(1).url}/indexes/docs/documents/edit`, { method: 'POST', json: { function: 'doc.n = doc.n + context.step', context: { step: 1 } } }))
    t.ok(edit > move)
    await readAfter(node(1), '/indexes/docs/stats', edit) // the donor is past the edit
    gates[0]!.open()
    for (const [i, name, holds] of [[0, 'a', DOCS.length], [1, 'b', inShard('s2')]] as const) {
      const docs = await readAfter(node(i), '/indexes/docs/documents?limit=1000', edit)
      t.equal(docs.body.results.length, holds, `${name} holds its shards' documents`)
      t.same([...new Set(docs.body.results.map((d: any) => d.n))], [1], `every document edited once on ${name}`)
    }
    const onA = await readAfter(node(0), `/tasks/${move}`, edit)
    t.same(onA.body.details, { movedDocuments: inShard('s2'), message: 'Finished' }, "a fetched s2's documents")
  })
})
