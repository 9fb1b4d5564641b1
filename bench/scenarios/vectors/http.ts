/**
 * The HTTP half of the vectors scenario: a fresh server of this build, the generated vectors added as documents
 * (`_vectors`), then search p50 next to the HTTP floor (`/health`), recall@10 over HTTP (plain and filtered),
 * QPS at N clients, hybrid and keyword latency, and database bytes per vector before and after binary
 * quantization.
 *
 * Latencies and QPS are measured with the bench's raw keep-alive client (one connection per client), the floor
 * included: Node's `fetch` costs about half a millisecond more for a POST than for a GET on the client side alone,
 * which would count the client's cost as the server's (searches are POSTs, `/health` a GET).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { recallAt, type ClusteredVectors } from '../../data/clustered-vectors.js'
import { launch } from '../../harness/server.js'
import { rawConnection, type Connection } from '../../harness/clients.js'
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
    // Connections are opened right before they are used: the server closes idle ones after a few seconds.
    const connections: Connection[] = []
    const open = () => { const c = rawConnection('127.0.0.1', server.port); connections.push(c); return c }
    const measured = await (async () => {
      let conn = open()
      const post = async (path: string, body: unknown) => {
        const r = await conn.send({ method: 'POST', path, body: JSON.stringify(body) })
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`)
        return JSON.parse(r.body) as any
      }
      const healthP50Ms = p50(await time(300, () => conn.send({ method: 'GET', path: '/health' })))
      const filter = `cluster IN [${Array.from({ length: Math.ceil(100 / FILTER_CLUSTER_MODULO) }, (_, i) => i * FILTER_CLUSTER_MODULO).join(', ')}]`
      const semanticBody = (q: Float32Array, filtered: boolean) => JSON.stringify({ vector: Array.from(q), hybrid: { embedder: 'e', semanticRatio: 1 }, limit: 10, attributesToRetrieve: ['id'], ...(filtered ? { filter } : {}) })
      const semantic = async (q: Float32Array, filtered: boolean, c = conn) => {
        const r = await c.send({ method: 'POST', path: '/indexes/v/search', body: semanticBody(q, filtered) })
        if (r.status !== 200) throw new Error(`search: ${r.status} ${r.body}`)
        return (JSON.parse(r.body) as { hits: { id: number }[] }).hits.map((h) => h.id)
      }
      const found: number[][] = []
      const filteredFound: number[][] = []
      const searchTimes = await time(data.queries.length, async (i) => { found[i] = await semantic(data.queries[i]!, false) })
      const filteredTimes = await time(data.queries.length, async (i) => { filteredFound[i] = await semantic(data.queries[i]!, true) })
      const hybridTimes = await time(200, (i) => post('/indexes/v/search', { q: WORDS[i % WORDS.length], vector: Array.from(data.queries[i % data.queries.length]!), hybrid: { embedder: 'e', semanticRatio: 0.5 }, limit: 10, attributesToRetrieve: ['id'] }))
      const keywordTimes = await time(200, (i) => post('/indexes/v/search', { q: WORDS[i % WORDS.length], limit: 10, attributesToRetrieve: ['id'] }))

      log(`vectors: QPS at ${options.clients} clients`)
      let done = 0
      const end = performance.now() + options.seconds * 1000
      await Promise.all(Array.from({ length: options.clients }, open).map(async (c, k) => {
        for (let i = k; performance.now() < end; i += options.clients) { await semantic(data.queries[i % data.queries.length]!, false, c); done++ }
      }))
      const qps = done / options.seconds
      log('vectors: turning binary quantization on')
      const size = async () => (await call('GET', '/stats')).body.databaseSize as number
      await sleep(1100)
      const floatBytes = await size()
      await wait((await call('PATCH', '/indexes/v/settings', { embedders: { e: { binaryQuantized: true } } })).body.taskUid)
      conn = open()
      const quantizedFound: number[][] = []
      for (const q of data.queries.slice(0, 200)) quantizedFound.push(await semantic(q, false))
      await sleep(1100)
      const quantizedBytes = await size()
      return { healthP50Ms, searchTimes, filteredTimes, hybridTimes, keywordTimes, found, filteredFound, qps, floatBytes, quantizedBytes, quantizedFound }
    })().finally(() => { for (const c of connections) c.close() })
    const { healthP50Ms, searchTimes, filteredTimes, hybridTimes, keywordTimes, found, filteredFound, qps, floatBytes, quantizedBytes, quantizedFound } = measured
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
