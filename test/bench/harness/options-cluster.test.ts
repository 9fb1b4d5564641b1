/** The cluster scenario runs only when named (it needs nats-server and starts several servers); --quick shrinks it. */
import t from 'tap'
import { parseOptions } from '../../../bench/harness/options.js'
import { DEFAULT_CLUSTER_OPTIONS, quickClusterOptions } from '../../../bench/scenarios/cluster/options.js'

t.test('cluster is left out by default and runs with --only', async (t) => {
  t.notOk(parseOptions([]).kinds.includes('cluster'))
  t.same(parseOptions(['--only', 'cluster']).kinds, ['cluster'])
  t.same(parseOptions(['--only', 'cluster']).cluster, DEFAULT_CLUSTER_OPTIONS)
  t.same(parseOptions(['--only', 'cluster', '--quick']).cluster, quickClusterOptions())
})
