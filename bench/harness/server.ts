/**
 * Benchmark harness: run the compiled service (dist/src/main.js, built by `prebench`) as a separate process
 * on a free loopback port, and stop it again. Each scenario gets its own process and, unless told otherwise,
 * its own fresh data directory, so no scenario inherits another's tasks, indexes or warm caches.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../src/version.js'

export type Adapter = 'uws' | 'node'

/** The repository root (from bench/harness/ under the test runner, or dist/bench/harness/ when compiled). */
export const ROOT = PACKAGE_ROOT
export const MAIN = join(ROOT, 'dist', 'src', 'main.js')

/**
 * The allocator setting `npm start` runs the service with (package.json's `start` script sets the same): glibc's
 * threshold for serving an allocation with its own mapping fixed at 1 MB. Left dynamic, glibc raises it after each
 * large block is freed, so later large buffers come from the heap and what they free stays in the process (README,
 * "Memory under a stream of writes"). The bench and the chaos runs measure the service as `npm start` runs it; a
 * variable already set in the environment wins.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '1048576' }

/**
 * The command that runs `node args` for a server (or bench) under test. Under tap, its process tracker
 * (@tapjs/processinfo) adds itself to the NODE_OPTIONS of every child spawned, and in a server it then hooks every
 * module load of every thread: a start-up and stop costs ~4.4 s of CPU instead of ~1.6 s, and the suite starts
 * ~280 servers. Coverage is off, so the tracker records nothing we use: such children are started through
 * `env -u NODE_OPTIONS`, which execs node (same pid) without it. Outside tap the command is node itself.
 */
export function nodeCommand(args: string[]): { command: string; args: string[] } {
  if (process.env._TAPJS_PROCESSINFO_ROOT_ === undefined) return { command: process.execPath, args }
  return { command: 'env', args: ['-u', 'NODE_OPTIONS', process.execPath, ...args] }
}

export interface Launched {
  proc: ChildProcess
  port: number
  /** Everything the process wrote to stderr so far. */
  logs(): string
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  isRunning(): boolean
}

/**
 * Start the compiled service with `args` and wait for its "listening on" line (it is given `--http-addr
 * 127.0.0.1:0`, so the port is free by construction). Shared by the bench and the test harness. The start-up bound
 * is generous: a loaded machine (the test suite beside CPU hogs) took over 20 s to start a server.
 */
export async function launch(args: string[], env: Record<string, string> = {}, startTimeoutMs = 120_000, nodeArgs: string[] = []): Promise<Launched> {
  const node = nodeCommand([...nodeArgs, MAIN, '--http-addr', '127.0.0.1:0', ...args])
  const proc: ChildProcess = spawn(node.command, node.args, { env: { ...ALLOCATOR_ENV, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  const isRunning = () => proc.exitCode === null && proc.signalCode === null
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`server did not start within ${startTimeoutMs} ms:\n${stderr}`)), startTimeoutMs)
      proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d
        const m = /listening on http:\/\/[^\s]*:(\d+)/.exec(out)
        if (m) { clearTimeout(timer); resolve(Number(m[1])) }
      })
      proc.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`server exited during start-up (${code ?? signal}):\n${stderr}`)) })
    })
    // Keep reading stdout so the pipe never fills up and blocks the server.
    proc.stdout!.resume()
    return { proc, port, logs: () => stderr, exited, isRunning }
  } catch (err) {
    if (isRunning()) proc.kill('SIGKILL')
    await exited
    throw err
  }
}

export interface BenchServer {
  adapter: Adapter
  host: string
  port: number
  url: string
  dbPath: string
  pid: number
  /** Everything the server wrote to stderr so far (WARN and ERROR logs). */
  logs(): string
  /** Whether the process is still running. */
  isRunning(): boolean
  /** An already running server given with `--url` (see remoteServer). */
  remote?: boolean
  /** Headers every request carries (`--api-key`: authorization). */
  headers?: Record<string, string>
  /** SIGTERM (SIGKILL after `graceMs`), wait for the exit; remove the data directory unless `keepData`. */
  stop(options?: { keepData?: boolean; graceMs?: number }): Promise<void>
  /** SIGKILL (a crash: no graceful shutdown) and wait for the exit. Keeps the data directory. */
  kill9(): Promise<void>
}

/** Server flags of the scenarios that index large corpora: payloads above the default 100 MB limit are accepted. */
export const LARGE_PAYLOAD_SERVER_ARGS = ['--http-payload-size-limit', '2 GiB']

export interface StartOptions {
  adapter: Adapter
  /** Reuse a data directory (e.g. to restart after kill9); by default a fresh temporary one. */
  dbPath?: string
  /** Extra command-line flags for the server. */
  args?: string[]
  /** Extra environment variables for the server. */
  env?: Record<string, string>
  /** Flags for node itself, before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[]
  startTimeoutMs?: number
}

/**
 * An already running server (`--url`), as a BenchServer: the bench sees no process (pid -1: every /proc reading
 * answers null) and no data directory (empty `dbPath`); stopping it does nothing.
 */
export function remoteServer(url: string, apiKey: string | null = null): BenchServer {
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:') throw new Error(`--url: only http:// servers can be measured, got \`${url}\``)
  return {
    adapter: 'uws', host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 80), url: `${parsed.origin}`,
    dbPath: '', pid: -1, remote: true, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    logs: () => '',
    isRunning: () => true,
    async stop() { /* not ours to stop */ },
    async kill9() { throw new Error('a remote server cannot be killed by the bench') },
  }
}

export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'tessera-bench-'))
}

export async function startServer(options: StartOptions): Promise<BenchServer> {
  const dbPath = options.dbPath ?? freshDataDir()
  let launched: Launched
  try {
    launched = await launch(['--db-path', dbPath, '--http-adapter', options.adapter, '--log-level', 'WARN', ...(options.args ?? [])], options.env ?? {}, options.startTimeoutMs, options.nodeArgs)
  } catch (err) {
    if (!options.dbPath) rmSync(dbPath, { recursive: true, force: true })
    throw new Error(`(${options.adapter}) ${(err as Error).message}`)
  }
  const { proc, port, exited, isRunning } = launched

  return {
    adapter: options.adapter,
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    dbPath,
    pid: proc.pid!,
    logs: launched.logs,
    isRunning,
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

/** The server's stderr minus the expected start-up warning, last 20 lines; undefined if nothing is left. */
export function unexpectedLogs(logs: string): string | undefined {
  const lines = logs.split('\n').filter((l) => l.trim() && !l.includes('no master key is set'))
  return lines.length > 0 ? lines.slice(-20).join('\n') : undefined
}
