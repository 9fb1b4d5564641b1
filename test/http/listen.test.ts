/**
 * A port in use is refused (noticed while building the chaos harness, issue 17): uWS sets SO_REUSEPORT unless told
 * otherwise, and a second server started on a taken port used to listen too, the kernel spreading connections
 * over both. Now it exits with an error, as Meilisearch does, with either adapter.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { MAIN, nodeCommand, serverFor, tempDir } from '../helpers/server.js'

function runSecond(port: number, adapter: string): Promise<{ code: number | null; output: string }> {
  const dbPath = tempDir()
  return new Promise((resolve) => {
    const node = nodeCommand([MAIN, '--db-path', dbPath, '--http-addr', `127.0.0.1:${port}`, '--http-adapter', adapter])
    const proc = spawn(node.command, node.args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    proc.stdout.on('data', (d) => { output += d; if (/listening on/.test(output)) proc.kill('SIGKILL') })
    proc.stderr.on('data', (d) => { output += d })
    proc.on('exit', (code) => { rmSync(dbPath, { recursive: true, force: true }); resolve({ code, output }) })
  })
}

for (const adapter of ['uws', 'node']) {
  t.test(`a second server on a port in use exits (${adapter})`, async (t) => {
    const first = await serverFor(t, { adapter: adapter as 'uws' | 'node' })
    const second = await runSecond(first.port, adapter)
    t.notMatch(second.output, /listening on/, 'it never listens')
    t.not(second.code, 0, `it exits with an error: ${second.output.split('\n').filter(Boolean).slice(-1)[0]}`)
  })
}
