/**
 * The workflow listing benchmark (area D): latency of `GET /api/v1/workflows` pages at 100,000 workflows, for the
 * first page and the 400th (reached by following the cursors of the 399 before it), at n8n's default page size
 * (100) and its maximum (250). Keyset cursors should make the 400th page cost what the first does.
 *
 * Steps:
 * 1. open a Store in the data directory and create the workflows in process (WorkflowService.createMany, in
 *    commits of `chunk`), each with a trigger and a plain node, one in `activeEvery` active;
 * 2. in process: for each page size, walk the 399 pages to the 400th (collecting its cursor, as a client would),
 *    then time `rounds` reads of the first page and of the 400th (listing + presentation + JSON, what the route
 *    does but HTTP), and the same for `active=true` (an indexed filter that skips most workflows);
 * 3. close the Store, start the server on the data directory with a master key, and time the same requests over
 *    HTTP with one keep-alive client (round trip).
 */
import { performance } from 'node:perf_hooks'
import { Store } from '../engine/storage/index.js'
import { WorkflowService, presentWorkflows } from '../src/workflows/index.js'
import { scopeOf } from '../src/workflows/workflow-routes.js'
import type { WorkflowFilter, WorkflowInput } from '../src/workflows/types.js'
import { summarize, type LatencySummary } from './harness/latency.js'
import { startServer } from './harness/server.js'

export interface WorkflowsOptions {
  workflows: number
  /** Workflows per commit while seeding. */
  chunk: number
  /** One workflow in this many is active (the `active=true` case). */
  activeEvery: number
  /** The page whose cost is compared with the first's. */
  deepPage: number
  pageSizes: number[]
  /** Timed reads of each page, after `warmup` untimed ones. */
  rounds: number
  warmup: number
}

export const DEFAULT_WORKFLOWS_OPTIONS: WorkflowsOptions = {
  workflows: 100_000, chunk: 2_000, activeEvery: 10, deepPage: 400, pageSizes: [100, 250], rounds: 100, warmup: 10,
}

/** `--quick`: 20,000 workflows, the 40th page, 50 rounds. */
export function quickWorkflowsOptions(o: WorkflowsOptions): WorkflowsOptions {
  return { ...o, workflows: 20_000, deepPage: 40, rounds: 50, warmup: 5 }
}

export interface WorkflowsCase {
  /** e.g. `limit=100, page 1`. */
  id: string
  limit: number
  page: number
  filter: WorkflowFilter
  inProcess: LatencySummary | null
  http: LatencySummary | null
  /** Bytes of the JSON answer. */
  bytes: number | null
}

export interface WorkflowsResult {
  options: WorkflowsOptions
  seedSeconds: number
  seedPerSecond: number
  cases: WorkflowsCase[]
  notes: string[]
  totalSeconds: number
}

const KEY = 'bench-workflows-master-key-0123'

function sampleWorkflow(i: number): WorkflowInput {
  return {
    name: `Workflow ${i} ${['sync', 'report', 'import', 'notify'][i % 4]}`,
    nodes: [
      { id: `t-${i}`, name: 'Schedule', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1.2, position: [0, 0], parameters: { rule: { interval: [{ field: 'hours' }] } } },
      { id: `h-${i}`, name: 'HTTP Request', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [220, 0], parameters: { url: `https://example.com/${i}`, method: 'GET' } },
    ],
    connections: { Schedule: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  }
}

const log = (text: string) => process.stderr.write(text)

async function timed(rounds: number, warmup: number, read: () => Promise<number>): Promise<{ summary: LatencySummary; bytes: number }> {
  let bytes = 0
  for (let i = 0; i < warmup; i++) bytes = await read()
  const ms: number[] = []
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now()
    bytes = await read()
    ms.push(performance.now() - t0)
  }
  return { summary: summarize(ms), bytes }
}

/** The cursors of page `page` (null for the first) for each case, walked in process as a client would. */
async function cursorOf(service: WorkflowService, filter: WorkflowFilter, limit: number, page: number): Promise<string | null> {
  let after = 0
  for (let p = 1; p < page; p++) {
    const got = await service.listing.workflowPage(filter, after, limit)
    if (!got.more) throw new Error(`the listing ${JSON.stringify(filter)} has fewer than ${page} pages of ${limit}`)
    after = got.items[got.items.length - 1]!.seq
  }
  return page === 1 ? null : service.cursors.encode('workflows', scopeOf(filter), { after, limit })
}

