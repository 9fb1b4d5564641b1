/**
 * `npm run cluster -- --nodes 3`: a cluster to try on one machine. Starts N `nats-server` processes clustered with
 * JetStream on 127.0.0.1 (stores in a temporary directory) and N Tessera nodes in cluster mode on ports
 * 7700, 7701, ... (`--base-port`), prints their URLs, and stops everything on Ctrl-C (the temporary directory is
 * removed unless `--dir` named one). With `--shards N`, the nodes are also made a sharded network (see `shard`).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startNats } from './nats-servers.js'

const MAIN = resolve(fileURLToPath(new URL('../main.js', import.meta.url)))
const USAGE = 'usage: npm run cluster -- [--nodes N (1-5, default 3)] [--base-port PORT (default 7700)] [--dir DIR (default: a temporary directory)] [--shards N [--shard-replicas R (default 2, at most the nodes)]]'

interface RunOptions { nodes: number; basePort: number; dir: string | null; shards: number; shardReplicas: number }

function parse(argv: string[]): RunOptions {
  const options: RunOptions = { nodes: 3, basePort: 7700, dir: null, shards: 0, shardReplicas: 2 }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[++i]
    if (flag === '--help' || flag === '-h') { console.log(USAGE); process.exit(0) }
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`)
    if (flag === '--nodes') options.nodes = Number(value)
    else if (flag === '--base-port') options.basePort = Number(value)
    else if (flag === '--dir') options.dir = resolve(value)
    else if (flag === '--shards') options.shards = Number(value)
    else if (flag === '--shard-replicas') options.shardReplicas = Number(value)
    else throw new Error(`unknown option ${flag}\n${USAGE}`)
  }
  if (!Number.isInteger(options.nodes) || options.nodes < 1 || options.nodes > 5) throw new Error(`--nodes must be 1 to 5\n${USAGE}`)
  if (!Number.isInteger(options.basePort) || options.basePort < 1 || options.basePort + options.nodes > 65535) throw new Error(`invalid --base-port\n${USAGE}`)
  if (!Number.isInteger(options.shards) || options.shards < 0 || options.shards > 64) throw new Error(`--shards must be 0 to 64\n${USAGE}`)
  if (!Number.isInteger(options.shardReplicas) || options.shardReplicas < 1) throw new Error(`--shard-replicas must be 1 or more\n${USAGE}`)
  options.shardReplicas = Math.min(options.shardReplicas, options.nodes)
  return options
}

/** Start one Tessera node and wait for its "listening on" line; its output goes to ours, prefixed. */
function startNode(name: string, args: string[]): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const prefix = (line: string) => (line ? `[${name}] ${line}` : line)
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => process.stderr.write(d.split('\n').map(prefix).join('\n')))
  return new Promise((resolveStart, reject) => {
    let out = ''
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      if (/listening on/.test(out)) resolveStart(proc)
    })
    proc.once('exit', (code, signal) => reject(new Error(`${name} exited during start-up (${code ?? signal})`)))
  })
}

/**
 * Make the nodes a sharded network: the `network` feature on, each node named `node-<i>` (its `self`, set on it),
 * every node a remote of the others, and shard `s<k>` owned by `replicas` nodes in turn from node k. Returns the
 * shards' owners.
 */
async function shard(urls: string[], shards: number, replicas: number): Promise<Record<string, string[]>> {
  const patch = async (url: string, path: string, body: unknown) => {
    const r = await fetch(`${url}${path}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (r.status !== 200) throw new Error(`PATCH ${url}${path}: ${r.status} ${await r.text()}`)
  }
  const names = urls.map((_, i) => `node-${i + 1}`)
  await patch(urls[0]!, '/experimental-features', { network: true })
  for (const [i, url] of urls.entries()) await patch(url, '/network', { self: names[i] })
  const owners = Object.fromEntries(Array.from({ length: shards }, (_, k) => [`s${k + 1}`, Array.from({ length: replicas }, (_, r) => names[(k + r) % names.length]!)]))
  await patch(urls[0]!, '/network', {
    remotes: Object.fromEntries(urls.map((url, i) => [names[i], { url }])),
    shards: Object.fromEntries(Object.entries(owners).map(([name, remotes]) => [name, { remotes }])),
  })
  return owners
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2))
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tessera-cluster-'))
  mkdirSync(dir, { recursive: true })
  const nats = await startNats(options.nodes, join(dir, 'nats'))
  const nodes: ChildProcess[] = []
  let stopping = false
  const stop = async (code: number) => {
    if (stopping) return
    stopping = true
    console.log('\nstopping the cluster...')
    await Promise.all(nodes.map((p) => new Promise<void>((done) => {
      if (p.exitCode !== null || p.signalCode !== null) return done()
      p.once('exit', () => done())
      p.kill('SIGTERM')
    })))
    await nats.stop()
    if (!options.dir) rmSync(dir, { recursive: true, force: true })
    process.exit(code)
  }
  process.on('SIGINT', () => void stop(0))
  process.on('SIGTERM', () => void stop(0))
  try {
    for (let i = 0; i < options.nodes; i++) {
      const port = options.basePort + i
      nodes.push(await startNode(`node-${i + 1}`, ['--cluster', '--cluster-nats', nats.urls.join(','), '--db-path', join(dir, `node-${i + 1}`), '--http-addr', `127.0.0.1:${port}`, '--no-preview']))
    }
  } catch (err) {
    console.error((err as Error).message)
    await stop(1)
    return
  }
  const urls = nodes.map((_, i) => `http://127.0.0.1:${options.basePort + i}`)
  if (options.shards > 0) {
    try {
      const owners = await shard(urls, options.shards, options.shardReplicas)
      console.log(`\nsharded network: ${Object.entries(owners).map(([s, o]) => `${s} on ${o.join(', ')}`).join('; ')}`)
    } catch (err) {
      console.error((err as Error).message)
      await stop(1)
      return
    }
  }
  console.log(`\nNATS servers (JetStream, ${options.nodes >= 3 ? '3 replicas' : '1 replica'}): ${nats.urls.join(' ')}`)
  console.log(`data: ${dir}`)
  urls.forEach((url, i) => console.log(`node-${i + 1}: ${url}`))
  console.log('Ctrl-C stops them all.')
  for (const [i, p] of nodes.entries()) p.once('exit', (code, signal) => { if (!stopping) console.error(`node-${i + 1} exited (${code ?? signal})`) })
}

main().catch((err) => {
  console.error((err as Error).message)
  process.exit(1)
})
