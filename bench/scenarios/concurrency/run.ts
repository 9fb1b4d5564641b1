/**
 * The concurrency scenario (issue 18): searches on a small index, one after another from one client, first on an
 * idle server, then while another index of the same server ingests a large payload. The target: p99 while
 * ingesting within 2× of the idle p99. One client and one request in flight measure what a user sees when a
 * large batch runs elsewhere (a stalled thread shows as the tail), not the server's throughput.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { mulberry32 } from '../../data/random.js'
import { CORPORA, resolveCorpus, type CorpusName } from '../../data/corpora/registry.js'
import { generateShortDocuments } from '../../data/short-corpus.js'
import { generateDocuments } from '../../data/uniform-corpus.js'
import { rawConnection, type Connection } from '../../harness/clients.js'
import { createIndex, patchSettings } from '../../harness/index-api.js'
import { summarize, type LatencySummary } from '../../harness/latency.js'
import { call, postPayload } from '../../harness/requests.js'
import { waitTask } from '../../harness/task-wait.js'
import type { Target } from '../../harness/target.js'
import { SEARCH_TIMEOUT_MS, TASK_TIMEOUT_MS, type ConcurrencyOptions } from './options.js'

export interface SearchWindow {
  searches: number
  errors: number
  seconds: number
  searchesPerSecond: number
  ms: LatencySummary
}

export interface ConcurrencyResult {
  options: ConcurrencyOptions
  /** What was ingested while searching: a corpus name, or `generated`. */
  ingested: string
  ingestedDocuments: number
  ingestedBytes: number
  idle: SearchWindow
  ingesting: SearchWindow
  /** Seconds from the payload's first byte to its task's success, and the documents per second that makes. */
  ingestSeconds: number
  ingestDocsPerSecond: number
  /** Ingesting p99 ÷ idle p99 (target ≤ 2). */
  p99Ratio: number
  errors: string[]
}

/** The payload ingested while searching: a built corpus's NDJSON file as it is, or generated documents. */
function ingestPayload(o: ConcurrencyOptions): { name: string; body: Buffer; documents: number; searchable: string[] | null } {
  if (o.ingestCorpus !== null) {
    try {
      const corpus = resolveCorpus(o.ingestCorpus)
      if (!corpus.path.endsWith('.ndjson')) throw new Error(`corpus \`${corpus.name}\` is not NDJSON`)
      const body = readFileSync(corpus.path)
      let documents = 0
      for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) documents++
      return { name: corpus.name, body, documents, searchable: (CORPORA[corpus.name as CorpusName] as { searchable: string[] | null }).searchable }
    } catch (err) {
      process.stderr.write(`bench: concurrency: ${(err as Error).message}; ingesting ${o.ingestGenerated.toLocaleString('en-US')} generated documents instead\n`)
    }
  }
  const lines: string[] = []
  for (const doc of generateDocuments(o.ingestGenerated)) lines.push(JSON.stringify(doc))
  return { name: 'generated', body: Buffer.from(lines.join('\n') + '\n'), documents: o.ingestGenerated, searchable: null }
}

/** One- and two-word queries drawn from the small index's summaries (seeded). */
function queryMix(o: ConcurrencyOptions): string[] {
  const summaries = [...generateShortDocuments(o.smallDocuments)].map((d) => d.summary.split(' '))
  const rand = mulberry32(o.seed)
  const out: string[] = []
  for (let k = 0; k < o.queries; k++) {
    const words = summaries[Math.floor(rand() * summaries.length)]!
    const at = Math.floor(rand() * words.length)
    out.push(k % 2 === 0 || at + 1 >= words.length ? words[at]! : `${words[at]} ${words[at + 1]}`)
  }
  return out
}