export async function runWorkflows(options: WorkflowsOptions, dbPath: string): Promise<WorkflowsResult> {
  const started = performance.now()
  const result: WorkflowsResult = { options, seedSeconds: 0, seedPerSecond: 0, cases: [], notes: [], totalSeconds: 0 }
  const store = await Store.open(dbPath)
  const cursors = new Map<WorkflowsCase, string | null>()
  try {
    const service = await WorkflowService.open(store)
    log(`bench: workflows, creating ${options.workflows.toLocaleString('en-US')} in process …`)
    const t0 = performance.now()
    for (let start = 0; start < options.workflows; start += options.chunk) {
      const n = Math.min(options.chunk, options.workflows - start)
      const inputs = Array.from({ length: n }, (_, i) => sampleWorkflow(start + i))
      await service.workflows.createMany(inputs, inputs.map((_, i) => ({ active: (start + i) % options.activeEvery === 0 })))
    }
    result.seedSeconds = (performance.now() - t0) / 1000
    result.seedPerSecond = options.workflows / result.seedSeconds
    log(` ${result.seedSeconds.toFixed(1)} s (${Math.round(result.seedPerSecond)}/s)\n`)

    const deepActive = Math.max(1, Math.floor(options.deepPage / options.activeEvery))
    for (const limit of options.pageSizes) {
      for (const [page, filter] of [[1, {}], [options.deepPage, {}], [1, { active: true }], [deepActive, { active: true }]] as [number, WorkflowFilter][]) {
        const c: WorkflowsCase = { id: `limit=${limit}${filter.active ? ', active=true' : ''}, page ${page}`, limit, page, filter, inProcess: null, http: null, bytes: null }
        result.cases.push(c)
        cursors.set(c, await cursorOf(service, filter, limit, page))
      }
    }
    for (const c of result.cases) {
      const cursor = cursors.get(c)!
      const { after } = cursor === null ? { after: 0 } : service.cursors.decode('workflows', scopeOf(c.filter), cursor)
      const { summary, bytes } = await timed(options.rounds, options.warmup, async () => {
        const page = await service.listing.workflowPage(c.filter, after, c.limit)
        return JSON.stringify({ data: presentWorkflows(service, page.items), nextCursor: page.more ? 'x' : null }).length
      })
      c.inProcess = summary
      c.bytes = bytes
      log(`bench: workflows, in process, ${c.id}: p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms\n`)
    }
  } finally {
    await store.close()
  }

  const server = await startServer({ adapter: 'uws', dbPath, args: ['--master-key', KEY] })
  try {
    const headers = { 'x-service-api-key': KEY }
    for (const c of result.cases) {
      const cursor = cursors.get(c)!
      const query = [`limit=${c.limit}`, ...(c.filter.active ? ['active=true'] : []), ...(cursor ? [`cursor=${cursor}`] : [])].join('&')
      const { summary } = await timed(options.rounds, options.warmup, async () => {
        const res = await fetch(`${server.url}/api/v1/workflows?${query}`, { headers })
        const text = await res.text()
        if (res.status !== 200) throw new Error(`GET ?${query}: ${res.status} ${text.slice(0, 200)}`)
        return text.length
      })
      c.http = summary
      log(`bench: workflows, over HTTP, ${c.id}: p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms\n`)
    }
  } catch (err) {
    result.notes.push(`over HTTP: ${(err as Error).message}`)
  } finally {
    await server.stop({ keepData: true })
  }
  result.totalSeconds = (performance.now() - started) / 1000
  return result
}

export function renderWorkflowsMarkdown(r: WorkflowsResult): string {
  const f = (s: LatencySummary | null, k: 'p50' | 'p99') => (s ? s[k].toFixed(2) : '—')
  const lines = [
    `# Workflow listing: ${r.options.workflows.toLocaleString('en-US')} workflows`,
    '',
    `Created in process in ${r.seedSeconds.toFixed(1)} s (${Math.round(r.seedPerSecond).toLocaleString('en-US')}/s, commits of ${r.options.chunk}); ` +
      `1 in ${r.options.activeEvery} active. ${r.options.rounds} timed reads per case after ${r.options.warmup} untimed.`,
    '',
    '| case | in process p50 (ms) | p99 | HTTP p50 (ms) | p99 | answer (KiB) |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.cases.map((c) => `| ${c.id} | ${f(c.inProcess, 'p50')} | ${f(c.inProcess, 'p99')} | ${f(c.http, 'p50')} | ${f(c.http, 'p99')} | ${c.bytes === null ? '—' : (c.bytes / 1024).toFixed(0)} |`),
    '',
    ...r.notes.map((n) => `- ${n}`),
  ]
  return lines.join('\n')
}
