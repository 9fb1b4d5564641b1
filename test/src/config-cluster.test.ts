/** `--cluster` and its options: off by default, defaults, the env variables, and refused values. */
import t from 'tap'
import { ConfigError, parseArgs, type Config } from '../../src/config.js'

const run = (argv: string[], env: NodeJS.ProcessEnv = {}): Config => {
  const parsed = parseArgs(argv, env)
  if (parsed.kind !== 'run') throw new Error('not a run')
  return parsed.config
}

t.test('off by default', async (t) => {
  t.equal(run([]).cluster, null)
  t.equal(run(['--cluster-nats', 'nats://x:1']).cluster, null, 'its options alone do not turn it on')
})

t.test('--cluster with defaults, flags and env', async (t) => {
  t.same(run(['--cluster']).cluster, { servers: ['nats://127.0.0.1:4222'], stream: 'tessera', replicas: undefined, readWaitMs: 10_000 })
  t.same(run(['--cluster', '--cluster-nats', 'nats://a:1, nats://b:2,nats://c:3', '--cluster-stream', 'shop_1', '--cluster-replicas', '1', '--cluster-read-timeout-seconds', '2.5']).cluster,
    { servers: ['nats://a:1', 'nats://b:2', 'nats://c:3'], stream: 'shop_1', replicas: 1, readWaitMs: 2_500 })
  t.same(run([], { TESSERA_CLUSTER: 'true', TESSERA_CLUSTER_STREAM: 'env-stream' }).cluster?.stream, 'env-stream')
  t.equal(run(['--cluster'], { TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS: '3000' }).cluster?.publishDeadlineMs, 3000, 'the publish deadline, env only')
})

t.test('refused values', async (t) => {
  t.throws(() => run(['--cluster', '--cluster-stream', 'a.b']), new ConfigError('invalid --cluster-stream `a.b`: expected 1 to 64 letters, digits, - or _'))
  t.throws(() => run(['--cluster', '--cluster-nats', ' , ']), /invalid --cluster-nats/)
  t.throws(() => run(['--cluster', '--cluster-replicas', '7']), /JetStream allows at most 5/)
  t.throws(() => run(['--cluster', '--cluster-replicas', '0']), /whole number from 1/)
  t.throws(() => run(['--cluster', '--cluster-read-timeout-seconds', '0']), /above 0/)
  t.throws(() => run(['--cluster'], { TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS: '0' }), /invalid TESSERA_EXPERIMENTAL_CLUSTER_PUBLISH_DEADLINE_MS `0`/)
  t.throws(() => run(['--cluster', '--import-dump', 'x.dump']), /cannot import a dump/)
  t.equal(run(['--cluster', '--import-snapshot', 'x.snapshot']).importSnapshot, 'x.snapshot', 'a snapshot bootstraps a new node')
})
