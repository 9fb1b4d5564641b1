/**
 * `npm run chaos -- crash`: the crash storm. Several clients write to their own indexes while the server is
 * `kill -9`ed at a random moment (registering, batching, committing, or, one round in five, again while it starts
 * up and recovers); after each restart `verifyRound` checks what survived against what was acknowledged.
 *
 * Options: `--kills N` (default 200), `--quick` (16 kills), `--seed S` (printed; a run replays from it, up to the
 * timing of the kills), `--keep` (keep the data directory).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededRandom } from '../test/helpers/random.js'
import { runClient, type ClientRecord } from './workload.js'
import { Ledger, observe, verifyRound, type Observed, type Owner } from './verify.js'
import { drained, killDuringStartup, startChaosServer } from './server.js'

export interface CrashOptions { kills: number; seed: number; keep: boolean }

const OWNERS: Owner[] = [
  { client: 0, indexes: ['c0'] },
  { client: 1, indexes: ['c1'] },
  { client: 2, indexes: ['c2'] },
  { client: 3, indexes: ['s0', 's1'] },
]

export async function crashStorm(options: CrashOptions): Promise<boolean> {
  const dbPath = mkdtempSync(join(tmpdir(), 'tessera-chaos-crash-'))
  console.log(`crash storm: ${options.kills} kills, seed ${options.seed}, data in ${dbPath}`)
  const r = seededRandom(options.seed)
  const clientRandoms = OWNERS.map((o) => seededRandom(options.seed * 31 + o.client + 1))
  const ledger = new Ledger(OWNERS)
  const started = Date.now()
  let failures: string[] = []
  let acknowledged = 0
  let startupKills = 0
  let server = await startChaosServer(dbPath)
  try {
    for (let kill = 1; kill <= options.kills && failures.length === 0; kill++) {
      const records: ClientRecord[] = OWNERS.map(() => ({ acknowledged: [], inFlight: null, refused: 0 }))
      let stopped = false
      const clients = OWNERS.map((o) => runClient(server.url, o.client, o.indexes, clientRandoms[o.client]!, records[o.client]!, () => stopped))
      // Kill at a random moment: early (registrations), or later (batches and commits under way).
      const delay = r.int(4) === 0 ? r.int(150) : 150 + r.int(1500)
      await new Promise((resolve) => setTimeout(resolve, delay))
      await server.kill9()
      stopped = true
      await Promise.all(clients)
      acknowledged += records.reduce((n, rec) => n + rec.acknowledged.length, 0)
      if (r.int(5) === 0) {
        startupKills++
        await killDuringStartup(dbPath, 50 + r.int(600))
      }
      server = await startChaosServer(dbPath)
      const snapshot = new Map<string, Observed>()
      for (const o of OWNERS) for (const index of o.indexes) snapshot.set(index, await observe(server.url, index))
      await drained(server.url)
      failures = await verifyRound(server.url, dbPath, ledger, records, snapshot)
      const acks = records.map((rec) => rec.acknowledged.length).join('/')
      console.log(`kill ${kill}/${options.kills} after ${delay} ms: acknowledged ${acks}, in flight ${records.filter((rec) => rec.inFlight).length}, uids up to ${ledger.maxUid}${failures.length ? ' FAILED' : ' ok'}`)
    }
  } catch (err) {
    failures.push(`the storm stopped: ${(err as Error).stack ?? err}`)
  } finally {
    await server.kill9()
    if (failures.length > 0) console.log(server.launched.logs().slice(-4000))
    if (!options.keep && failures.length === 0) rmSync(dbPath, { recursive: true, force: true })
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  if (failures.length > 0) {
    console.log(`crash storm FAILED (seed ${options.seed}; data kept in ${dbPath}):\n  ${failures.join('\n  ')}`)
    return false
  }
  console.log(`crash storm passed: ${options.kills} kills (${startupKills} more during start-up), ${acknowledged} acknowledged writes, ${ledger.tasksVerified} tasks verified (${ledger.recoveredInFlight} unanswered requests found registered), ${ledger.maxUid + 1} tasks in all, ${seconds} s`)
  return true
}
