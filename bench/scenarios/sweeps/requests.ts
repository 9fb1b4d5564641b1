/**
 * The sweeps' searches: one request at a time, timed by the client (fetch) and by the server (`processingTimeMs`),
 * always with `attributesToRetrieve: ['id']` (the sweeps measure ranking and pagination, not the formatting of 20
 * documents, a constant).
 */
import { performance } from 'node:perf_hooks'
import { summarize } from '../../harness/latency.js'
import { call } from '../../harness/requests.js'
import type { Target } from '../../harness/target.js'
import { SEARCH_TIMEOUT_MS } from './options.js'

export interface SearchReply {
  hits?: Array<{ id?: unknown }>
  estimatedTotalHits?: number
  totalHits?: number
  totalPages?: number
  processingTimeMs?: number
}

export interface Timed { ok: boolean; status: number; reply: SearchReply; ms: number; error?: string }

export async function timedSearch(target: Target, uid: string, body: Record<string, unknown>): Promise<Timed> {
  const t0 = performance.now()
  try {
    const { status, body: reply } = await call<SearchReply>(target, 'POST', `/indexes/${uid}/search`, { ...body, attributesToRetrieve: ['id'] }, SEARCH_TIMEOUT_MS)
    const ms = performance.now() - t0
    if (status !== 200) return { ok: false, status, reply: {}, ms, error: `${status} ${JSON.stringify(reply).slice(0, 200)}` }
    return { ok: true, status, reply: reply ?? {}, ms }
  } catch (err) {
    return { ok: false, status: 0, reply: {}, ms: performance.now() - t0, error: (err as Error).message }
  }
}


export const idsOf = (reply: SearchReply): unknown[] => (reply.hits ?? []).map((h) => h.id)
export const totalOf = (reply: SearchReply): number | null => reply.estimatedTotalHits ?? reply.totalHits ?? null
/** The nearest-rank median, null for no values. */
export const median = (xs: number[]): number | null => (xs.length === 0 ? null : summarize(xs).p50)
