/**
 * The search scenario's in-process figure: `Engine.open` on the stopped server's data directory, one warm-up round,
 * then `inProcessRounds` rounds per query of the operation the HTTP route runs (`searchSerialized`: the response's
 * JSON bytes, whole documents written from their stored text), timed with performance.now() (the precise figure:
 * `processingTimeMs` is whole milliseconds). Until 2026-11-30 it timed the `search` operation, which decodes every
 * hit's document into an object: on man pages (6 kB a page) that decoding was over a third of the figure, work
 * the server never does for these queries and the peers' searches (ids only) do not either.
 */
import { performance } from 'node:perf_hooks'
import { openInProcess } from '../../harness/in-process.js'
import { summarize } from '../../harness/latency.js'
import type { SearchOptions } from './options.js'
import type { BenchQuery, SearchInProcess } from './types.js'

export async function measureInProcess(dbPath: string, uid: string, mix: BenchQuery[], options: SearchOptions): Promise<SearchInProcess> {
  const result: SearchInProcess = { ok: false, rounds: options.inProcessRounds, samples: 0, ms: null, processingMs: null, openSeconds: null }
  let opened: Awaited<ReturnType<typeof openInProcess>> | null = null
  try {
    opened = await openInProcess(dbPath)
    const { searchBytes, parseSearchBody } = opened
    result.openSeconds = opened.openSeconds
    const queries = mix.map((q) => parseSearchBody({ q: q.q }))
    for (const query of queries) await searchBytes(uid, query)
    const times: number[] = []
    const processing: number[] = []
    for (let round = 0; round < options.inProcessRounds; round++) {
      for (const query of queries) {
        const t = performance.now()
        const bytes = await searchBytes(uid, query)
        times.push(performance.now() - t)
        const res = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as { processingTimeMs?: unknown }
        if (typeof res.processingTimeMs === 'number') processing.push(res.processingTimeMs)
      }
    }
    result.samples = times.length
    result.ms = summarize(times)
    result.processingMs = processing.length > 0 ? summarize(processing) : null
    result.ok = true
  } catch (err) {
    result.note = `failed: ${(err as Error).message}`
  } finally {
    await opened?.close()
  }
  return result
}
