/** The chaos runs' server: the compiled service on one data directory, killed and restarted at will. */
import { spawn } from 'node:child_process'
import { ALLOCATOR_ENV, launch, MAIN, nodeCommand, type Launched } from '../bench/harness/server.js'

export interface ChaosServer {
  url: string
  launched: Launched
  kill9(): Promise<void>
}

export const SERVER_ENV = { TESSERA_LOG_LEVEL: 'ERROR' }

export async function startChaosServer(dbPath: string, extra: string[] = [], env: Record<string, string> = {}): Promise<ChaosServer> {
  const launched = await launch(['--db-path', dbPath, '--max-indexing-threads', '2', ...extra], { ...SERVER_ENV, ...env }, 60_000)
  return {
    url: `http://127.0.0.1:${launched.port}`,
    launched,
    async kill9() {
      if (launched.isRunning()) launched.proc.kill('SIGKILL')
      await launched.exited
    },
  }
}

/** Start the service and `kill -9` it `afterMs` later, whatever it is doing (opening the database, recovering). */
export async function killDuringStartup(dbPath: string, afterMs: number): Promise<void> {
  const node = nodeCommand([MAIN, '--db-path', dbPath, '--http-addr', '127.0.0.1:0'])
  const proc = spawn(node.command, node.args, { env: { ...ALLOCATOR_ENV, ...process.env, ...SERVER_ENV }, stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  await new Promise((resolve) => setTimeout(resolve, afterMs))
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
  await exited
}

/** GET a JSON resource (null on 404). */
export async function getJson(url: string): Promise<any> {
  const res = await fetch(url)
  if (res.status === 404) return null
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: await res.json().catch(() => null) }
}

/** Every task with a uid above `afterUid`, oldest first. */
export async function tasksAfter(url: string, afterUid: number): Promise<any[]> {
  const out: any[] = []
  let from: number | null = null
  for (;;) {
    const page: any = await getJson(`${url}/tasks?limit=1000${from === null ? '' : `&from=${from}`}`)
    out.push(...page.results.filter((t: any) => t.uid > afterUid))
    if (page.next === null || page.next === undefined || page.next <= afterUid) break
    from = page.next
  }
  return out.reverse()
}

/** Wait until no task is enqueued or processing (at most `timeoutMs`: a stuck queue is a failure). */
export async function drained(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const page = await getJson(`${url}/tasks?statuses=enqueued,processing&limit=1`)
    if (page.total === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`tasks still pending after ${timeoutMs} ms`)
}
