/**
 * `npm run bench -- --only embeddings`: embedding generation against a local OpenAI-compatible server that answers
 * every request after 20 ms. A fresh server of this build embeds N generated documents through a `rest` embedder
 * (batches of 10 texts, 40 requests in flight: the limit is 40 × 10 ÷ 20 ms = 20,000 texts/s) while `/health` and a
 * keyword search are timed, then hybrid searches with `q` are timed with an uncached and a cached query vector.
 * Then a generated local ONNX model embeds documents with 1 and 2 pool threads (local.ts).
 * Writes `embeddings.json` and `embeddings.md`. Nothing is asserted: the figures are stated next to the limit.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Outcome, RunContext } from '../../harness/scenario.js'
import { launch } from '../../harness/server.js'
import type { EmbeddingsOptions } from './options.js'
import { startRemoteEmbeddings } from './remote.js'
import { LOCAL_HIDDEN, localModelThroughput, type LocalRun } from './local.js'
import { call as request } from '../../harness/requests.js'
import { waitTask } from '../../harness/task-wait.js'

export { DEFAULT_EMBEDDINGS_OPTIONS, quickEmbeddingsOptions, type EmbeddingsOptions } from './options.js'

const DIMS = 64
const BATCH = 10
const CONCURRENCY = 40
const WORDS = ['river', 'mountain', 'forest', 'city', 'ocean', 'desert', 'valley', 'island', 'bridge', 'castle', 'garden', 'market', 'harbor', 'tower', 'meadow', 'canyon']

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0
const title = (i: number) => `${WORDS[i % 16]} ${WORDS[(i >> 4) % 16]} ${WORDS[(i >> 8) % 16]} number ${i}`

export interface EmbeddingsReport {
  documents: number
  latencyMs: number
  seconds: number
  textsPerSecond: number
  limitTextsPerSecond: number
  ratioToLimit: number
  requests: number
  maxInFlight: number
  healthP50Ms: number
  healthP99Ms: number
  keywordP50Ms: number
  keywordP99Ms: number
  hybridUncachedP50Ms: number
  hybridCachedP50Ms: number
  keywordIdleP50Ms: number
  /** Documents per run of the local model, and its documents/s with 1 and 2 pool threads. */
  localDocuments: number
  local: LocalRun[]
}

