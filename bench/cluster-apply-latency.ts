/**
 * Two cluster measurements, by hand (not part of `npm run bench`):
 * - the time from sending a one-document write to its task finished on the node that took it, sequential writes
 *   (what openings, engine/cluster/openings.ts, add per batch: one more round trip through the log);
 * - the catch-up of a node that was down while `--catchup` one-document tasks were registered (restart included).
 * `--main <path>` runs another build's `dist/src/main.js` (e.g. main's, to compare). Three nats-servers (R3) and
 * three nodes on 127.0.0.1; figures on stdout.
 *
 *   node dist/bench/cluster-apply-latency.js [--main path] [--writes 300] [--catchup 10000]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startNats } from '../src/cluster/nats-servers.js'
import { MAIN } from './harness/server.js'

const { values } = parseArgs({ options: { main: { type: 'string' }, writes: { type: 'string' }, catchup: { type: 'string' } } })
const main = values.main ?? MAIN
const writes = Number(values.writes ?? 300)
const catchup = Number(values.catchup ?? 10_000)

interface Node { url: string; proc: ChildProcess }

async function start(dbPath: string, nats: string[]): Promise<Node> {
  const proc = spawn(process.execPath, [main, '--http-addr', '127.0.0.1:0', '--db-path', dbPath, '--cluster', '--cluster-nats', nats.join(','), '--cluster-read-timeout-seconds', '300'],
    { env: { ...process.env, TESSERA_LOG_LEVEL: 'WARN' }, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const m = /listening on http:\/\/[^\s]*:(\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    proc.once('exit', (code) => reject(new Error(`exited during start-up (${code})`)))
  })
  proc.stdout!.resume()
  return { url: `http://127.0.0.1:${port}`, proc }
}

async function post(url: string, body: unknown): Promise<number> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const j = await r.json() as { taskUid: number }
  if (r.status !== 202) throw new Error(`${r.status} ${JSON.stringify(j)}`)
  return j.taskUid
}

async function applied(node: Node, uid: number): Promise<void> {
  const r = await fetch(`${node.url}/tasks/${uid}`, { headers: { 'x-tessera-after-task': String(uid) } })
  if (r.status !== 200) throw new Error(`task ${uid}: ${r.status} ${await r.text()}`)
}

const stop = (node: Node) => new Promise<void>((resolve) => { node.proc.once('exit', () => resolve()); node.proc.kill('SIGKILL') })
const ms = (v: number) => v.toFixed(1)

const dir = mkdtempSync(join(tmpdir(), 'tessera-apply-latency-'))
const nats = await startNats(3, join(dir, 'nats'))
const nodes: Node[] = []
try {
  for (let i = 0; i < 3; i++) nodes.push(await start(join(dir, `node-${i}`), nats.urls))
  await applied(nodes[0]!, await post(`${nodes[0]!.url}/indexes`, { uid: 'items', primaryKey: 'id' }))
  const times: number[] = []
  for (let i = 0; i < writes; i++) {
    const node = nodes[i % 3]!
    const t0 = performance.now()
    await applied(node, await post(`${node.url}/indexes/items/documents`, [{ id: i, title: `item ${i}` }]))
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  const mean = times.reduce((s, v) => s + v, 0) / times.length
  console.log(`${main}: ${writes} sequential one-document writes, sent to applied on the answering node: p50 ${ms(times[Math.floor(times.length / 2)]!)} ms, mean ${ms(mean)} ms, p90 ${ms(times[Math.floor(times.length * 0.9)]!)} ms`)

  if (catchup > 0) {
    await stop(nodes[2]!)
    let next = 0
    let last = 0
    const writer = async () => {
      while (next < catchup) {
        const id = 1_000_000 + next++
        last = Math.max(last, await post(`${nodes[0]!.url}/indexes/items/documents`, [{ id }]))
      }
    }
    await Promise.all(Array.from({ length: 8 }, writer))
    const t0 = performance.now()
    nodes[2] = await start(join(dir, 'node-2'), nats.urls)
    await applied(nodes[2], last)
    console.log(`catch-up of ${catchup} one-document tasks (restart included): ${ms((performance.now() - t0) / 1000)} s`)
  }
} finally {
  for (const node of nodes) if (node.proc.exitCode === null) await stop(node)
  await nats.stop()
  rmSync(dir, { recursive: true, force: true })
}
