/**
 * What the access check costs a search (issue 16). Two servers on the same generated corpus, one without a master
 * key (no check at all) and one with, searched over keep-alive HTTP in alternating rounds with: no key, the master
 * key, a search API key and a tenant token (HS256, a filter-less rule, as most front ends use them). It reports the
 * QPS of each and its ratio to no auth, plus the check alone measured in-process (`Guard.check` per request) against
 * the mean time of one search. Self-contained: it runs the compiled service and needs nothing from the other
 * bench files.
 *
 *   node dist/bench/auth-keys.js [--docs N] [--seconds S] [--concurrency C]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Store } from '../engine/storage/index.js'
import { searchKey } from '../src/http/router.js'
import type { Request } from '../src/http/types.js'
import { Guard } from '../src/keys/guard.js'
import { KeyStore } from '../src/keys/key-store.js'

const MASTER_KEY = 'bench-master-key-of-32-bytes-...'
const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url))
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa']

export interface AuthModeResult {
  mode: 'no auth' | 'master key' | 'search key' | 'tenant token'
  qps: number
  /** QPS relative to no auth (1 = same). */
  ratio: number
}

export interface AuthBenchReport {
  docs: number
  concurrency: number
  modes: AuthModeResult[]
  /** Mean time of one search request at concurrency 1, without auth (µs). */
  searchMicros: number
  /** `Guard.check` alone, per request (µs), by credential. */
  checkMicros: Record<'master key' | 'search key' | 'tenant token', number>
}

interface Server { proc: ChildProcess; url: string; dir: string }

async function start(masterKey: string | null): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-auth-bench-'))
  const args = [MAIN, '--db-path', dir, '--http-addr', '127.0.0.1:0', '--log-level', 'ERROR', ...(masterKey ? ['--master-key', masterKey] : [])]
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    proc.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)))
  })
  return { proc, url, dir }
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((r) => server.proc.once('exit', r))
  server.proc.kill('SIGTERM')
  await exited
  rmSync(server.dir, { recursive: true, force: true })
}

async function api(server: Server, key: string | null, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method, headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : undefined
}

async function seed(server: Server, key: string | null, docs: number): Promise<void> {
  let state = 7
  const word = () => WORDS[(state = (state * 1103515245 + 12345) & 0x7fffffff) % WORDS.length]!
  const documents = Array.from({ length: docs }, (_, id) => ({ id, title: `${word()} ${word()} ${word()}`, body: Array.from({ length: 20 }, word).join(' ') }))
  const task = await api(server, key, 'POST', '/indexes/bench/documents', documents)
  for (;;) {
    const t = await api(server, key, 'GET', `/tasks/${task.taskUid}`)
    if (t.status === 'succeeded') return
    if (t.status === 'failed') throw new Error(JSON.stringify(t.error))
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Searches per second over `seconds`, `concurrency` requests in flight on keep-alive connections. */
async function load(server: Server, key: string | null, seconds: number, concurrency: number): Promise<{ qps: number; meanMicros: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const { hostname, port } = new URL(server.url)
  const deadline = performance.now() + seconds * 1000
  let done = 0
  let spent = 0
  const one = (n: number) => new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ q: WORDS[n % WORDS.length], limit: 10 })
    const started = performance.now()
    const req = request({ agent, hostname, port, method: 'POST', path: '/indexes/bench/search', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(key ? { authorization: `Bearer ${key}` } : {}) } }, (res) => {
      res.resume()
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`search: ${res.statusCode}`))
        spent += performance.now() - started
        resolve()
      })
    })
    req.on('error', reject)
    req.end(body)
  })
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    for (let n = w; performance.now() < deadline; n += concurrency) { await one(n); done++ }
  }))
  agent.destroy()
  return { qps: done / ((performance.now() - started) / 1000), meanMicros: (spent / done) * 1000 }
}

function tenantToken(uid: string, key: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ searchRules: { bench: null }, apiKeyUid: uid, exp: Math.floor(Date.now() / 1000) + 3600 })}`
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`
}

