/**
 * The cluster scenario's measurements against one setup (a single node without `--cluster`, or N nodes over N
 * clustered nats-servers): ingestion to every node, the `202` latency of one-document writes, search QPS spread over
 * the nodes, and (with several nodes) the time a node down for K tasks takes to catch up.
 */
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { launch, type Launched } from '../../harness/server.js'
import { summarize, type LatencySummary } from '../../harness/latency.js'
import { startNats, type NatsCluster } from '../../../src/cluster/nats-servers.js'
import type { ClusterBenchOptions } from './options.js'

export interface SetupFigures {
  setup: string
  nodes: number
  ingestDocsPerSecond: number
  ack: LatencySummary
  searchQps: number
  /** Seconds for a node down during `catchUpTasks` tasks to apply them after its restart (restart included). */
  catchUpSeconds: number | null
}

const WORDS = ['river', 'stone', 'garden', 'winter', 'harbor', 'lantern', 'meadow', 'copper', 'signal', 'orchard', 'falcon', 'ember']
const QUERIES = ['river', 'stone garden', 'winter harbor', 'lantern', 'meadow copper', 'signal', 'orchard falcon', 'ember']
const doc = (id: number) => ({ id, title: `${WORDS[id % 12]} ${WORDS[(id * 7) % 12]} ${WORDS[(id * 5) % 11]}`, body: `${WORDS[(id * 3) % 12]} ${id % 97} ${WORDS[(id * 11) % 12]}`, n: id % 1000 })

interface Node { url: string; launched: Launched; args: string[] }

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const json = await r.json()
  if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(json)}`)
  return json
}

/** Until task `uid` is finished on `node` (polling: a single node has no read-your-writes header). */
async function finished(node: Node, uid: number): Promise<void> {
  for (;;) {
    const task: any = await (await fetch(`${node.url}/tasks/${uid}`)).json()
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) {
      if (task.status !== 'succeeded') throw new Error(`task ${uid} ${task.status}: ${JSON.stringify(task.error)}`)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function startNode(args: string[]): Promise<Node> {
  const launched = await launch(args, { TESSERA_LOG_LEVEL: 'WARN' }, 60_000)
  return { url: `http://127.0.0.1:${launched.port}`, launched, args }
}

async function stopNode(node: Node): Promise<void> {
  if (node.launched.isRunning()) node.launched.proc.kill('SIGTERM')
  await node.launched.exited
}

export async function measureSetup(nodesCount: number, cluster: boolean, dir: string, o: ClusterBenchOptions, log: (s: string) => void): Promise<SetupFigures> {
  const setup = cluster ? `${nodesCount} node${nodesCount > 1 ? 's' : ''}, R${nodesCount >= 3 ? 3 : 1}` : 'single node (no --cluster)'
  let nats: NatsCluster | null = null
  const nodes: Node[] = []
  try {
    if (cluster) nats = await startNats(nodesCount, join(dir, 'nats'))
    for (let i = 0; i < nodesCount; i++) {
      const clusterArgs = nats ? ['--cluster', '--cluster-nats', nats.urls.join(','), '--cluster-read-timeout-seconds', '600'] : []
      nodes.push(await startNode(['--db-path', join(dir, `node-${i}`), '--max-indexing-threads', '1', ...clusterArgs]))
    }
    const first = nodes[0]!
    await finished(first, (await post(`${first.url}/indexes`, { uid: 'bench', primaryKey: 'id' })).taskUid)

    // Ingestion: tasks of `batch` documents, round-robin over the nodes, until applied on every node.
    log(`cluster bench: ${setup}: ingesting ${o.documents} documents`)
    const started = performance.now()
    let next = 0
    let last = 0
    await Promise.all(Array.from({ length: o.clients }, async (_, w) => {
      for (let k = w; next < o.documents; k++) {
        const from = next
        next += o.batch
        const docs = Array.from({ length: Math.min(o.batch, o.documents - from) }, (_, i) => doc(from + i))
        last = Math.max(last, (await post(`${nodes[k % nodes.length]!.url}/indexes/bench/documents`, docs)).taskUid)
      }
    }))
    for (const node of nodes) await finished(node, last)
    const ingestDocsPerSecond = o.documents / ((performance.now() - started) / 1000)

    // The 202 latency: one-document writes, one at a time, to the first node.
    const latencies: number[] = []
    for (let i = 0; i < o.ackWrites; i++) {
      const t0 = performance.now()
      last = (await post(`${first.url}/indexes/bench/documents`, [doc(o.documents + i)])).taskUid
      latencies.push(performance.now() - t0)
    }
    for (const node of nodes) await finished(node, last)

    // Search QPS: the clients spread over the nodes.
    const deadline = performance.now() + o.searchSeconds * 1000
    let searches = 0
    const searchStarted = performance.now()
    await Promise.all(Array.from({ length: o.clients * 2 }, async (_, w) => {
      for (let k = w; performance.now() < deadline; k++) {
        await post(`${nodes[k % nodes.length]!.url}/indexes/bench/search`, { q: QUERIES[k % QUERIES.length], limit: 20 })
        searches++
      }
    }))
    const searchQps = searches / ((performance.now() - searchStarted) / 1000)

    // Catch-up: the last node is down while K one-document tasks are registered through the first.
    let catchUpSeconds: number | null = null
    if (cluster && nodesCount > 1) {
      const down = nodes[nodesCount - 1]!
      await stopNode(down)
      log(`cluster bench: ${setup}: ${o.catchUpTasks} tasks while a node is down`)
      let sent = 0
      await Promise.all(Array.from({ length: o.clients }, async () => {
        while (sent < o.catchUpTasks) {
          sent++
          last = Math.max(last, (await post(`${first.url}/indexes/bench/documents`, [doc(1_000_000 + sent)])).taskUid)
        }
      }))
      const t0 = performance.now()
      const back = await startNode(down.args)
      nodes[nodesCount - 1] = back
      await finished(back, last)
      catchUpSeconds = (performance.now() - t0) / 1000
    }
    return { setup, nodes: nodesCount, ingestDocsPerSecond, ack: summarize(latencies), searchQps, catchUpSeconds }
  } finally {
    await Promise.all(nodes.map(stopNode))
    await nats?.stop()
  }
}
