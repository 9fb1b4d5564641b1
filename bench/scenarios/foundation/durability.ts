/**
 * The registration scenarios' durability check: after the load, `GET /tasks?limit=1` must count at least every
 * registration acknowledged to the client, on the live server and again after SIGKILL and a restart on the same
 * data directory (a crash, not a graceful shutdown: whatever was acknowledged must already be on disk).
 */
import { call } from '../../harness/requests.js'
import { startServer, type BenchServer } from '../../harness/server.js'

export interface DurabilityCheck {
  /** Successful registrations acknowledged to the client over the whole run (warm-up and drain included). */
  acknowledged: number
  /** `total` of `GET /tasks?limit=1` on the live server right after the load. */
  totalLive: number | null
  /** The same after SIGKILL and a restart on the same data directory (null when skipped). */
  totalAfterRestart: number | null
  /** Every total that was read is ≥ acknowledged. */
  consistent: boolean
  note?: string
}

/** `total` of `GET /tasks?limit=1`, or null (with the reason) if it cannot be read. */
async function taskTotal(server: BenchServer): Promise<{ total: number | null; error?: string }> {
  try {
    const res = await call<{ total?: unknown } | null>(server, 'GET', '/tasks?limit=1', undefined, 30_000)
    if (res.status !== 200 || typeof res.body?.total !== 'number') return { total: null, error: `GET /tasks answered ${res.status}` }
    return { total: res.body.total }
  } catch (err) {
    return { total: null, error: `GET /tasks failed: ${(err as Error).message}` }
  }
}

/** Check `server` (and, with `restart`, a restarted one, returned in its place) against `acknowledged`. */
export async function checkDurability(server: BenchServer, acknowledged: number, restart: boolean): Promise<{ check: DurabilityCheck; server: BenchServer }> {
  const live = await taskTotal(server)
  let totalAfterRestart: number | null = null
  let note = live.error
  if (restart) {
    await server.kill9()
    server = await startServer({ adapter: server.adapter, dbPath: server.dbPath })
    const after = await taskTotal(server)
    totalAfterRestart = after.total
    if (after.error) note = [note, `after restart: ${after.error}`].filter(Boolean).join('; ')
  }
  const totals = [live.total, totalAfterRestart].filter((t): t is number => t !== null)
  const consistent = totals.length > 0 && (live.total !== null) && totals.every((t) => t >= acknowledged)
  return { check: { acknowledged, totalLive: live.total, totalAfterRestart, consistent, ...(note ? { note } : {}) }, server }
}
