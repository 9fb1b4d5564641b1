/**
 * `--url`: the HTTP scenarios measure a server that is already running, leave its own indexes alone and delete
 * theirs, and write their report (the sweeps scenario, small, end to end through `tessera bench`).
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../src/version.js'
import { call, serverFor, tempDir, waitTask } from '../helpers/server.js'

const BIN = join(PACKAGE_ROOT, 'bin', 'tessera.js')

function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'bench', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    child.stderr.on('data', (d: Buffer) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000)
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

t.test('the sweeps scenario against a running server', async (t) => {
  t.setTimeout(110_000)
  const server = await serverFor(t)
  const created = await call(`${server.url}/indexes`, { method: 'POST', json: { uid: 'mine', primaryKey: 'id' } })
  await waitTask(server.url, created.body.taskUid)
  const out = tempDir('tessera-bench-url-')
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const res = await bench(['--url', server.url, '--only', 'sweeps', '--quick', '--out', out])
  t.equal(res.code, 0, res.stderr.slice(-2000))
  const report = JSON.parse(readFileSync(join(out, 'sweeps.json'), 'utf8'))
  t.equal(report.url, server.url)
  t.equal(report.result.remote, true)
  t.match(report.result.indexUid, /^bench-sweeps-server-/, 'a uid of its own')
  t.equal(report.result.peakRssMiB, null, 'the remote process is not measured')
  t.ok(report.result.maxTotalHitsRows.length > 0)
  t.match(readFileSync(join(out, 'sweeps.md'), 'utf8'), /server http:\/\/127\.0\.0\.1:\d+ \(--url\)/)
  const indexes = await call(`${server.url}/indexes`)
  t.same(indexes.body.results.map((i: { uid: string }) => i.uid), ['mine'], 'its own index deleted, the server\'s left alone')
})
