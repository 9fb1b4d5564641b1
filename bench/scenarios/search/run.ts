/**
 * One run of the search scenario (issue 4), against one fresh server (uws adapter) and data directory, or the
 * `--url` server:
 * 1. create the index (primary key `id`) and set its searchableAttributes; wait for both tasks;
 * 2. POST the documents as NDJSON (one payload, or a few sent concurrently for very large corpora), measure docs/s
 *    from the first byte sent until polling sees every task `succeeded`, the data directory's size on disk, and the
 *    server's RSS (sampled; VmHWM at the end of the run) (harness/indexing.ts);
 * 3. the latency rounds, one client (latency.ts);
 * 4. QPS with 1, 4, 16 and 64 concurrent clients (qps.ts);
 * 5. stop the server; time `Engine.search` in process on its data directory (in-process.ts);
 * 6. the peers (peers/) on the same documents and queries, each in its own process.
 */
import { dirname } from 'node:path'
import { performance } from 'node:perf_hooks'
import { diskUsage } from '../../harness/disk.js'
import { indexDocuments, notIndexed } from '../../harness/indexing.js'
import type { LoadResult } from '../../harness/load.js'
import { RssSampler, mib, readStatus } from '../../harness/memory.js'
import { progress } from '../../harness/progress.js'
import { call } from '../../harness/requests.js'
import { LARGE_PAYLOAD_SERVER_ARGS, remoteServer, startServer, unexpectedLogs, type BenchServer } from '../../harness/server.js'
import { expectTask, waitTask } from '../../harness/task-wait.js'
import { runPeers } from '../../peers/peers.js'
import { loadDataset } from './dataset.js'
import { measureInProcess } from './in-process.js'
import { measureLatency } from './latency.js'
import type { SearchOptions } from './options.js'
import { measureQps } from './qps.js'
import { buildQueryMix, byKind } from './queries.js'
import type { BenchQuery, DatasetInfo, SearchInProcess, SearchLatency, SearchMemory, SearchResult } from './types.js'
import type { SearchIndexing } from '../../harness/indexing.js'

/** `--quick` is a smoke run: a peer's search passes stop after 2 s once they have 100 queries (Orama took 40 s on 20,000 documents). */
const QUICK_PEER_SEARCH_BUDGET_MS = 2_000

const log = (text: string) => process.stderr.write(text)

