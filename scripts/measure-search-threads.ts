/**
 * Search threads measured over HTTP (not a test, no threshold), run with
 *   node --import @tapjs/typescript/import scripts/measure-search-threads.ts CORPUS.ndjson [THREADS ...]
 * after `npm run build` (the server is the compiled service) and `npm run corpora` (CORPUS: bench/corpora/gcide.ndjson).
 *
 * The corpus is indexed once (`id` as primary key, its other fields searchable; `--search-threads 0`), then the same
 * data directory is served with each `--search-threads` value given (default: 0 2; `2h`: 2 threads that ask the HTTP
 * thread for the hits' documents, `TESSERA_SEARCH_THREAD_READS=0`, instead of reading them themselves) and measured:
 * 1. idle: 300 queries one after another (words taken from the corpus at a stride): p50 / p99 ms;
 * 2. QPS at 16 clients: 16 loops over the same queries for 8 s;
 * 3. fast searches while a slow query loops: one client repeats the slowest of a few frequent-word queries
 *    (chosen on the idle server, its time printed), another client repeats a rare word for 8 s: how many answered
 *    and their p50 / p99;
 * 4. memory: the server's RSS at start and after the runs above (VmRSS, and the peak VmHWM);
 * 5. searches while another index ingests: the first 40,000 lines of the corpus posted to a second index in 4
 *    payloads, back to back, while one client searches the first index one query after another: p50 / p99 ms.
 * The data directory is removed at the end.
 */
import { readFileSync, createReadStream, rmSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { startServer, type BenchServer } from '../bench/harness/server.js'

const [corpus, ...threadArgs] = process.argv.slice(2)
if (!corpus) throw new Error('usage: measure-search-threads.ts CORPUS.ndjson [THREADS ...]')
const threadCounts = threadArgs.length > 0 ? threadArgs : ['0', '2']
const SLOW_CANDIDATES = ['of the', 'the of a to', 'a an the in of', 'to be or not to be', 'in the of and a']

async function post(url: string, path: string, body: unknown): Promise<any> {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = await r.json()
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`)
  return json
}

async function waitTask(url: string, uid: number): Promise<void> {
  for (;;) {
    const task = await (await fetch(`${url}/tasks/${uid}`)).json() as { status: string; error?: unknown }
    if (task.status === 'succeeded') return
    if (task.status === 'failed' || task.status === 'canceled') throw new Error(JSON.stringify(task))
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Words of the corpus at a stride: the idle and load queries. */
async function queriesOf(path: string, count: number): Promise<string[]> {
  const words: string[] = []
  let line = 0
  for await (const text of createInterface({ input: createReadStream(path) })) {
    if (line++ % 97 !== 0) continue
    const doc = JSON.parse(text) as Record<string, unknown>
    const value = Object.entries(doc).find(([k, v]) => k !== 'id' && typeof v === 'string')?.[1] as string | undefined
    const word = value?.split(/[^\p{L}]+/u).find((w) => w.length > 3)
    if (word) words.push(word.toLowerCase())
    if (words.length >= count) break
  }
  return words
}

const pct = (sorted: number[], p: number) => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1)

async function timed(url: string, q: string): Promise<number> {
  const t0 = performance.now()
  await post(url, '/indexes/corpus/search', { q, limit: 20 })
  return performance.now() - t0
}

/** Loop `queries` from `clients` clients for `seconds`: count and latencies. */
async function loop(url: string, queries: string[], clients: number, seconds: number, stop?: { done: boolean }): Promise<number[]> {
  const until = performance.now() + seconds * 1000
  const times: number[] = []
  let next = 0
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < until && !stop?.done) times.push(await timed(url, queries[next++ % queries.length]!))
  }))
  return times.sort((a, b) => a - b)
}

function memory(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN)
  return `RSS ${Math.round(kb('VmRSS') / 1024)} MB (peak ${Math.round(kb('VmHWM') / 1024)} MB)`
}

async function measure(server: BenchServer, queries: string[]): Promise<void> {
  const { url } = server
  // Warm up: the first searches load the index (and hand the threads their views).
  for (const q of queries.slice(0, 20)) await timed(url, q)
  const idle: number[] = []
  for (const q of queries) idle.push(await timed(url, q))
  idle.sort((a, b) => a - b)
  console.log(`  idle: p50 ${ms(pct(idle, 0.5))} ms, p99 ${ms(pct(idle, 0.99))} ms (${idle.length} queries one after another)`)
  const qps = await loop(url, queries, 16, 8)
  console.log(`  16 clients: ${Math.round(qps.length / 8)} QPS, p50 ${ms(pct(qps, 0.5))} ms, p99 ${ms(pct(qps, 0.99))} ms`)
  const slowTimes = await Promise.all(SLOW_CANDIDATES.map(async (q) => [q, await timed(url, q)] as const))
  const [slow, slowMs] = slowTimes.reduce((a, b) => (b[1] > a[1] ? b : a))
  const stop = { done: false }
  const slowLoop = loop(url, [slow], 1, 8, stop)
  const fast = await loop(url, [queries[1]!], 1, 8)
  stop.done = true
  const slowRuns = await slowLoop
  console.log(`  while "${slow}" loops (${ms(slowMs)} ms alone; ${slowRuns.length} runs, p50 ${ms(pct(slowRuns, 0.5))} ms): ${fast.length} fast searches in 8 s, p50 ${ms(pct(fast, 0.5))} ms, p99 ${ms(pct(fast, 0.99))} ms`)
  console.log(`  memory after these: ${memory(server.pid)}`)
  const lines = readFileSync(corpus!, 'utf8').split('\n').filter((l) => l !== '').slice(0, 40_000)
  const ingesting = { done: false }
  const searching = loop(url, queries, 1, 600, ingesting)
  for (let part = 0; part < 4; part++) {
    const body = lines.slice(part * 10_000, (part + 1) * 10_000).join('\n')
    const task = await fetch(`${url}/indexes/other/documents?primaryKey=id`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body })
    await waitTask(url, ((await task.json()) as { taskUid: number }).taskUid)
  }
  ingesting.done = true
  const during = await searching
  console.log(`  while another index ingests 40,000 documents: ${during.length} searches, p50 ${ms(pct(during, 0.5))} ms, p99 ${ms(pct(during, 0.99))} ms`)
  const removed = await fetch(`${url}/indexes/other`, { method: 'DELETE' })
  await waitTask(url, ((await removed.json()) as { taskUid: number }).taskUid)
}

const first = await startServer({ adapter: 'uws', args: ['--search-threads', '0', '--http-payload-size-limit', '2 GiB'] })
const dbPath = first.dbPath
console.log(`indexing ${corpus} into ${dbPath}`)
await post(first.url, '/indexes', { uid: 'corpus', primaryKey: 'id' })
const r = await fetch(`${first.url}/indexes/corpus/documents`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: readFileSync(corpus) })
await waitTask(first.url, ((await r.json()) as { taskUid: number }).taskUid)
await first.stop({ keepData: true })
const queries = await queriesOf(corpus, 300)
for (const threads of threadCounts) {
  const turn = threads.endsWith('h')
  const server = await startServer({ adapter: 'uws', dbPath, args: ['--search-threads', threads.replace(/h$/, '')], env: turn ? { TESSERA_SEARCH_THREAD_READS: '0' } : {} })
  console.log(`--search-threads ${threads}${turn ? ' (documents read on the HTTP thread)' : ''} (server pid ${server.pid}, ${memory(server.pid)} at start)`)
  await measure(server, queries)
  await server.stop({ keepData: true })
}
rmSync(dbPath, { recursive: true, force: true })
