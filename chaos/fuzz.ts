/**
 * `npm run chaos -- fuzz`: structure-aware fuzzing of a running server (inputs in inputs.ts). Four senders work
 * through inputs `0, 1, 2, ...` of the seed while a probe asks `/health` every 200 ms. A failure is a 5xx, an
 * input left without an answer past ANSWER_BOUND_MS, a `/health` that stalls past STALL_MS, the server exiting, a
 * task left unfinished, or the read-only sentinel index changing. RSS is sampled throughout and reported.
 *
 * Options: `--seconds N` (default 600), `--quick` (45 s), `--seed S` (printed), `--replay I` (send input I of the
 * seed alone and print what came back).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, fuzzInput, SENTINEL, WRITABLE } from './inputs.js'
import { send, type Outcome } from './send.js'
import { drained, getJson, startChaosServer, type ChaosServer } from './server.js'

export interface FuzzOptions { seconds: number; seed: number; replay: number | null }

/** A `/health` slower than this, while inputs run, is a stalled server (a bound, far above any normal answer). */
const STALL_MS = 5000
const SENDERS = 4
/** The payload limit the fuzzed server runs with: oversize bodies stay cheap to send. */
const PAYLOAD_LIMIT = '2MB'

interface Failure { index: number | null; what: string; input?: string }

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Math.round(Number(m[1]) / 1024) : 0
  } catch {
    return 0
  }
}

async function seed(server: ChaosServer): Promise<void> {
  const docs = Array.from({ length: 200 }, (_, i) => ({ id: i, n: i % 50, tag: `t${i % 7}`, title: `hello world ${i} indigo`, nested: { a: i } }))
  for (const uid of [SENTINEL, ...WRITABLE]) {
    await fetch(`${server.url}/indexes/${uid}/settings`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filterableAttributes: ['n', 'tag', 'nested.a'], sortableAttributes: ['n'] }) })
    await fetch(`${server.url}/indexes/${uid}/documents?primaryKey=id`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(docs) })
  }
  await drained(server.url)
}

async function sentinelState(url: string): Promise<string> {
  const docs = await getJson(`${url}/indexes/${SENTINEL}/documents?limit=1000`)
  const settings = await getJson(`${url}/indexes/${SENTINEL}/settings`)
  return JSON.stringify([docs, settings])
}

function judge(outcome: Outcome): string | null {
  if (outcome.status !== null && outcome.status >= 500) return `answered ${outcome.status}`
  if (outcome.hung) return `no answer within the bound`
  return null
}

export async function fuzz(options: FuzzOptions): Promise<boolean> {
  const dbPath = mkdtempSync(join(tmpdir(), 'tessera-chaos-fuzz-'))
  const server = await startChaosServer(dbPath, ['--http-payload-size-limit', PAYLOAD_LIMIT])
  const port = Number(new URL(server.url).port)
  const failures: Failure[] = []
  try {
    await seed(server)
    if (options.replay !== null) {
      const input = fuzzInput(options.seed, options.replay)
      console.log(`input ${options.replay} of seed ${options.seed}: ${describe(input)}`)
      const outcome = await send(port, input)
      console.log(`outcome: ${JSON.stringify(outcome)}${judge(outcome) ? ` FAILURE: ${judge(outcome)}` : ''}`)
      return judge(outcome) === null
    }
    console.log(`fuzz: ${options.seconds} s, seed ${options.seed} (replay input I with --seed ${options.seed} --replay I)`)
    const before = await sentinelState(server.url)
    const deadline = Date.now() + options.seconds * 1000
    const statuses = new Map<string, number>()
    const inFlight = new Map<number, string>()
    const rss: number[] = [rssMb(server.launched.proc.pid!)]
    let next = 0
    let stop = false
    const stopped = () => stop || Date.now() > deadline || failures.length > 0
    const probe = (async () => {
      let lastSample = Date.now()
      while (!stopped()) {
        const started = Date.now()
        try {
          const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(STALL_MS) })
          if (res.status !== 200) failures.push({ index: null, what: `/health answered ${res.status}` })
        } catch {
          if (!stopped()) failures.push({ index: null, what: `/health stalled past ${STALL_MS} ms (${Date.now() - started} ms) with inputs in flight: ${[...inFlight.keys()].join(', ')}`, input: [...inFlight.values()].join('\n    ') })
        }
        if (Date.now() - lastSample > 5000) { rss.push(rssMb(server.launched.proc.pid!)); lastSample = Date.now() }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    })()
    const sender = async () => {
      while (!stopped()) {
        const index = next++
        const input = fuzzInput(options.seed, index)
        inFlight.set(index, describe(input))
        const outcome = await send(port, input)
        inFlight.delete(index)
        const key = outcome.status === null ? (outcome.note ?? 'none') : String(outcome.status)
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
        const bad = judge(outcome)
        if (bad) failures.push({ index, what: bad, input: describe(input) })
        if (!server.launched.isRunning()) failures.push({ index, what: 'the server exited', input: describe(input) })
      }
    }
    await Promise.all(Array.from({ length: SENDERS }, sender))
    stop = true
    await probe
    if (failures.length === 0) {
      await drained(server.url, 120_000).catch((err) => failures.push({ index: null, what: (err as Error).message }))
      if ((await sentinelState(server.url)) !== before) failures.push({ index: null, what: `the read-only index ${SENTINEL} changed` })
    }
    rss.push(rssMb(server.launched.proc.pid!))
    const histogram = [...statuses].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ')
    console.log(`fuzz: ${next} inputs in ${options.seconds} s; answers ${histogram}`)
    console.log(`fuzz: RSS ${rss[0]} MB at start, ${Math.max(...rss)} MB at most, ${rss[rss.length - 1]} MB at the end (samples every 5 s: ${rss.join(' ')})`)
  } finally {
    await server.kill9()
    if (failures.length === 0) rmSync(dbPath, { recursive: true, force: true })
  }
  if (failures.length > 0) {
    console.log(`fuzz FAILED (seed ${options.seed}; data kept in ${dbPath}):`)
    for (const f of failures.slice(0, 10)) console.log(`  input ${f.index ?? '-'}: ${f.what}${f.input ? `\n    ${f.input}` : ''}`)
    console.log(server.launched.logs().slice(-3000))
    return false
  }
  console.log('fuzz passed')
  return true
}
