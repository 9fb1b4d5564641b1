/**
 * One run of the filters, facets and sort scenario (issue 5): a generated corpus with ten faceted attributes
 * (corpus.ts), then, for each case (cases.ts), the latency of its searches in process and over HTTP.
 *
 * Steps, against one fresh server (uws adapter) and data directory:
 * 1. create the index and its settings, index the corpus as NDJSON (docs/s, as the search scenario measures it);
 * 2. over HTTP, each case: one warm-up pass over its variants, then `rounds` passes, one keep-alive client
 *    (round trip and the replies' `processingTimeMs`);
 * 3. stop the server, open the data directory in process (`Engine.open`); the first filtered search builds the
 *    facet index from the stored documents (timed: the cost of a start), then each case as over HTTP, timed with
 *    performance.now() (the precise figure: `processingTimeMs` is whole milliseconds).
 */
import { performance } from 'node:perf_hooks'
import type { Reply } from '../../harness/clients.js'
import { openInProcess } from '../../harness/in-process.js'
import { indexDocuments, notIndexed, type SearchIndexing } from '../../harness/indexing.js'
import { summarize, type LatencySummary } from '../../harness/latency.js'
import { runLoad } from '../../harness/load.js'
import { readStatus } from '../../harness/memory.js'
import { progress } from '../../harness/progress.js'
import { LARGE_PAYLOAD_SERVER_ARGS, startServer, unexpectedLogs, type BenchServer } from '../../harness/server.js'
import { expectTask } from '../../harness/task-wait.js'
import { facetsCases, queryWords, type FacetsCase } from './cases.js'
import { FACET_ATTRIBUTES, SORTABLE_ATTRIBUTES, generateFacetDocuments } from './corpus.js'

export interface FacetsOptions {
  documents: number
  seed: number
  /** Passes over each case's variants, after one warm-up pass. */
  rounds: number
  payloadDocuments: number
  pollMs: number
  sampleMs: number
  taskTimeoutMs: number
  quick: boolean
}

export const DEFAULT_FACETS_OPTIONS: FacetsOptions = {
  documents: 200_000, seed: 0xfacE75, rounds: 20, payloadDocuments: 100_000, pollMs: 20, sampleMs: 50, taskTimeoutMs: 600_000, quick: false,
}

/** `--quick`: 20,000 documents, 5 rounds. */
export function quickFacetsOptions(options: FacetsOptions): FacetsOptions {
  return { ...options, documents: 20_000, rounds: 5, quick: true }
}

export interface FacetsCaseResult {
  id: string
  description: string
  variants: number
  /** The request bodies it cycles through. */
  requests: Record<string, unknown>[]
  /** Mean `estimatedTotalHits` of the warm-up replies. */
  meanHits: number | null
  /** The smallest and largest of them. */
  hitsRange: [number, number] | null
  http: { samples: number; clientMs: LatencySummary; serverMs: LatencySummary; errors: number; error?: string } | null
  inProcess: { samples: number; ms: LatencySummary } | null
}

export interface FacetsResult {
  options: FacetsOptions
  documents: number
  filterable: string[]
  sortable: string[]
  indexing: SearchIndexing
  /** Engine.open on the closed data directory, seconds. */
  openSeconds: number | null
  /** The first search after the open: it builds the facet index from the stored documents, seconds. */
  facetIndexBuildSeconds: number | null
  cases: FacetsCaseResult[]
  peakRssMiB: number | null
  notes: string[]
  serverLogTail?: string
  totalSeconds: number
}

const log = (text: string) => process.stderr.write(text)
const UID = 'bench_facets'

interface Hits { estimatedTotalHits?: number; totalHits?: number; processingTimeMs?: number }

async function measureHttp(server: BenchServer, c: FacetsCase, rounds: number, hits: number[]): Promise<NonNullable<FacetsCaseResult['http']>> {
  const bodies = c.variants.map((v) => JSON.stringify(v))
  const path = `/indexes/${UID}/search`
  let firstError: string | undefined
  const check = (reply: Reply, onOk: (v: Hits) => void) => {
    if (reply.status !== 200) { firstError ??= `${reply.status} ${reply.body.slice(0, 200)}`; return false }
    onOk(JSON.parse(reply.body) as Hits)
    return true
  }
  const common = { host: server.host, port: server.port, connections: 1, warmupMs: 0, durationMs: 3_600_000, client: 'raw' as const }
  const warm = await runLoad({
    ...common, maxRequests: bodies.length, request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (r) => check(r, (v) => hits.push(v.estimatedTotalHits ?? v.totalHits ?? 0)),
  })
  const processing: number[] = []
  const measured = await runLoad({
    ...common, maxRequests: bodies.length * rounds, request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (r) => check(r, (v) => { if (typeof v.processingTimeMs === 'number') processing.push(v.processingTimeMs) }),
  })
  return {
    samples: measured.ok, clientMs: measured.latencyMs, serverMs: summarize(processing), errors: warm.errors + measured.errors,
    ...(firstError ? { error: firstError } : {}),
  }
}