/** The whole search scenario; failures of the service are reported in the result, not thrown. */
export async function runSearch(options: SearchOptions, dbPath: string): Promise<SearchResult> {
  const started = performance.now()
  const notes: string[] = []
  log(`bench: search, loading ${options.dataset ?? `a generated corpus of ${options.generatedDocuments} documents`} …`)
  const { info, documents } = loadDataset(options)
  log(` ${info.documents.toLocaleString('en-US')} documents (${info.format}${info.gzip ? ', gzip' : ''}) in ${info.loadSeconds.toFixed(1)} s; searchable: ${info.searchableAttributes.join(', ')}\n`)
  const mix = buildQueryMix(documents, info.searchableAttributes, options.queries, options.querySeed)
  // On a server of its own the index is `bench_search`; on a remote one, a uid of its own, deleted at the end.
  const uid = options.url === null ? 'bench_search' : `bench_search_${Date.now().toString(36)}`
  // --cpu-prof is not allowed in NODE_OPTIONS: a node flag. Worker threads write their own profiles too.
  const nodeArgs = options.serverCpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.serverCpuProfDir}`] : []
  const serverCpuProfile = options.serverCpuProfDir ?? undefined
  const server = options.url === null ? await startServer({ adapter: 'uws', dbPath, args: LARGE_PAYLOAD_SERVER_ARGS, nodeArgs }) : remoteServer(options.url, options.apiKey)
  if (server.remote) notes.push(`Measured over HTTP on ${options.url} (--url): the bench sees neither its process (no CPU or memory figures) nor its data directory (no size on disk, no in-process figures); index \`${uid}\` was deleted afterwards.`)
  const hitsByQuery = new Map<string, number>()
  let indexing = notIndexed(options.sampleMs, 'not run')
  let indexedAgain: SearchIndexing | null = null
  let http: { latency: SearchLatency; qpsSweep: LoadResult[] } | null = null
  const memory: SearchMemory = { hwmMiB: null, indexingPeakMiB: null, searchPeakMiB: null, idleMiB: null, afterSearchMiB: null }
  let serverLogTail: string | undefined
  try {
    memory.idleMiB = mib(readStatus(server.pid).rss)
    let setup: string | null = null
    try {
      await createIndex(server, uid, info, options)
    } catch (err) {
      setup = `index set-up failed: ${(err as Error).message}`
    }
    log(`bench: search, indexing ${info.documents.toLocaleString('en-US')} documents as NDJSON …`)
    indexing = setup === null ? await indexDocuments(server, uid, documents, options) : { ...indexing, error: setup }
    memory.indexingPeakMiB = Math.max(indexing.memory.peakUploadMiB ?? 0, indexing.memory.peakIndexingMiB ?? 0) || null
    if (indexing.ok) {
      log(` ${indexing.seconds!.toFixed(2)} s, ${Math.round(indexing.docsPerSecond!)} docs/s${indexing.indexBytes === null ? '' : `, ${(indexing.indexBytes / 1e6).toFixed(1)} MB on disk`}${memory.indexingPeakMiB === null ? '' : `, peak RSS ${memory.indexingPeakMiB.toFixed(0)} MiB`}\n`)
      if (indexing.numberOfDocuments !== info.documents) notes.push(`The index counts ${indexing.numberOfDocuments} documents, ${info.documents} were sent (duplicate ids?).`)
      http = await searchOverHttp(server, uid, mix, options, hitsByQuery, memory, notes)
    } else {
      log(` FAILED: ${indexing.error}\n`)
    }
    memory.hwmMiB = mib(readStatus(server.pid).hwm)
    if (!server.remote && indexing.ok) indexedAgain = await indexAgain(server, uid, documents, info, options)
    serverLogTail = unexpectedLogs(server.logs())
    if (!server.isRunning()) notes.push('The server exited during the run.')
  } finally {
    if (server.remote) {
      // Deleted, and waited for: the run leaves the server as it found it (best effort if it went away).
      try {
        const { status, body } = await call<{ taskUid?: number } | null>(server, 'DELETE', `/indexes/${uid}`, undefined, 30_000)
        if (status === 202 && typeof body?.taskUid === 'number') await waitTask(server, body.taskUid, options.taskTimeoutMs, options.pollMs)
      } catch { /* kept */ }
    }
    await server.stop({ keepData: true })
  }
  const closed = server.remote ? { allocated: null, apparent: null, index: null } : diskUsage(dbPath)
  indexing.diskBytesAfterShutdown = closed.allocated
  indexing.diskApparentBytesAfterShutdown = closed.apparent
  indexing.indexBytesAfterShutdown = closed.index

  let inProcess: SearchInProcess = { ok: false, rounds: options.inProcessRounds, samples: 0, ms: null, processingMs: null, openSeconds: null, note: 'skipped: indexing failed' }
  if (server.remote) {
    inProcess = { ...inProcess, note: 'skipped: a remote server (--url)' }
  } else if (indexing.ok) {
    log('bench: search, in process (Engine.open + Engine.search) …')
    inProcess = await measureInProcess(dbPath, uid, mix, options)
    log(inProcess.ok && inProcess.ms ? ` p50 ${inProcess.ms.p50.toFixed(3)} / p95 ${inProcess.ms.p95.toFixed(3)} / p99 ${inProcess.ms.p99.toFixed(3)} ms\n` : ` ${inProcess.note}\n`)
  }

  const peers = options.peers.length === 0 ? [] : await runPeers({
    peers: options.peers, documents, searchable: info.searchableAttributes, primaryKey: info.primaryKey, queries: mix.map((q) => q.q),
    rounds: options.inProcessRounds, scratchParent: dirname(dbPath), timeoutMs: options.taskTimeoutMs, log,
    ...(options.quick ? { searchBudgetMs: QUICK_PEER_SEARCH_BUDGET_MS } : {}),
  })

  if (options.dataset === null) {
    notes.push('The generated corpus draws its words uniformly from a vocabulary of about 420 words: each word occurs in about 10 % of the documents, so nearly every query has thousands of candidates to rank. A worst case for ranking, not a realistic corpus: use --corpus NAME (built by `npm run corpora`) or --dataset FILE for realistic figures.')
  }
  const byWords: Record<string, number> = {}
  for (const q of mix) byWords[String(q.words)] = (byWords[String(q.words)] ?? 0) + 1
  const qpsSweep = http?.qpsSweep ?? []
  return {
    options, serverArgs: LARGE_PAYLOAD_SERVER_ARGS, dataset: info, indexUid: uid, indexing, indexedAgain,
    queries: {
      count: mix.length, seed: options.querySeed, byKind: byKind((k) => mix.filter((q) => q.kind === k).length), byWords,
      examples: mix.slice(0, 20).map((q) => ({ ...q, hits: hitsByQuery.get(q.q) ?? null })),
      all: mix.map((q) => q.q),
    },
    latency: http?.latency ?? null, qps: qpsSweep.find((w) => w.connections === options.connections) ?? null, qpsSweep, inProcess, memory, peers,
    ...(serverCpuProfile ? { serverCpuProfile } : {}),
    ...(serverLogTail ? { serverLogTail } : {}),
    notes, totalSeconds: (performance.now() - started) / 1000,
  }
}