export async function runEmbeddingsScenario(options: EmbeddingsOptions, ctx: RunContext): Promise<Outcome> {
  const log = (s: string) => process.stderr.write(s + '\n')
  const remote = await startRemoteEmbeddings(options.latencyMs, DIMS)
  const dir = mkdtempSync(join(ctx.dataParent, 'embeddings-'))
  const server = await launch(['--db-path', dir, '--max-indexing-threads', '2', '--experimental-allowed-ip-networks', '127.0.0.0/8', '--experimental-embedding-cache-entries', '10000'], { TESSERA_LOG_LEVEL: 'WARN' })
  const url = `http://127.0.0.1:${server.port}`
  const endpoint = { url }
  const call = async (method: string, path: string, body?: unknown) => (await request(endpoint, method, path, body)).body
  const wait = (uid: number) => waitTask(endpoint, uid)
  const timed = async (fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); return performance.now() - t0 }
  try {
    const embedder = {
      source: 'rest', url: remote.url, dimensions: DIMS, documentTemplate: '{{doc.title}}',
      request: { model: 'bench', input: ['{{text}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
    }
    const set = await wait((await call('PATCH', '/indexes/bench/settings', { embedders: { rest: embedder } })).taskUid)
    if (set.status !== 'succeeded') throw new Error(`settings: ${JSON.stringify(set.error)}`)
    const idle: number[] = []
    for (let i = 0; i < 20; i++) idle.push(await timed(() => call('POST', '/indexes/bench/search', { q: 'river' })))
    log(`embeddings: ${options.documents} documents through a rest embedder answering in ${options.latencyMs} ms`)
    const docs = Array.from({ length: options.documents }, (_, i) => ({ id: i, title: title(i) }))
    const started = performance.now()
    const uid = (await call('POST', '/indexes/bench/documents', docs)).taskUid
    const health: number[] = []
    const keyword: number[] = []
    let done = false
    const probe = (async () => {
      while (!done) {
        health.push(await timed(() => call('GET', '/health')))
        keyword.push(await timed(() => call('POST', '/indexes/bench/search', { q: 'mountain forest' })))
        await new Promise((r) => setTimeout(r, 25))
      }
    })()
    const task = await wait(uid)
    const seconds = (performance.now() - started) / 1000
    done = true
    await probe
    if (task.status !== 'succeeded') throw new Error(`documents: ${JSON.stringify(task.error)}`)
    const requests = remote.requests
    const uncached: number[] = []
    const cached: number[] = []
    const queries = Array.from({ length: options.queries }, (_, i) => title(i * 7919))
    for (const q of queries) uncached.push(await timed(() => call('POST', '/indexes/bench/search', { q, hybrid: { embedder: 'rest', semanticRatio: 0.5 } })))
    for (const q of queries) cached.push(await timed(() => call('POST', '/indexes/bench/search', { q, hybrid: { embedder: 'rest', semanticRatio: 0.5 } })))
    const local = await localModelThroughput(ctx.dataParent, options.localDocuments, options.localRuns, log)
    const limit = (CONCURRENCY * BATCH) / (options.latencyMs / 1000)
    const report: EmbeddingsReport = {
      documents: options.documents, latencyMs: options.latencyMs, seconds, textsPerSecond: options.documents / seconds,
      limitTextsPerSecond: limit, ratioToLimit: options.documents / seconds / limit, requests, maxInFlight: remote.maxInFlight,
      healthP50Ms: pct(health, 0.5), healthP99Ms: pct(health, 0.99), keywordP50Ms: pct(keyword, 0.5), keywordP99Ms: pct(keyword, 0.99),
      hybridUncachedP50Ms: pct(uncached, 0.5), hybridCachedP50Ms: pct(cached, 0.5), keywordIdleP50Ms: pct(idle, 0.5),
      localDocuments: options.localDocuments, local,
    }
    mkdirSync(ctx.outDir, { recursive: true })
    const json = join(ctx.outDir, 'embeddings.json')
    const md = join(ctx.outDir, 'embeddings.md')
    const markdown = embeddingsMarkdown(ctx.date, report)
    writeFileSync(json, JSON.stringify({ benchmark: 'embeddings', date: ctx.date, machine: ctx.machine, options, ...report }, null, 2) + '\n')
    writeFileSync(md, markdown)
    return { markdown, json, md, failures: [], failureLabel: 'EMBEDDINGS SCENARIO FAILED' }
  } catch (err) {
    return { markdown: `# Embeddings\n\nFAILED: ${(err as Error).message}\n`, json: '', md: '', failures: [(err as Error).message], failureLabel: 'EMBEDDINGS SCENARIO FAILED' }
  } finally {
    server.proc.kill('SIGTERM')
    await server.exited
    await remote.close()
  }
}

const f = (n: number, d = 1) => n.toFixed(d)
const int = (n: number) => Math.round(n).toLocaleString('en-US')

function embeddingsMarkdown(date: string, r: EmbeddingsReport): string {
  return [
    '# Embeddings', '',
    `${date} · ${int(r.documents)} generated documents embedded through a \`rest\` embedder (batches of ${BATCH}, ${CONCURRENCY} requests in flight) against a local server answering in ${r.latencyMs} ms · 2 pool threads`, '',
    '| figure | value | note |',
    '|---|---:|---|',
    `| embedding throughput | ${int(r.textsPerSecond)} texts/s | ${f(r.ratioToLimit * 100)} % of the limit concurrency × batch ÷ latency = ${int(r.limitTextsPerSecond)} texts/s (whole task: parsing, embedding, HNSW insertion, commit) |`,
    `| requests sent | ${int(r.requests)} | at most ${r.maxInFlight} in flight at once |`,
    `| \`/health\` during embedding | p50 ${f(r.healthP50Ms, 2)} ms · p99 ${f(r.healthP99Ms, 2)} ms | the HTTP thread keeps answering |`,
    `| keyword search during embedding | p50 ${f(r.keywordP50Ms, 2)} ms · p99 ${f(r.keywordP99Ms, 2)} ms | idle before: p50 ${f(r.keywordIdleP50Ms, 2)} ms |`,
    `| hybrid search, uncached query vector | p50 ${f(r.hybridUncachedP50Ms, 2)} ms | includes one embedding request (${r.latencyMs} ms) |`,
    `| hybrid search, cached query vector | p50 ${f(r.hybridCachedP50Ms, 2)} ms | \`--experimental-embedding-cache-entries\` |`,
    '',
    `Local model (transformers.js, a generated BERT-shaped ONNX model of ${LOCAL_HIDDEN} dimensions, mean pooling, one ONNX thread per worker): ${int(r.localDocuments)} documents per run, median of ${r.local[0]?.runs.length ?? 0} run(s).`, '',
    '| pool threads | whole task, documents/s (median) | runs | generation alone, texts/s (median) | per worker | runs |',
    '|---:|---:|---|---:|---:|---|',
    ...r.local.map((l) => `| ${l.threads} | ${int(l.median)} | ${l.runs.map((x) => int(x)).join(' · ')} | ${int(l.generationMedian)} | ${int(l.generationMedian / l.threads)} | ${l.generationRuns.map((x) => int(x)).join(' · ')} |`),
    '',
  ].join('\n')
}
