/**
 * Local NATS servers for `npm run cluster`, the cluster tests and the bench: N `nats-server` processes with
 * JetStream, clustered on 127.0.0.1 ports (a single one when N is 1), each with its own store directory.
 * Debian's package installs the binary (scripts/install-nats.sh).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { delimiter, join } from 'node:path'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'

/** Where `nats-server` is (PATH, then Debian's /usr/sbin), or null when it is not installed. */
export function natsServerPath(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin']
  for (const dir of dirs) {
    if (!dir) continue
    const candidate = join(dir, 'nats-server')
    try { accessSync(candidate, constants.X_OK); return candidate } catch { /* not here */ }
  }
  return null
}

/** A free loopback port (bound, read and released: another process may still take it, rarely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

interface NatsNode { name: string; conf: string; url: string; proc: ChildProcess | null; exited: Promise<void> }

export interface NatsCluster {
  /** Client URLs, one per server. */
  urls: string[]
  /** SIGKILL server `i` (kill -9). */
  kill(i: number): Promise<void>
  /** Start server `i` again (same ports and store). */
  restart(i: number): Promise<void>
  /** Stop every server. */
  stop(): Promise<void>
}

/** Start `count` servers storing under `dir`, and wait until JetStream answers (its meta leader is elected). */
export async function startNats(count: number, dir: string, binary = natsServerPath()): Promise<NatsCluster> {
  if (binary === null) throw new Error('nats-server is not installed (sudo sh scripts/install-nats.sh)')
  const clientPorts = await Promise.all(Array.from({ length: count }, () => freePort()))
  const routePorts = await Promise.all(Array.from({ length: count }, () => freePort()))
  const nodes: NatsNode[] = clientPorts.map((port, i) => {
    const name = `nats-${i + 1}`
    const store = join(dir, name)
    mkdirSync(store, { recursive: true })
    const lines = [
      `server_name: ${name}`, `listen: 127.0.0.1:${port}`,
      `jetstream { store_dir: ${JSON.stringify(store)}, max_memory_store: 64MB, max_file_store: 4GB }`,
    ]
    if (count > 1) {
      const routes = routePorts.filter((_, j) => j !== i).map((p) => `nats-route://127.0.0.1:${p}`)
      lines.push(`cluster { name: tessera, listen: 127.0.0.1:${routePorts[i]}, routes: [${routes.join(', ')}] }`)
    }
    const conf = join(dir, `${name}.conf`)
    writeFileSync(conf, lines.join('\n') + '\n')
    return { name, conf, url: `nats://127.0.0.1:${port}`, proc: null, exited: Promise.resolve() }
  })
  const launch = (node: NatsNode) => {
    const proc = spawn(binary, ['-c', node.conf], { stdio: ['ignore', 'ignore', 'ignore'] })
    node.proc = proc
    node.exited = new Promise((resolve) => proc.once('exit', () => resolve()))
  }
  const stopNode = async (node: NatsNode, signal: NodeJS.Signals) => {
    if (node.proc && node.proc.exitCode === null && node.proc.signalCode === null) node.proc.kill(signal)
    await node.exited
  }
  nodes.forEach(launch)
  const cluster: NatsCluster = {
    urls: nodes.map((n) => n.url),
    kill: (i) => stopNode(nodes[i]!, 'SIGKILL'),
    async restart(i) { await stopNode(nodes[i]!, 'SIGKILL'); launch(nodes[i]!) },
    async stop() { await Promise.all(nodes.map((n) => stopNode(n, 'SIGTERM'))) },
  }
  try {
    await jetStreamReady(cluster.urls)
  } catch (err) {
    await cluster.stop()
    throw err
  }
  return cluster
}

/** Wait (up to 30 s) until JetStream answers an account request through the servers. */
async function jetStreamReady(urls: string[]): Promise<void> {
  const deadline = Date.now() + 30_000
  let last: unknown = null
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: urls, timeout: 1_000, reconnect: false })
      try {
        await (await jetstreamManager(nc, { timeout: 1_000 })).getAccountInfo()
        return
      } finally {
        await nc.close()
      }
    } catch (err) {
      last = err
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error(`JetStream did not become ready within 30 s: ${(last as Error)?.message}`)
}