async function measureInProcess(dbPath: string, cases: FacetsCase[], rounds: number, result: FacetsResult): Promise<Map<string, LatencySummary>> {
  const out = new Map<string, LatencySummary>()
  const { search, parseSearchBody, openSeconds, close } = await openInProcess(dbPath)
  try {
    result.openSeconds = openSeconds
    const t1 = performance.now()
    await search(UID, parseSearchBody({ filter: 'published = true', limit: 0 }))
    result.facetIndexBuildSeconds = (performance.now() - t1) / 1000
    for (const c of cases) {
      const queries = c.variants.map((v) => parseSearchBody(v))
      for (const query of queries) await search(UID, query)
      const times: number[] = []
      for (let r = 0; r < rounds; r++) {
        for (const query of queries) {
          const t = performance.now()
          await search(UID, query)
          times.push(performance.now() - t)
        }
      }
      out.set(c.id, summarize(times))
    }
  } finally {
    await close()
  }
  return out
}


/** The whole scenario; failures of the service are reported in the result, not thrown. */
export async function runFacets(options: FacetsOptions, dbPath: string): Promise<FacetsResult> {
  const started = performance.now()
  const docs = [...generateFacetDocuments(options.documents, options.seed)]
  const cases = facetsCases(queryWords(docs))
  const result: FacetsResult = {
    options, documents: docs.length, filterable: FACET_ATTRIBUTES, sortable: SORTABLE_ATTRIBUTES,
    indexing: notIndexed(options.sampleMs, 'not run'), openSeconds: null, facetIndexBuildSeconds: null,
    cases: cases.map((c) => ({ id: c.id, description: c.description, variants: c.variants.length, requests: c.variants, meanHits: null, hitsRange: null, http: null, inProcess: null })),
    peakRssMiB: null, notes: [], totalSeconds: 0,
  }
  const server = await startServer({ adapter: 'uws', dbPath, args: LARGE_PAYLOAD_SERVER_ARGS })
  try {
    await expectTask(server, 'POST', '/indexes', { uid: UID, primaryKey: 'id' }, options.taskTimeoutMs, undefined, options.pollMs)
    await expectTask(server, 'PATCH', `/indexes/${UID}/settings`, {
      searchableAttributes: ['title', 'description', 'tags'], filterableAttributes: FACET_ATTRIBUTES, sortableAttributes: SORTABLE_ATTRIBUTES,
    }, options.taskTimeoutMs, undefined, options.pollMs)
    log(`bench: facets, indexing ${docs.length.toLocaleString('en-US')} documents with ${FACET_ATTRIBUTES.length} faceted attributes …`)
    result.indexing = await indexDocuments(server, UID, docs, options)
    const ix = result.indexing
    log(ix.ok ? ` ${ix.seconds!.toFixed(2)} s, ${Math.round(ix.docsPerSecond!)} docs/s\n` : ` FAILED: ${ix.error}\n`)
    if (ix.ok) {
      const bar = progress(`facets, ${cases.length} cases over HTTP`, cases.length)
      for (const [i, c] of cases.entries()) {
        bar.update(i, c.id)
        const hits: number[] = []
        const http = await measureHttp(server, c, options.rounds, hits)
        const r = result.cases[i]!
        r.http = http
        r.meanHits = hits.length > 0 ? hits.reduce((a, b) => a + b, 0) / hits.length : null
        r.hitsRange = hits.length > 0 ? [Math.min(...hits), Math.max(...hits)] : null
        bar.log(`bench: facets, ${c.id} over HTTP: round trip p50 ${http.clientMs.p50.toFixed(2)} / p99 ${http.clientMs.p99.toFixed(2)} ms, ${Math.round(r.meanHits ?? 0)} hits${http.error ? `; FAILED: ${http.error}` : ''}`)
        bar.update(i + 1)
      }
      bar.done()
    }
    result.peakRssMiB = (readStatus(server.pid).hwm ?? 0) / 1024 || null
    result.serverLogTail = unexpectedLogs(server.logs())
    if (!server.isRunning()) result.notes.push('The server exited during the run.')
  } catch (err) {
    result.notes.push(`set-up failed: ${(err as Error).message}`)
  } finally {
    await server.stop({ keepData: true })
  }
  if (result.indexing.ok) {
    log('bench: facets, in process (Engine.open + Engine.search) …')
    try {
      const inProcess = await measureInProcess(dbPath, cases, options.rounds, result)
      for (const r of result.cases) {
        const ms = inProcess.get(r.id)
        if (ms) r.inProcess = { samples: options.rounds * r.variants, ms }
      }
      log(` facet index built in ${result.facetIndexBuildSeconds!.toFixed(2)} s after the open\n`)
    } catch (err) {
      result.notes.push(`in process: failed: ${(err as Error).message}`)
      log(` FAILED: ${(err as Error).message}\n`)
    }
  }
  result.totalSeconds = (performance.now() - started) / 1000
  return result
}

/** Whether the run failed (the service, not the figures). */
export function facetsFailures(r: FacetsResult): string[] {
  return [
    ...(r.indexing.ok ? [] : [`indexing: ${r.indexing.error}`]),
    ...r.cases.flatMap((c) => (c.http && (c.http.errors > 0 || c.http.error) ? [`${c.id}: ${c.http.error ?? `${c.http.errors} errors`}`] : [])),
    ...r.notes.filter((n) => n.includes('failed') || n.includes('exited')),
  ]
}
