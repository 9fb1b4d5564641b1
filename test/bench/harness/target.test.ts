/**
 * `--url` and `--api-key`: the HTTP scenarios measure a server that is already running (here behind a gate that
 * wants a key), leave its own indexes alone and delete theirs, and write their reports (small search and sweeps runs, end
 * to end through `tessera bench`).
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../../src/version.js'
import { call, nodeCommand, serverFor, tempDir, waitTask } from '../../helpers/server.js'

const BIN = join(PACKAGE_ROOT, 'bin', 'tessera.js')

function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const node = nodeCommand([BIN, 'bench', ...args])
    const child = spawn(node.command, node.args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d })
    child.stderr.on('data', (d: Buffer) => { stderr += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), 400_000)
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

const KEY = 'bench-api-key-0123456789'

/**
 * A gate in front of a Tessera server that wants `Authorization: Bearer KEY` on every request (401 otherwise) and
 * forwards the rest: Tessera does not enforce keys yet, so this is what proves the bench sends the key everywhere.
 */
async function keyedGate(t: { teardown(fn: () => unknown): void }, target: string): Promise<{ url: string; refused: () => number }> {
  const upstream = new URL(target)
  let refused = 0
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      refused++
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"The Authorization header is missing.","code":"missing_authorization_header","type":"auth","link":""}')
      req.resume()
      return
    }
    // A connection per request (agent: false): a pooled keep-alive socket the server closed while idle would reset
    // under a busy machine, and the gate would answer 502.
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    forward.on('error', () => res.writeHead(502).end())
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused: () => refused }
}

t.test('the search and sweeps scenarios against a running server that wants a key', async (t) => {
  t.setTimeout(500_000)
  const server = await serverFor(t)
  const gate = await keyedGate(t, server.url)
  const created = await call(`${server.url}/indexes`, { method: 'POST', json: { uid: 'mine', primaryKey: 'id' } })
  await waitTask(server.url, created.body.taskUid)
  const out = tempDir('tessera-bench-url-')
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const small = ['--search-docs', '2000', '--queries', '50', '--rounds', '1', '--qps-clients', '2', '--search-connections', '2', '--search-duration', '0.5', '--no-peers']
  const res = await bench(['--url', gate.url, '--api-key', KEY, '--only', 'search,sweeps', '--quick', ...small, '--out', out])
  t.equal(res.code, 0, res.stderr.slice(-2000))
  t.equal(gate.refused(), 0, 'every request carried the key')

  const sweeps = JSON.parse(readFileSync(join(out, 'sweeps.json'), 'utf8'))
  t.equal(sweeps.url, gate.url)
  t.equal(sweeps.result.remote, true)
  t.match(sweeps.result.indexUid, /^bench-sweeps-server-/, 'a uid of its own')
  t.equal(sweeps.result.peakRssMiB, null, 'the remote process is not measured')
  t.ok(sweeps.result.maxTotalHitsRows.length > 0)
  t.match(readFileSync(join(out, 'sweeps.md'), 'utf8'), /server http:\/\/127\.0\.0\.1:\d+ \(--url\)/)

  const search = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'))
  t.equal(search.search.indexing.ok, true)
  t.equal(search.search.indexing.numberOfDocuments, 2000)
  t.equal(search.search.latency.samples, 50, 'every search of the round answered')
  t.equal(search.search.qps.errors, 0)
  t.equal(search.search.inProcess.ok, false, 'no in-process part on a remote server')
  t.equal(search.search.memory.hwmMiB, null)

  const indexes = await call(`${server.url}/indexes`)
  t.same(indexes.body.results.map((i: { uid: string }) => i.uid), ['mine'], 'its own indexes deleted, the server\'s left alone')
})

t.test('without the key, the server refuses the bench, which fails', async (t) => {
  t.setTimeout(300_000)
  const server = await serverFor(t)
  const gate = await keyedGate(t, server.url)
  const out = tempDir('tessera-bench-url-')
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const res = await bench(['--url', gate.url, '--only', 'sweeps', '--quick', '--out', out])
  t.equal(res.code, 1)
  t.match(res.stderr, /SCENARIO FAILED/)
  t.ok(gate.refused() > 0)
})

t.test('--api-key without --url is a usage error', async (t) => {
  const res = await bench(['--api-key', KEY])
  t.equal(res.code, 2)
  t.match(res.stderr, /^error: --api-key goes with --url/)
})
