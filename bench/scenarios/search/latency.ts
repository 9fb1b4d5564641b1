/**
 * The search scenario's latency rounds: every query once (warm-up, which also records each query's hit count), then
 * `rounds` × every query in order, one keep-alive client: the replies' `processingTimeMs` (overall, by kind of query,
 * by number of words, the slowest queries) and the client's round trip.
 */
import { performance } from 'node:perf_hooks'
import type { Reply } from '../../harness/clients.js'
import { processCpuMs } from '../../harness/cpu.js'
import { summarize } from '../../harness/latency.js'
import { runLoad } from '../../harness/load.js'
import type { BenchServer } from '../../harness/server.js'
import type { SearchOptions } from './options.js'
import { byKind } from './queries.js'
import type { BenchQuery, SearchLatency } from './types.js'

interface ParsedReply { processingTimeMs: number | null; hits: number | null; returned: number | null; query: string | null }

function parseReply(body: string): ParsedReply {
  try {
    const v = JSON.parse(body) as { processingTimeMs?: unknown; estimatedTotalHits?: unknown; totalHits?: unknown; hits?: unknown; query?: unknown }
    const hits = typeof v.estimatedTotalHits === 'number' ? v.estimatedTotalHits : typeof v.totalHits === 'number' ? v.totalHits : null
    return {
      processingTimeMs: typeof v.processingTimeMs === 'number' ? v.processingTimeMs : null,
      hits,
      returned: Array.isArray(v.hits) ? v.hits.length : null,
      query: typeof v.query === 'string' ? v.query : null,
    }
  } catch {
    return { processingTimeMs: null, hits: null, returned: null, query: null }
  }
}

/** Warm-up (every query once) then `rounds` × every query, one keep-alive connection, in order. */
export async function measureLatency(server: BenchServer, uid: string, mix: BenchQuery[], bodies: string[], options: SearchOptions, hitsByQuery: Map<string, number>, tick: () => void = () => {}): Promise<SearchLatency> {
  const path = `/indexes/${uid}/search`
  const errorKinds: Record<string, number> = {}
  const returned: number[] = []
  const replyBytes: number[] = []
  const warm = await runLoad({
    host: server.host, port: server.port, headers: server.headers, connections: 1, warmupMs: 0, durationMs: 3_600_000, maxRequests: mix.length, client: 'raw',
    request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (reply: Reply) => {
      tick()
      if (reply.status !== 200) return false
      const p = parseReply(reply.body)
      if (p.query !== null && p.hits !== null) hitsByQuery.set(p.query, p.hits)
      if (p.returned !== null) returned.push(p.returned)
      replyBytes.push(Buffer.byteLength(reply.body))
      return true
    },
  })
  for (const [k, v] of Object.entries(warm.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + v
  const server0 = processCpuMs(server.pid)
  const t0 = performance.now()
  const processing: number[] = []
  const perQuery = new Map<string, number[]>()
  const rounds = await runLoad({
    host: server.host, port: server.port, headers: server.headers, connections: 1, warmupMs: 0, durationMs: 3_600_000, maxRequests: mix.length * options.rounds, client: 'raw',
    request: (seq) => ({ method: 'POST', path, body: bodies[seq % bodies.length]! }),
    ok: (reply: Reply) => {
      tick()
      if (reply.status !== 200) return false
      const p = parseReply(reply.body)
      if (p.processingTimeMs !== null) {
        processing.push(p.processingTimeMs)
        if (p.query !== null) {
          const list = perQuery.get(p.query) ?? []
          list.push(p.processingTimeMs)
          perQuery.set(p.query, list)
        }
      }
      return true
    },
  })
  const server1 = processCpuMs(server.pid)
  for (const [k, v] of Object.entries(rounds.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + v
  // A query drawn twice into the mix is counted once per draw: its times divided among its draws.
  const draws = new Map<string, number>()
  for (const q of mix) draws.set(q.q, (draws.get(q.q) ?? 0) + 1)
  const perQueryOnce = (q: string) => {
    const times = perQuery.get(q) ?? []
    const n = draws.get(q) ?? 1
    return times.filter((_, i) => i % n === 0)
  }
  const hitCounts = mix.map((q) => hitsByQuery.get(q.q)).filter((h): h is number => h !== undefined)
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length)
  const failures = Object.values(errorKinds).reduce((a, b) => a + b, 0)
  return {
    ok: rounds.ok > 0 && failures === 0,
    ...(failures > 0 ? { error: `failed searches: ${Object.entries(errorKinds).map(([k, v]) => `${k} × ${v}`).join(', ')}` } : {}),
    rounds: options.rounds,
    samples: rounds.ok,
    serverMs: summarize(processing),
    clientMs: rounds.latencyMs,
    errorKinds,
    zeroHits: byKind((k) => mix.filter((q) => q.kind === k && hitsByQuery.get(q.q) === 0).length),
    queriesByKind: byKind((k) => mix.filter((q) => q.kind === k).length),
    meanHits: mean(hitCounts),
    meanReturned: mean(returned),
    meanReplyBytes: mean(replyBytes),
    serverMsByKind: byKind((k) => summarize(mix.filter((q) => q.kind === k).flatMap((q) => perQueryOnce(q.q)))),
    serverMsByWords: Object.fromEntries([1, 2, 3].map((w) => [String(w), summarize(mix.filter((q) => q.words === w).flatMap((q) => perQueryOnce(q.q)))])),
    slowest: mix.flatMap((q) => {
      const times = perQuery.get(q.q)
      if (!times || times.length === 0) return []
      const sorted = [...times].sort((a, b) => a - b)
      return [{ q: q.q, kind: q.kind, hits: hitsByQuery.get(q.q) ?? null, medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!, maxMs: sorted[sorted.length - 1]! }]
    }).filter((e, i, all) => all.findIndex((o) => o.q === e.q) === i).sort((a, b) => b.medianMs - a.medianMs).slice(0, 10),
    serverCpuPercent: server0 !== null && server1 !== null ? (100 * (server1 - server0)) / (performance.now() - t0) : null,
  }
}
