/**
 * Documents runs against a real server, through a proxy that counts the document POSTs in flight: the short run's
 * ten payloads go back to back (one at a time), the concurrent run's together; both index every document and read
 * the sampled ones back as sent.
 */
import t from 'tap'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { rmSync } from 'node:fs'
import type { BenchServer } from '../../../../bench/harness/server.js'
import { DEFAULT_DOCUMENTS_OPTIONS, type DocumentsOptions } from '../../../../bench/scenarios/documents/options.js'
import { runDocuments } from '../../../../bench/scenarios/documents/measure.js'
import { serverFor, tempDir } from '../../../helpers/server.js'

/** A proxy to `port` that records the most document POSTs it had in flight at once. */
async function countingProxy(t: { teardown(fn: () => unknown): void }, port: number): Promise<{ port: number; maxInFlight: () => number }> {
  let inFlight = 0
  let max = 0
  const proxy = createServer((req, res) => {
    const counted = req.method === 'POST' && /\/documents$/.test(req.url ?? '')
    if (counted) max = Math.max(max, ++inFlight)
    // Connection is hop-by-hop: the proxy's own connection to the server stays its business.
    const { connection: _hop, ...headers } = req.headers
    const forward = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
      up.on('end', () => { if (counted) inFlight-- })
    })
    forward.on('error', (err) => res.writeHead(502).end(String(err)))
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { proxy.closeAllConnections(); proxy.close(() => resolve()) }))
  return { port: (proxy.address() as AddressInfo).port, maxInFlight: () => max }
}

function benchServer(port: number, pid: number): BenchServer {
  return {
    adapter: 'uws', host: '127.0.0.1', port, url: `http://127.0.0.1:${port}`, dbPath: '', pid, headers: {},
    logs: () => '', isRunning: () => true, async stop() {}, async kill9() {},
  }
}

const options: DocumentsOptions = { ...DEFAULT_DOCUMENTS_OPTIONS, documents: 1000, shortDocuments: 1000, shortPayloads: 10, taskTimeoutMs: 60_000 }

for (const [kind, inFlight] of [['ndjson-short', 1], ['ndjson-10x', 10]] as const) {
  t.test(`${kind}: ${inFlight === 1 ? 'one payload at a time' : 'the payloads together'}, every document indexed and read back`, async (t) => {
    t.setTimeout(400_000)
    const server = await serverFor(t)
    const proxy = await countingProxy(t, server.port)
    const scratch = tempDir('tessera-bench-documents-')
    t.teardown(() => rmSync(scratch, { recursive: true, force: true }))
    const r = await runDocuments(kind, benchServer(proxy.port, server.proc.pid!), options, scratch)
    t.equal(r.ok, true, r.error ?? 'ok')
    t.equal(r.payloads, 10)
    t.equal(r.taskUids.length, 10)
    t.equal(r.numberOfDocuments, 1000)
    t.same([r.samplesChecked, r.samplesMatched], [4, 4])
    if (inFlight === 1) t.equal(proxy.maxInFlight(), 1, 'back to back: never two payloads in flight')
    else t.ok(proxy.maxInFlight() > 1, `concurrent: ${proxy.maxInFlight()} payloads in flight at once`)
  })
}
