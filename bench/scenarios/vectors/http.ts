/**
 * The HTTP half of the vectors scenario: a fresh server of this build, the generated vectors added as documents
 * (`_vectors`), then search p50 next to the HTTP floor (`/health`), recall@10 over HTTP (plain and filtered),
 * QPS at N clients, hybrid and keyword latency, and database bytes per vector before and after binary
 * quantization.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { launch } from '../../harness/server.js'
import { FILTER_CLUSTER_MODULO } from './in-process.js'

export interface HttpFigures {
  buildVectorsPerSecond: number
  healthP50Ms: number
  searchP50Ms: number
  filteredSearchP50Ms: number
  hybridP50Ms: number
  keywordP50Ms: number
  recall: number
  filteredRecall: number
  qps: number
  clients: number
  bytesPerVectorFloat: number
  bytesPerVectorQuantized: number
  quantizedRecall: number
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta']

export async function httpFigures(data: ClusteredVectors, truth: number[][], filteredTruth: number[][], options: { clients: number; seconds: number; dataParent: string }, log: (s: string) => void): Promise<HttpFigures> {
  const dir = mkdtempSync(join(options.dataParent, 'vectors-'))
  const server = await launch(['--db-path', dir, '--max-indexing-threads', '2'], { TESSERA_LOG_LEVEL: 'WARN' })
  const url = `http://127.0.0.1:${server.port}`
  try {
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: r.status, body: await r.json() as any }
    }
    const wait = async (uid: number) => {
      for (;;) {
        const t = (await call('GET', `/tasks/${uid}`)).body
        if (t.status === 'succeeded') return t
        if (t.status === 'failed' || t.status === 'canceled') throw new Error(`task ${uid} ${t.status}: ${JSON.stringify(t.error)}`)
        await sleep(50)
      }
    }
    const dims = data.vectors[0]!.length
    await wait((await call('PATCH', '/indexes/v/settings', { embedders: { e: { source: 'userProvided', dimensions: dims } }, filterableAttributes: ['cluster'] })).body.taskUid)
    log(`vectors: adding ${data.vectors.length} documents over HTTP`)
    const t0 = performance.now()
    let last = 0
    for (let from = 0; from < data.vectors.length; from += 5000) {
      const docs = data.vectors.slice(from, from + 5000).map((v, k) => ({ id: from + k, cluster: data.cluster[from + k], word: WORDS[(from + k) % WORDS.length], _vectors: { e: Array.from(v) } }))
      last = (await call('POST', '/indexes/v/documents', docs)).body.taskUid
    }
    await wait(last)
    const buildVectorsPerSecond = data.vectors.length / ((performance.now() - t0) / 1000)

    const time = async (n: number, f: (i: number) => Promise<unknown>) => {
      const out: number[] = []
      for (let i = 0; i < n; i++) { const t = performance.now(); await f(i); out.push(performance.now() - t) }
      return out
    }
    const healthP50Ms = p50(await time(300, () => fetch(url + '/health').then((r) => r.text())))
    const filter = `cluster IN [${Array.from({ length: Math.ceil(100 / FILTER_CLUSTER_MODULO) }, (_, i) => i * FILTER_CLUSTER_MODULO).join(', ')}]`
    const semantic = (q: Float32Array, filtered: boolean) => call('POST', '/indexes/v/search', { vector: Array.from(q), hybrid: { embedder: 'e', semanticRatio: 1 }, limit: 10, attributesToRetrieve: ['id'], ...(filtered ? { filter } : {}) })
    const found: number[][] = []
    const filteredFound: number[][] = []
    const searchTimes = await time(data.queries.length, async (i) => { found[i] = (await semantic(data.queries[i]!, false)).body.hits.map((h: any) => h.id) })
    const filteredTimes = await time(data.queries.length, async (i) => { filteredFound[i] = (await semantic(data.queries[i]!, true)).body.hits.map((h: any) => h.id) })
    const hybridTimes = await time(200, (i) => call('POST', '/indexes/v/search', { q: WORDS[i % WORDS.length], vector: Array.from(data.queries[i % data.queries.length]!), hybrid: { embedder: 'e', semanticRatio: 0.5 }, limit: 10, attributesToRetrieve: ['id'] }))
    const keywordTimes = await time(200, (i) => call('POST', '/indexes/v/search', { q: WORDS[i % WORDS.length], limit: 10, attributesToRetrieve: ['id'] }))

    log(`vectors: QPS at ${options.clients} clients`)
    let done = 0
    const end = performance.now() + options.seconds * 1000
    await Promise.all(Array.from({ length: options.clients }, async (_, c) => {
      for (let i = c; performance.now() < end; i += options.clients) { await semantic(data.queries[i % data.queries.length]!, false); done++ }
    }))
    const qps = done / options.seconds

    const size = async () => (await call('GET', '/stats')).body.databaseSize as number
    await sleep(1100)
    const floatBytes = await size()
    log('vectors: turning binary quantization on')
    await wait((await call('PATCH', '/indexes/v/settings', { embedders: { e: { binaryQuantized: true } } })).body.taskUid)
    const quantizedFound = await Promise.all(data.queries.slice(0, 200).map(async (q) => (await semantic(q, false)).body.hits.map((h: any) => h.id)))
    await sleep(1100)
    const quantizedBytes = await size()
    return {
      buildVectorsPerSecond, healthP50Ms, searchP50Ms: p50(searchTimes), filteredSearchP50Ms: p50(filteredTimes), hybridP50Ms: p50(hybridTimes), keywordP50Ms: p50(keywordTimes),
      recall: recallAt(10, found, truth), filteredRecall: recallAt(10, filteredFound, filteredTruth), qps, clients: options.clients,
      bytesPerVectorFloat: floatBytes / data.vectors.length, bytesPerVectorQuantized: quantizedBytes / data.vectors.length,
      quantizedRecall: recallAt(10, quantizedFound, truth.slice(0, 200)),
    }
  } finally {
    server.proc.kill('SIGTERM')
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  }
}
