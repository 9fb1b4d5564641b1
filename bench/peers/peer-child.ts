/**
 * One peer of the search benchmark, in its own process so that its memory is its own: reads the corpus (NDJSON)
 * and the queries (JSON) the parent wrote, indexes the searchable fields (in batches of `batch` documents, one
 * transaction each for FTS5), runs the queries (one warm-up round, then `rounds`), and prints one JSON line
 * (PeerMeasure) on stdout.
 *
 *   node dist/bench/peers/peer-child.js <peer> <corpus.ndjson> <queries.json> <searchable,fields> <primaryKey> <rounds> <scratch dir> [batch]
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { summarize } from '../harness/latency.js'
import { readStatus } from '../harness/memory.js'
import { engineFor } from './engines.js'
import { DEFAULT_PEER_SEARCH_BUDGET_MS, PEERS, PEER_PACKAGES, peerVersion, type PeerMeasure, type PeerName } from './peers.js'

type Doc = Record<string, unknown>

/** This process's VmRSS or VmHWM in MiB (0 where /proc is unavailable). */
const ownMiB = (field: 'rss' | 'hwm'): number => (readStatus(process.pid)[field] ?? 0) / 1024

const MIN_SAMPLES = 100

async function main(): Promise<void> {
  const [peer, corpusFile, queriesFile, fieldList, primaryKey, roundsText, scratch, batchText = '10000', budgetText = String(DEFAULT_PEER_SEARCH_BUDGET_MS)] = process.argv.slice(2)
  const batch = Number(batchText)
  const searchBudgetMs = Number(budgetText)
  if (!PEERS.includes(peer as PeerName) || !corpusFile || !queriesFile || !fieldList || !primaryKey || !roundsText || !scratch || !(batch >= 1) || !(searchBudgetMs >= 0)) {
    throw new Error('usage: peer-child <peer> <corpus.ndjson> <queries.json> <fields> <primaryKey> <rounds> <scratch dir> [batch] [search budget ms]')
  }
  const docs = readFileSync(corpusFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Doc)
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as string[]
  const fields = fieldList.split(',')
  const baselineMiB = ownMiB('rss')
  const engine = await engineFor(peer as PeerName, fields, primaryKey, scratch)
  const t0 = performance.now()
  for (let i = 0; i < docs.length; i += batch) await engine.add(docs.slice(i, i + batch))
  const indexSeconds = (performance.now() - t0) / 1000
  // The warm-up pass also counts results; bounded like the measured rounds (a peer that needs seconds per query on
  // a large corpus is reported on the queries it got through: `warmupQueries`).
  let returned = 0
  let zeroHits = 0
  let warmupQueries = 0
  const warming = performance.now()
  for (const q of queries) {
    const n = await engine.search(q)
    returned += n
    if (n === 0) zeroHits++
    if (++warmupQueries >= MIN_SAMPLES && performance.now() - warming > searchBudgetMs) break
  }
  // Measured rounds, bounded in time: a slow peer (hundreds of ms a query on a large corpus) stops once it has
  // spent searchBudgetMs measuring and has at least MIN_SAMPLES samples (the mix is in random order, so its first
  // queries are a fair sample of it).
  const times: number[] = []
  const started = performance.now()
  measuring: for (let r = 0; r < Number(roundsText); r++) {
    for (const q of queries) {
      const t = performance.now()
      await engine.search(q)
      times.push(performance.now() - t)
      if (times.length >= MIN_SAMPLES && performance.now() - started > searchBudgetMs) break measuring
    }
  }
  const measure: PeerMeasure = {
    peer: peer as PeerName, version: peerVersion(PEER_PACKAGES[peer as PeerName]), documents: docs.length, indexSeconds, docsPerSecond: docs.length / indexSeconds,
    search: summarize(times), samples: times.length, meanReturned: returned / Math.max(1, warmupQueries), zeroHits, warmupQueries, baselineMiB, peakMiB: ownMiB('hwm'),
  }
  process.stdout.write(JSON.stringify(measure) + '\n')
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exit(1) })
