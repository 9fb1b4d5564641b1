/**
 * `npm run cluster -- --nodes N --shards S` (src/cluster/run.ts, compiled): starts N nats-servers and N Tessera
 * nodes, prints their URLs, the nodes form one cluster and a sharded network, and Ctrl-C (SIGINT) stops every process
 * and removes the temporary data.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../src/cluster/nats-servers.js'
import { ROOT, call, nodeCommand } from '../helpers/server.js'
import { natsMissing } from './cluster.js'

t.setTimeout(600_000)

t.test('npm run cluster -- --nodes 2 --shards 2', { skip: natsMissing() }, async (t) => {
  const basePort = await freePort()
  // Without tap's process tracker, for the command and the nodes it starts (nodeCommand).
  const node = nodeCommand([join(ROOT, 'dist', 'src', 'cluster', 'run.js'), '--nodes', '2', '--base-port', String(basePort), '--shards', '2'])
  const proc = spawn(node.command, node.args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  t.teardown(async () => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL'); await exited })
  let out = ''
  proc.stderr!.resume()
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URLs within 120 s:\n${out}`)), 120_000)
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      if (/Ctrl-C stops them all/.test(out)) { clearTimeout(timer); resolve() }
    })
  })
  const urls = [...out.matchAll(/node-\d: (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1]!)
  t.same(urls, [`http://127.0.0.1:${basePort}`, `http://127.0.0.1:${basePort + 1}`])
  const dataDir = /data: (\S+)/.exec(out)?.[1]
  t.ok(dataDir && existsSync(dataDir), 'a temporary data directory')
  const task = await call(`${urls[0]}/indexes`, { method: 'POST', json: { uid: 'x' } })
  t.equal(task.status, 202)
  const index = await call(`${urls[1]}/indexes/x`, { headers: { 'x-tessera-after-task': String(task.body.taskUid) } })
  t.equal(index.status, 200, 'the second node applied what the first took')
  t.match(out, /sharded network: s1 on node-1, node-2; s2 on node-2, node-1/)
  const network = await call(`${urls[1]}/network`)
  t.equal(network.body.self, 'node-2', 'each node is named')
  t.same(network.body.shards, { s1: { remotes: ['node-1', 'node-2'] }, s2: { remotes: ['node-1', 'node-2'] } })
  proc.kill('SIGINT')
  t.equal(await exited, 0, 'Ctrl-C stops it')
  t.notOk(existsSync(dataDir!), 'and removes the temporary data')
  const gone = await fetch(urls[0]!).then(() => 'answering', () => 'stopped')
  t.equal(gone, 'stopped', 'the nodes are stopped')
})