/** An index for the corpus: its primary key and searchable attributes. */
async function createIndex(server: BenchServer, uid: string, info: DatasetInfo, options: SearchOptions): Promise<void> {
  await expectTask(server, 'POST', '/indexes', { uid, primaryKey: info.primaryKey }, options.taskTimeoutMs, undefined, options.pollMs)
  await expectTask(server, 'PATCH', `/indexes/${uid}/settings`, { searchableAttributes: info.searchableAttributes }, options.taskTimeoutMs, undefined, options.pollMs)
}

/**
 * The documents indexed again on the same server, into an index of their own (deleted afterwards, so the disk
 * figures stay the first index's): the rate a server that has been running gets, its pool threads started and its
 * hot code compiled (a fresh server spends about a second of its two cores compiling on man pages).
 */
async function indexAgain(server: BenchServer, uid: string, documents: Record<string, unknown>[], info: DatasetInfo, options: SearchOptions): Promise<SearchIndexing> {
  const again = `${uid}_again`
  log(`bench: search, indexing the ${info.documents.toLocaleString('en-US')} documents again, into a second index …`)
  let result: SearchIndexing
  try {
    await createIndex(server, again, info, options)
    result = await indexDocuments(server, again, documents, options)
    await expectTask(server, 'DELETE', `/indexes/${again}`, undefined, options.taskTimeoutMs, undefined, options.pollMs)
  } catch (err) {
    result = notIndexed(options.sampleMs, `indexing again failed: ${(err as Error).message}`)
  }
  log(result.ok ? ` ${result.seconds!.toFixed(2)} s, ${Math.round(result.docsPerSecond!)} docs/s\n` : ` FAILED: ${result.error}\n`)
  return result
}

/**
 * Steps 3 and 4, once a first search answers 200 (otherwise a note says why they were skipped, and null): the
 * latency rounds and the QPS windows, with the server's RSS sampled throughout.
 */
async function searchOverHttp(server: BenchServer, uid: string, mix: BenchQuery[], options: SearchOptions, hitsByQuery: Map<string, number>, memory: SearchMemory, notes: string[]): Promise<{ latency: SearchLatency; qpsSweep: LoadResult[] } | null> {
  const bodies = mix.map((q) => JSON.stringify({ q: q.q }))
  const probe = await fetch(`${server.url}/indexes/${uid}/search`, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: bodies[0], signal: AbortSignal.timeout(60_000) })
  const probeText = await probe.text()
  if (probe.status !== 200) {
    notes.push(`HTTP search skipped: POST /indexes/${uid}/search answered ${probe.status}${probeText ? `: ${probeText.slice(0, 300)}` : ' with an empty body (no search route yet)'}.`)
    log(`bench: search, POST /indexes/${uid}/search answered ${probe.status}: HTTP latency and QPS skipped\n`)
    return null
  }
  const sampler = new RssSampler(server.pid, options.sampleMs)
  sampler.start()
  try {
    const bar = progress(`search, ${mix.length} queries: warm-up + ${options.rounds} rounds, one client`, mix.length * (options.rounds + 1))
    let replies = 0
    const latency = await measureLatency(server, uid, mix, bodies, options, hitsByQuery, () => bar.update(++replies))
    bar.done(`processingTimeMs p50 ${latency.serverMs.p50} / p95 ${latency.serverMs.p95} / p99 ${latency.serverMs.p99}; round trip p50 ${latency.clientMs.p50.toFixed(2)} / p95 ${latency.clientMs.p95.toFixed(2)} / p99 ${latency.clientMs.p99.toFixed(2)} ms${latency.error ? `; ${latency.error}` : ''}`)
    return { latency, qpsSweep: await measureQps(server, uid, bodies, options) }
  } finally {
    const m = sampler.stop()
    memory.searchPeakMiB = Math.max(m.peakUploadMiB ?? 0, m.peakIndexingMiB ?? 0) || null
    memory.afterSearchMiB = mib(readStatus(server.pid).rss)
  }
}
