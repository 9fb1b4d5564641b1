/**
 * `npm run bench -- --only cluster`: the cost of cluster mode (issue 25) on one machine. Four setups, each from
 * scratch: a single node without `--cluster`, one node over one nats-server (R1), three nodes over three clustered
 * nats-servers (R3). For each: ingestion docs/s (applied on every node), the `202` latency of one-document writes
 * (the quorum acknowledgement's cost is the difference with the single node), search QPS spread over the nodes, and
 * the time a node down for K tasks takes to catch up. Writes `cluster.json` and `cluster.md`. Skipped, saying so,
 * without nats-server. Nothing is asserted: on 2 cores three nodes are not expected to be faster.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Outcome, RunContext } from '../../harness/scenario.js'
import { natsServerPath } from '../../../src/cluster/nats-servers.js'
import { measureSetup, type SetupFigures } from './measure.js'
import type { ClusterBenchOptions } from './options.js'

export { DEFAULT_CLUSTER_OPTIONS, quickClusterOptions, type ClusterBenchOptions } from './options.js'

export async function runClusterScenario(options: ClusterBenchOptions, ctx: RunContext): Promise<Outcome> {
  const log = (s: string) => process.stderr.write(s + '\n')
  if (natsServerPath() === null) {
    return { markdown: '# Cluster\n\nSkipped: nats-server is not installed (sudo sh scripts/install-nats.sh).\n', json: '', md: '', failures: [], failureLabel: 'CLUSTER SCENARIO FAILED' }
  }
  try {
    const setups: SetupFigures[] = []
    for (const [nodes, cluster] of [[1, false], [1, true], [3, true]] as const) {
      await ctx.quiet.wait()
      setups.push(await measureSetup(nodes, cluster, mkdtempSync(join(ctx.dataParent, 'cluster-')), options, log))
    }
    const report = { benchmark: 'cluster', issue: 25, date: ctx.date, machine: ctx.machine, options, setups }
    mkdirSync(ctx.outDir, { recursive: true })
    const json = join(ctx.outDir, 'cluster.json')
    const md = join(ctx.outDir, 'cluster.md')
    const markdown = clusterMarkdown(ctx, options, setups)
    writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
    writeFileSync(md, markdown)
    return { markdown, json, md, failures: [], failureLabel: 'CLUSTER SCENARIO FAILED' }
  } catch (err) {
    return { markdown: `# Cluster\n\nFAILED: ${(err as Error).message}\n`, json: '', md: '', failures: [(err as Error).message], failureLabel: 'CLUSTER SCENARIO FAILED' }
  }
}

const f = (n: number, d = 1) => n.toFixed(d)
const int = (n: number) => Math.round(n).toLocaleString('en-US')

function clusterMarkdown(ctx: RunContext, o: ClusterBenchOptions, setups: SetupFigures[]): string {
  const single = setups[0]!
  return [
    '# Cluster', '',
    `${ctx.date} · ${ctx.machine.cpus} × ${ctx.machine.cpuModel} · every process on this machine · ${int(o.documents)} documents in tasks of ${o.batch}, ${o.clients} writers, ${o.clients * 2} searchers for ${o.searchSeconds} s, ${o.ackWrites} one-document writes for the latency, ${int(o.catchUpTasks)} tasks to catch up`, '',
    '| setup | ingestion (docs/s, on every node) | 202 p50 (ms) | 202 p99 (ms) | extra p50 over a single node (ms) | search QPS | catch-up of a node (s) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...setups.map((s) => `| ${s.setup} | ${int(s.ingestDocsPerSecond)} | ${f(s.ack.p50, 2)} | ${f(s.ack.p99, 2)} | ${s === single ? '–' : f(s.ack.p50 - single.ack.p50, 2)} | ${int(s.searchQps)} | ${s.catchUpSeconds === null ? '–' : f(s.catchUpSeconds, 1)} |`),
    '',
    'A cluster write answers once the stream stored the entry (R3: on two of three servers) and the answering node',
    'registered it; ingestion counts until the last task is applied on every node, each node indexing every document.',
    '',
  ].join('\n')
}
