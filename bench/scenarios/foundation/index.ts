/**
 * The foundation scenarios (issue 2), each on both HTTP adapters against a fresh server and data directory:
 * - `register`: durable task registration, `POST /indexes` with a new uid per request;
 * - `cancel`: `POST /tasks/cancel?uids=999999999`, a task that cancels nothing (registration without an index);
 * - `health`: `GET /health`.
 * A closed loop of keep-alive clients (harness/load.ts) for a warm-up and a window; after the registration windows,
 * the durability check (durability.ts). Both adapters of a scenario run back to back, so that their ratio compares
 * like with like.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ClientKind, Reply, RequestSpec } from '../../harness/clients.js'
import { runLoad, type LoadResult } from '../../harness/load.js'
import { clocked, progress } from '../../harness/progress.js'
import type { QuietBudget } from '../../harness/quiet.js'
import { startServer, unexpectedLogs, type Adapter } from '../../harness/server.js'
import { checkDurability, type DurabilityCheck } from './durability.js'

export type ScenarioKind = 'register' | 'cancel' | 'health'

export const LOAD_KINDS = ['register', 'cancel', 'health'] as const

export const SCENARIO_TITLES: Record<ScenarioKind, string> = {
  register: 'Task registration (`POST /indexes`)',
  cancel: 'Task registration (`POST /tasks/cancel?uids=999999999`)',
  health: '`GET /health`',
}

export interface ScenarioResult {
  id: string
  kind: ScenarioKind
  adapter: Adapter
  request: string
  load: LoadResult
  durability?: DurabilityCheck
  /** The server's stderr (its WARN/ERROR logs), last lines only, when it logged anything unexpected. */
  serverLogTail?: string
}

/** The load windows' settings (`--connections`, `--warmup`, `--duration`, `--max-requests`, `--client`). */
export interface LoadSettings {
  connections: number
  warmupSeconds: number
  durationSeconds: number
  maxRequests: number
  client: ClientKind
  /** The SIGKILL + restart part of the durability check (`--no-restart-check` skips it). */
  restartCheck: boolean
}

interface ScenarioSpec {
  request(seq: number): RequestSpec
  expectStatus: number
  label: string
  /** Registrations are checked against GET /tasks afterwards. */
  registers: boolean
}

function scenarioSpec(kind: ScenarioKind, adapter: Adapter): ScenarioSpec {
  switch (kind) {
    case 'register':
      // Index uids are unique across the run: the scenario id, then the request's sequence number.
      return { request: (seq) => ({ method: 'POST', path: '/indexes', body: `{"uid":"bench-${adapter}-${seq}"}` }), expectStatus: 202, label: 'POST /indexes', registers: true }
    case 'cancel':
      return { request: () => ({ method: 'POST', path: '/tasks/cancel?uids=999999999' }), expectStatus: 200, label: 'POST /tasks/cancel?uids=999999999', registers: true }
    case 'health':
      return { request: () => ({ method: 'GET', path: '/health' }), expectStatus: 200, label: 'GET /health', registers: false }
  }
}

async function runScenario(kind: ScenarioKind, adapter: Adapter, settings: LoadSettings, dataParent: string): Promise<ScenarioResult> {
  const spec = scenarioSpec(kind, adapter)
  const dbPath = mkdtempSync(join(dataParent, `${kind}-${adapter}-`))
  let server = await startServer({ adapter, dbPath })
  try {
    const load = await runLoad({
      host: server.host,
      port: server.port,
      connections: settings.connections,
      warmupMs: settings.warmupSeconds * 1000,
      durationMs: settings.durationSeconds * 1000,
      maxRequests: settings.maxRequests,
      client: settings.client,
      request: spec.request,
      ok: (reply: Reply) => reply.status === spec.expectStatus,
      serverPid: server.pid,
    })
    const result: ScenarioResult = { id: `${kind}-${adapter}`, kind, adapter, request: spec.label, load }
    if (spec.registers) {
      const checked = await checkDurability(server, load.acknowledged, settings.restartCheck)
      server = checked.server
      result.durability = checked.check
    }
    const logs = unexpectedLogs(server.logs())
    if (logs) result.serverLogTail = logs
    return result
  } finally {
    await server.stop({ keepData: true })
    rmSync(dbPath, { recursive: true, force: true })
  }
}

/** The chosen load scenarios on the chosen adapters, in that order, each with a progress bar. */
export async function runFoundation(kinds: readonly ScenarioKind[], adapters: readonly Adapter[], settings: LoadSettings, dataParent: string, quiet: QuietBudget): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = []
  for (const kind of LOAD_KINDS.filter((k) => kinds.includes(k))) {
    for (const adapter of adapters) {
      await quiet.wait()
      const bar = progress(`${SCENARIO_TITLES[kind]} on ${adapter}`, settings.warmupSeconds + settings.durationSeconds)
      const result = await clocked(bar, () => runScenario(kind, adapter, settings, dataParent))
      const l = result.load
      bar.done(`${Math.round(l.requestsPerSecond)} req/s, p99 ${l.latencyMs.p99.toFixed(1)} ms, ${l.errors} errors${result.durability ? `, durability ${result.durability.consistent ? 'ok' : 'INCONSISTENT'}` : ''}`)
      results.push(result)
    }
  }
  return results
}
