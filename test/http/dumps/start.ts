/** Start-up that is expected to stop: run the service with `args` and return its exit status and stderr. */
import { spawn } from 'node:child_process'
import { MAIN, nodeCommand } from '../../helpers/server.js'

export function startExpectingExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const node = nodeCommand([MAIN, '--http-addr', '127.0.0.1:0', '--max-indexing-threads', '1', ...args])
    const proc = spawn(node.command, node.args, { env: { ...process.env, TESSERA_LOG_LEVEL: 'WARN' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let stdout = ''
    proc.stderr.on('data', (d) => { stderr += d })
    proc.stdout.on('data', (d) => {
      stdout += d
      // It started after all: stop it, the caller's assertion on the status fails.
      if (stdout.includes('listening')) proc.kill('SIGTERM')
    })
    proc.on('error', reject)
    proc.on('exit', (code) => resolve({ code, stderr }))
  })
}
