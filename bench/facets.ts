/**
 * The filters, facets and sort benchmark (issue 5): a generated corpus with ten faceted attributes, then, for each
 * case below, the latency of its searches (in process with `Engine.search`, and over HTTP with one client).
 *
 * Corpus: the documents benchmark's documents (corpus.ts: title, description, price, stock, tags, published) with
 * six more attributes drawn from a second seeded generator: `brand` (Zipf over 1,000 values, so a tail brand
 * is rare), `category` (Zipf over 40), `color` (16, uniform), `rating` (1.0–5.0 in tenths), `year` (1990–2025) and
 * the nested `seller.country` (Zipf over 60). The ten filterable attributes are those six and price, stock, tags,
 * published; price, rating and year are sortable too.
 *
 * Cases (each cycles through several variants of its request, so that no single value is measured):
 * - `filter-selective`: a tail brand and a year range (well under 1 % of the documents), without and with `q`;
 * - `filter-broad`: `published = true AND price > N` (about two thirds of them), without and with `q`;
 * - `filter-complex`: `IN`, `OR`, `NOT`, `!=` on a nested field together;
 * - `facets`: `facetDistribution` and `facetStats` of all ten attributes, without `q`, with `q`, with a broad filter;
 * - `sort`: `price:asc`/`rating:desc`, without `q`, with `q`, with a broad filter.
 *
 * Steps, against one fresh server (uws adapter) and data directory:
 * 1. create the index and its settings, index the corpus as NDJSON (docs/s, as the search benchmark measures it);
 * 2. over HTTP, each case: one warm-up pass over its variants, then `rounds` passes, one keep-alive client
 *    (round trip and the replies' `processingTimeMs`);
 * 3. stop the server, open the data directory in process (`Engine.open`); the first filtered search builds the
 *    facet index from the stored documents (timed: the cost of a start), then each case as over HTTP, timed with
 *    performance.now() (the precise figure: `processingTimeMs` is whole milliseconds).
 */
import { performance } from 'node:perf_hooks'
import { progress } from './progress.js'
import { generateDocuments, mulberry32, zipf } from './corpus.js'
import { DOCUMENTS_SERVER_ARGS, readStatus } from './documents.js'
import { runLoad, summarize, type LatencySummary, type Reply } from './load.js'
import { startServer } from './server.js'
import { documentsOptions, expectTask, indexDocuments, notIndexed, openInProcess, unexpectedLogs, type SearchIndexing } from './search.js'

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

export const FACET_ATTRIBUTES = ['brand', 'category', 'color', 'rating', 'year', 'seller.country', 'price', 'stock', 'tags', 'published']
export const SORTABLE_ATTRIBUTES = ['price', 'rating', 'year']

const COLORS = ['red', 'blue', 'green', 'black', 'white', 'grey', 'yellow', 'orange', 'purple', 'pink', 'brown', 'navy', 'teal', 'olive', 'maroon', 'silver']
const COUNTRIES = Array.from({ length: 60 }, (_, i) => (i === 0 ? 'US' : i === 1 ? 'DE' : i === 2 ? 'FR' : `C${String(i).padStart(2, '0')}`))

/** The corpus: the same documents for the same count and seed. */
export function* generateFacetDocuments(count: number, seed: number): Generator<Record<string, unknown>> {
  const rand = mulberry32(seed)
  const brand = zipf(1000, 1.1, rand)
  const category = zipf(40, 0.8, rand)
  const country = zipf(60, 1.0, rand)
  for (const doc of generateDocuments(count, seed ^ 0x5eed)) {
    yield {
      ...doc,
      brand: `brand-${brand()}`,
      category: `category-${category()}`,
      color: COLORS[Math.floor(rand() * COLORS.length)]!,
      rating: Math.round(10 + rand() * 40) / 10,
      year: 1990 + Math.floor(rand() * 36),
      seller: { country: COUNTRIES[country()]!, since: 2000 + Math.floor(rand() * 26) },
    }
  }
}

export interface FacetsCase {
  id: string
  description: string
  /** The request bodies the case cycles through. */
  variants: Record<string, unknown>[]
}

/** The cases, with `words` for the keyword variants (common words of the corpus). */
export function facetsCases(words: string[]): FacetsCase[] {
  const q = (i: number) => words[i % words.length]!
  const selective = (i: number) => `brand = "brand-${20 + 10 * i}" AND year >= ${2000 + i}`
  const broad = (i: number) => `published = true AND price > ${10 + 10 * i}`
  const range = (n: number) => Array.from({ length: n }, (_, i) => i)
  return [
    { id: 'filter-selective', description: 'a tail brand and a year range, placeholder', variants: range(10).map((i) => ({ filter: selective(i) })) },
    { id: 'filter-selective-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), filter: selective(i) })) },
    { id: 'filter-broad', description: '`published = true AND price > N`, placeholder', variants: range(10).map((i) => ({ filter: broad(i) })) },
    { id: 'filter-broad-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), filter: broad(i) })) },
    {
      id: 'filter-complex', description: '`IN`, `OR`, `NOT`, `!=` on a nested field, with one query word',
      variants: range(10).map((i) => ({ q: q(i), filter: `(color IN [${COLORS[i]}, ${COLORS[i + 1]}] OR rating >= ${4 + i / 20}) AND seller.country != US AND NOT tags = sale` })),
    },
    { id: 'facets', description: 'distribution and stats of the 10 attributes, placeholder', variants: range(4).map((i) => ({ facets: FACET_ATTRIBUTES, limit: 20 + i })) },
    { id: 'facets-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), facets: FACET_ATTRIBUTES })) },
    { id: 'facets-filtered', description: 'the same under the broad filter, placeholder', variants: range(10).map((i) => ({ filter: broad(i), facets: FACET_ATTRIBUTES })) },
    { id: 'sort', description: '`price:asc` or `rating:desc`, placeholder', variants: range(4).map((i) => ({ sort: [i % 2 === 0 ? 'price:asc' : 'rating:desc'], offset: 10 * i })) },
    { id: 'sort-q', description: 'the same with one query word', variants: range(10).map((i) => ({ q: q(i), sort: [i % 2 === 0 ? 'price:asc' : 'rating:desc'] })) },
    { id: 'sort-filtered', description: '`price:asc` under the broad filter, placeholder', variants: range(10).map((i) => ({ filter: broad(i), sort: ['price:asc'] })) },
  ]
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

async function measureHttp(server: Awaited<ReturnType<typeof startServer>>, c: FacetsCase, rounds: number, hits: number[]): Promise<NonNullable<FacetsCaseResult['http']>> {
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

/** The words of the first documents' titles, for the keyword variants. */
function queryWords(docs: Record<string, unknown>[]): string[] {
  const words = new Set<string>()
  for (const doc of docs.slice(0, 40)) for (const w of String(doc.title).toLowerCase().match(/\p{L}+/gu) ?? []) if (w.length >= 4) words.add(w)
  return [...words].slice(0, 20)
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
  const server = await startServer({ adapter: 'uws', dbPath, args: DOCUMENTS_SERVER_ARGS })
  try {
    const dopts = documentsOptions(options)
    await expectTask(server, 'POST', '/indexes', { uid: UID, primaryKey: 'id' }, dopts)
    await expectTask(server, 'PATCH', `/indexes/${UID}/settings`, {
      searchableAttributes: ['title', 'description', 'tags'], filterableAttributes: FACET_ATTRIBUTES, sortableAttributes: SORTABLE_ATTRIBUTES,
    }, dopts)
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
