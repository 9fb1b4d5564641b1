/**
 * Cluster mode's start-up refusals: unreachable NATS servers, a database holding tasks of its own, a database of
 * another stream. Each stops the node with a message instead of running on a log it cannot follow.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../src/cluster/nats-servers.js'
import { call, startServer, tempDir } from '../helpers/server.js'
import { clusterFor, natsMissing } from './cluster.js'

// Several nats-server and Tessera processes on a shared 2-core machine: more than the default 120 s per file.
t.setTimeout(600_000)

t.test('unreachable NATS servers stop the start-up', async (t) => {
  const dbPath = tempDir()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  const port = await freePort()
  await t.rejects(startServer({ dbPath, args: ['--cluster', '--cluster-nats', `nats://127.0.0.1:${port}`] }), /exited during start-up[\s\S]*(CONNECTION_REFUSED|ECONNREFUSED|connect)/i)
})

t.test('a database with tasks of its own, or of another stream, does not join', { skip: natsMissing() }, async (t) => {
  const cluster = await clusterFor(t, { natsServers: 1, nodes: 0 })
  const cluster_ = ['--cluster', '--cluster-nats', cluster.nats.urls[0]!]
  const single = join(cluster.dir, 'single')
  const alone = await startServer({ dbPath: single })
  t.equal((await call(`${alone.url}/indexes`, { method: 'POST', json: { uid: 'x' } })).status, 202)
  await alone.stop()
  await t.rejects(startServer({ dbPath: single, args: cluster_ }), /already holds 1 task\(s\) registered outside the cluster/)

  const member = join(cluster.dir, 'member')
  const node = await startServer({ dbPath: member, args: cluster_ })
  await node.stop()
  await t.rejects(startServer({ dbPath: member, args: [...cluster_, '--cluster-stream', 'other'] }), /applies the task log tessera, not other/)
})