/** Searches one after another until `done()` (checked between searches). */
async function searchWhile(conn: Connection, uid: string, queries: string[], done: () => boolean): Promise<SearchWindow> {
  const latencies: number[] = []
  let errors = 0
  const t0 = performance.now()
  for (let k = 0; !done(); k++) {
    const body = JSON.stringify({ q: queries[k % queries.length], limit: 20 })
    const start = performance.now()
    const reply = await conn.send({ method: 'POST', path: `/indexes/${uid}/search`, body })
    if (reply.status === 200) latencies.push(performance.now() - start)
    else errors++
  }
  const seconds = (performance.now() - t0) / 1000
  return { searches: latencies.length, errors, seconds, searchesPerSecond: latencies.length / seconds, ms: summarize(latencies) }
}

export async function runConcurrency(o: ConcurrencyOptions, open: (part: string) => Promise<Target>): Promise<ConcurrencyResult> {
  const payload = ingestPayload(o)
  const queries = queryMix(o)
  const target = await open('run')
  const errors: string[] = []
  try {
    const small = target.indexUid('small')
    const large = target.indexUid('large')
    await createIndex(target, small, TASK_TIMEOUT_MS)
    await patchSettings(target, small, { searchableAttributes: ['name', 'summary'] }, TASK_TIMEOUT_MS)
    const smallBody = Buffer.from([...generateShortDocuments(o.smallDocuments)].map((d) => JSON.stringify(d)).join('\n') + '\n')
    const { hostname: host, port } = new URL(target.url)
    const endpoint = { ...target, host, port: Number(port) }
    const posted = await postPayload(endpoint, `/indexes/${small}/documents`, 'application/x-ndjson', smallBody, smallBody.length, SEARCH_TIMEOUT_MS)
    const smallTask = await waitTask(target, JSON.parse(posted.text).taskUid, TASK_TIMEOUT_MS)
    if (smallTask.status !== 'succeeded') throw new Error(`small index: task ${smallTask.status}: ${JSON.stringify(smallTask.error)}`)
    await createIndex(target, large, TASK_TIMEOUT_MS)
    if (payload.searchable) await patchSettings(target, large, { searchableAttributes: payload.searchable }, TASK_TIMEOUT_MS)

    const conn = rawConnection(host, Number(port), target.headers)
    try {
      // Warm-up, then the idle window.
      let until = performance.now() + 1000
      await searchWhile(conn, small, queries, () => performance.now() >= until)
      until = performance.now() + o.idleSeconds * 1000
      const idle = await searchWhile(conn, small, queries, () => performance.now() >= until)

      // The ingesting window: from the payload's first byte until its task has ended.
      let ended = false
      const t0 = performance.now()
      const ingest = (async () => {
        const reply = await postPayload(endpoint, `/indexes/${large}/documents`, 'application/x-ndjson', payload.body, payload.body.length, TASK_TIMEOUT_MS)
        if (reply.status !== 202) throw new Error(`ingest: HTTP ${reply.status}: ${reply.text.slice(0, 200)}`)
        const task = await waitTask(target, JSON.parse(reply.text).taskUid, TASK_TIMEOUT_MS, 50)
        if (task.status !== 'succeeded') throw new Error(`ingest: task ${task.status}: ${JSON.stringify(task.error)}`)
        return (performance.now() - t0) / 1000
      })().finally(() => { ended = true })
      const ingesting = await searchWhile(conn, small, queries, () => ended)
      const ingestSeconds = await ingest
      if (idle.errors + ingesting.errors > 0) errors.push(`${idle.errors + ingesting.errors} search(es) failed`)
      const { status, body } = await call(target, 'GET', `/indexes/${large}/stats`, undefined, SEARCH_TIMEOUT_MS)
      if (status !== 200 || body?.numberOfDocuments !== payload.documents) errors.push(`the ingested index counts ${body?.numberOfDocuments} documents, ${payload.documents} were sent`)
      return {
        options: o, ingested: payload.name, ingestedDocuments: payload.documents, ingestedBytes: payload.body.length,
        idle, ingesting, ingestSeconds, ingestDocsPerSecond: payload.documents / ingestSeconds,
        p99Ratio: idle.ms.p99 > 0 ? ingesting.ms.p99 / idle.ms.p99 : 0, errors,
      }
    } finally {
      conn.close()
    }
  } finally {
    await target.close()
  }
}
