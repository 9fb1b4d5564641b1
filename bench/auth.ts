/**
 * Area A bench: logins per second and authenticated `GET /api/users/me` per second against the real server
 * (its own process and data directory), with the raw keep-alive client of load.ts.
 *
 *   node dist/bench/auth.js [--connections 4] [--seconds 15] [--users 16]
 *
 * A login costs one PBKDF2 (Payload's 25,000 iterations of SHA-256 for a 512-byte key, ~0.25 s of one core)
 * plus a fsynced write of the new session, so logins/s is bounded by cores / 0.25 s; each connection logs in as
 * its own rotation of users, so no two in-flight logins share a derivation (identical concurrent checks are
 * computed once, which would flatter the figure). `me` verifies the JWT from the verified-token cache, checks the
 * session and reads the user: the figure is the HTTP path's.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { runLoad, type LoadResult } from './harness/load.js'
import { startServer } from './harness/server.js'

export interface AuthBenchOptions {
  connections: number
  seconds: number
  users: number
}

export interface AuthBenchReport {
  logins: LoadResult
  me: LoadResult
}

export async function runAuthBench(options: AuthBenchOptions): Promise<AuthBenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-auth-bench-'))
  const config = join(dir, 'auth.mjs')
  writeFileSync(config, "export default { secret: 'bench-secret', collections: [{ slug: 'users', auth: { maxLoginAttempts: 0 } }] }\n")
  const server = await startServer({ adapter: 'uws', args: ['--config', config] })
  try {
    const api = `${server.url}/api/users`
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>)
    const first = await post('/first-register', { email: 'user0@bench.test', password: 'bench-pass' })
    const admin = { authorization: `JWT ${first.token as string}` }
    for (let i = 1; i < options.users; i++) await post('', { email: `user${i}@bench.test`, password: 'bench-pass' }, admin)

    const base = { host: server.host, port: server.port, connections: options.connections, client: 'raw' as const, serverPid: server.pid, maxRequests: 1e9 }
    const logins = await runLoad({
      ...base, warmupMs: 2000, durationMs: options.seconds * 1000,
      request: (seq) => ({ method: 'POST', path: '/api/users/login', body: JSON.stringify({ email: `user${seq % options.users}@bench.test`, password: 'bench-pass' }) }),
      ok: (reply) => reply.status === 200,
    })
    const me = await runLoad({
      ...base, warmupMs: 1000, durationMs: Math.min(options.seconds, 10) * 1000, headers: admin,
      request: () => ({ method: 'GET', path: '/api/users/me' }),
      ok: (reply) => reply.status === 200 && reply.body.includes('"email":"user0@bench.test"'),
    })
    return { logins, me }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

function line(name: string, r: LoadResult): string {
  return `${name.padEnd(8)} ${r.requestsPerSecond.toFixed(1).padStart(9)}/s  p50 ${r.latencyMs.p50.toFixed(1)} ms  p99 ${r.latencyMs.p99.toFixed(1)} ms  ` +
    `errors ${r.errors}  server CPU ${r.serverCpuPercent?.toFixed(0) ?? '?'}%  other processes ${r.otherCpuPercent?.toFixed(0) ?? '?'}%`
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`)
    const value = i < 0 ? fallback : Number(process.argv[i + 1])
    if (!Number.isFinite(value) || value < 1) throw new Error(`--${name} must be a number from 1`)
    return value
  }
  const options = { connections: arg('connections', 4), seconds: arg('seconds', 15), users: arg('users', 16) }
  const report = await runAuthBench(options)
  process.stdout.write(`auth bench (${options.connections} connections, ${options.users} users)\n${line('login', report.logins)}\n${line('me', report.me)}\n`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`)
    process.exit(1)
  })
}
