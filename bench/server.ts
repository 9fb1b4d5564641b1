/**
 * Benchmark harness: run the compiled service (dist/src/main.js, built by `prebench`) as a separate process
 * on a free loopback port, and stop it again. Each scenario gets its own process and, unless told otherwise,
 * its own fresh data directory, so no scenario inherits another's tasks, indexes or warm caches.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export type Adapter = 'uws' | 'node'

/** The repository root: this file runs from dist/bench/server.js. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const MAIN = join(ROOT, 'dist', 'src', 'main.js')

export interface BenchServer {
  adapter: Adapter
  host: string
  port: number
  url: string
  dbPath: string
  pid: number
  /** Everything the server wrote to stderr so far (WARN and ERROR logs). */
  logs(): string
  /** SIGTERM (SIGKILL after `graceMs`), wait for the exit; remove the data directory unless `keepData`. */
  stop(options?: { keepData?: boolean; graceMs?: number }): Promise<void>
  /** SIGKILL (a crash: no graceful shutdown) and wait for the exit. Keeps the data directory. */
  kill9(): Promise<void>
}

export interface StartOptions {
  adapter: Adapter
  /** Reuse a data directory (e.g. to restart after kill9); by default a fresh temporary one. */
  dbPath?: string
  /** Extra command-line flags for the server. */
  args?: string[]
  startTimeoutMs?: number
}

export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'tessera-bench-'))
}

export async function startServer(options: StartOptions): Promise<BenchServer> {
  const dbPath = options.dbPath ?? freshDataDir()
  const args = [MAIN, '--http-addr', '127.0.0.1:0', '--db-path', dbPath, '--http-adapter', options.adapter, '--log-level', 'WARN', ...(options.args ?? [])]
  const proc: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const isRunning = () => proc.exitCode === null && proc.signalCode === null

  let port: number
  try {
    port = await new Promise<number>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`server (${options.adapter}) did not start within ${options.startTimeoutMs ?? 20_000} ms:\n${stderr}`)), options.startTimeoutMs ?? 20_000)
      proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d
        const m = /listening on http:\/\/[^\s]*:(\d+)/.exec(out)
        if (m) { clearTimeout(timer); resolve(Number(m[1])) }
      })
      proc.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`server (${options.adapter}) exited during start-up (${code ?? signal}):\n${stderr}`)) })
    })
  } catch (err) {
    if (isRunning()) proc.kill('SIGKILL')
    await exited
    if (!options.dbPath) rmSync(dbPath, { recursive: true, force: true })
    throw err
  }
  // Keep reading stdout so the pipe never fills up and blocks the server.
  proc.stdout!.resume()

  return {
    adapter: options.adapter,
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    dbPath,
    pid: proc.pid!,
    logs: () => stderr,
    async stop({ keepData = false, graceMs = 10_000 } = {}) {
      if (isRunning()) {
        proc.kill('SIGTERM')
        const timer = setTimeout(() => { if (isRunning()) proc.kill('SIGKILL') }, graceMs)
        await exited
        clearTimeout(timer)
      }
      if (!keepData) rmSync(dbPath, { recursive: true, force: true })
    },
    async kill9() {
      if (isRunning()) proc.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * CPU time (user + system, in ms) the process has used so far, from /proc (Linux). Includes all of its threads
 * (libuv, RocksDB, worker pool). Null where /proc is unavailable.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may contain spaces; the fields after its closing parenthesis are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the file, i.e. 11 and 12 after the name; in clock ticks,
    // which are 100 per second on every Linux this runs on (USER_HZ).
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : null
  } catch {
    return null
  }
}

/**
 * CPU time (ms, summed over all cores) the whole machine has spent busy so far, from /proc/stat: everything
 * but idle and iowait. With processCpuMs it tells how much CPU other processes took during a window.
 */
export function systemBusyMs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number)
    if (f.length < 8 || f.some((n) => !Number.isFinite(n))) return null
    const [user, nice, system, , , irq, softirq, steal] = f as [number, number, number, number, number, number, number, number]
    return (user + nice + system + irq + softirq + steal) * 10
  } catch {
    return null
  }
}
