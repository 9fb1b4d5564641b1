/**
 * Cluster test harness: real `nats-server` processes (src/cluster/nats-servers.ts) and real Tessera nodes in cluster
 * mode (test/helpers/server.ts), all on 127.0.0.1, under one temporary directory removed at teardown. Tests skip,
 * saying why, when nats-server is not installed (scripts/install-nats.sh installs it).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { natsServerPath, startNats, type NatsCluster } from '../../src/cluster/nats-servers.js'
import { call, startServer, tempDir, type FetchResult, type TestServer } from '../helpers/server.js'

/** A reason to skip (tap's `skip` option), or false when nats-server is there. */
export function natsMissing(): string | false {
  return natsServerPath() === null ? 'nats-server is not installed (sudo sh scripts/install-nats.sh): the cluster tests need it' : false
}

export interface TestCluster {
  nats: NatsCluster
  nodes: TestServer[]
  dir: string
  /** Start node `i` (again) on its data directory; the cluster's `nodes[i]` is replaced. */
  start(i: number): Promise<TestServer>
}

export interface ClusterSpec {
  natsServers: 1 | 3
  nodes: number
  /** Extra flags for every node. */
  args?: string[]
  /** Extra environment for node `i` (test hooks). */
  env?: (i: number) => Record<string, string>
}

export async function clusterFor(t: { teardown(fn: () => unknown): void }, spec: ClusterSpec): Promise<TestCluster> {
  const dir = tempDir('tessera-cluster-test-')
  const nats = await startNats(spec.natsServers, join(dir, 'nats'))
  const nodes: TestServer[] = []
  const cluster: TestCluster = {
    nats, nodes, dir,
    async start(i) {
      const node = await startServer({
        dbPath: join(dir, `node-${i}`),
        args: ['--cluster', '--cluster-nats', nats.urls.join(','), '--cluster-read-timeout-seconds', '120', ...(spec.args ?? [])],
        env: spec.env?.(i) ?? {},
      })
      nodes[i] = node
      return node
    },
  }
  t.teardown(async () => {
    await Promise.all(nodes.map((n) => n.stop()))
    await nats.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  for (let i = 0; i < spec.nodes; i++) await cluster.start(i)
  return cluster
}

/** A request answered once task `after` is applied on that node (`X-Tessera-After-Task`). */
export function readAfter(node: TestServer, path: string, after: number, init: RequestInit & { json?: unknown } = {}): Promise<FetchResult> {
  return call(`${node.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'x-tessera-after-task': String(after) } })
}

/** A write that must be accepted: its task uid. */
export async function accepted(res: FetchResult | Promise<FetchResult>): Promise<number> {
  const r = await res
  if (r.status !== 202) throw new Error(`expected 202, got ${r.status}: ${r.text}`)
  return r.body.taskUid as number
}

/** Every task a node holds, oldest first. */
export async function allTasks(node: TestServer, after: number): Promise<any[]> {
  const tasks: any[] = []
  let from: number | null = null
  do {
    const r = await readAfter(node, `/tasks?limit=1000&reverse=true${from === null ? '' : `&from=${from}`}`, after)
    if (r.status !== 200) throw new Error(`tasks: ${r.status} ${r.text}`)
    tasks.push(...r.body.results)
    from = r.body.next
  } while (from !== null)
  return tasks
}

/**
 * Whether tasks (oldest first) have increasing uids, each once. Uids are not contiguous: changes of the network,
 * features and keys, and openings (engine/cluster/openings.ts), take places in the log without a task.
 */
export function increasingUids(tasks: { uid: number }[]): boolean {
  return tasks.every((task, i) => i === 0 || task.uid > tasks[i - 1]!.uid)
}