/** `Guard.check` alone, in this process, on a real key store: µs per check. */
async function checkCost(iterations: number): Promise<AuthBenchReport['checkMicros']> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-auth-bench-'))
  const store = await Store.open(dir)
  try {
    const keys = await KeyStore.open(store, MASTER_KEY)
    const guard = new Guard(keys)
    const search = keys.list().find((k) => k.name === 'Default Search API Key')!
    const value = keys.valueOf(search.uid)
    const credentials = { 'master key': MASTER_KEY, 'search key': value, 'tenant token': tenantToken(search.uid, value) }
    const out = {} as AuthBenchReport['checkMicros']
    for (const [mode, token] of Object.entries(credentials) as [keyof typeof credentials, string][]) {
      const req: Request = { method: 'POST', path: '/indexes/bench/search', rawQuery: '', headers: new Map([['authorization', `Bearer ${token}`]]), body: (async function* () {})() }
      for (let i = 0; i < 1000; i++) guard.check(req, searchKey, 'bench')
      const started = performance.now()
      for (let i = 0; i < iterations; i++) guard.check(req, searchKey, 'bench')
      out[mode] = ((performance.now() - started) * 1000) / iterations
    }
    return out
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchAuthKeys(options: { docs?: number; seconds?: number; concurrency?: number; rounds?: number } = {}): Promise<AuthBenchReport> {
  const docs = options.docs ?? 5000
  const seconds = options.seconds ?? 1.5
  const concurrency = options.concurrency ?? 4
  const rounds = options.rounds ?? 4
  const open = await start(null)
  const guarded = await start(MASTER_KEY)
  try {
    await seed(open, null, docs)
    await seed(guarded, MASTER_KEY, docs)
    const search = (await api(guarded, MASTER_KEY, 'GET', '/keys')).results.find((k: { name: string }) => k.name === 'Default Search API Key')
    const modes: [AuthModeResult['mode'], Server, string | null][] = [
      ['no auth', open, null], ['master key', guarded, MASTER_KEY], ['search key', guarded, search.key], ['tenant token', guarded, tenantToken(search.uid, search.key)],
    ]
    for (const [, server, key] of modes) await load(server, key, 0.3, concurrency) // warm-up
    const totals = new Map<string, number>()
    // Rounds alternate the modes so that drift (other load on the machine) spreads over all of them.
    for (let r = 0; r < rounds; r++) {
      // Each round starts with another mode, so none always runs first (or last).
      const order = [...modes.slice(r % modes.length), ...modes.slice(0, r % modes.length)]
      for (const [mode, server, key] of order) totals.set(mode, (totals.get(mode) ?? 0) + (await load(server, key, seconds, concurrency)).qps)
    }
    const base = totals.get('no auth')! / rounds
    const single = await load(open, null, seconds, 1)
    return {
      docs, concurrency,
      modes: modes.map(([mode]) => ({ mode, qps: totals.get(mode)! / rounds, ratio: totals.get(mode)! / rounds / base })),
      searchMicros: single.meanMicros,
      checkMicros: await checkCost(100_000),
    }
  } finally {
    await stop(open)
    await stop(guarded)
  }
}

export function formatAuthBench(report: AuthBenchReport): string {
  const lines = [`Search QPS by credential (${report.docs} documents, ${report.concurrency} in flight, keep-alive HTTP):`, '']
  lines.push('| credential | QPS | vs no auth |', '|---|---:|---:|')
  for (const m of report.modes) lines.push(`| ${m.mode} | ${m.qps.toFixed(0)} | ${(m.ratio * 100).toFixed(1)} % |`)
  lines.push('', `One search request (concurrency 1, no auth): ${report.searchMicros.toFixed(0)} µs.`, '', '| credential | Guard.check | share of a search |', '|---|---:|---:|')
  for (const [mode, micros] of Object.entries(report.checkMicros)) lines.push(`| ${mode} | ${micros.toFixed(2)} µs | ${((micros / report.searchMicros) * 100).toFixed(2)} % |`)
  return lines.join('\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : undefined }
  benchAuthKeys({ docs: arg('docs'), seconds: arg('seconds'), concurrency: arg('concurrency') })
    .then((report) => process.stdout.write(formatAuthBench(report) + '\n'))
    .catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1) })
}
