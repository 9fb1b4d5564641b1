/**
 * A micro-measure of embedding throughput (not a test, no threshold), run with
 *   node --import @tapjs/typescript/import scripts/measure-embedders.ts
 *
 * 1. A `rest` embedder with Meilisearch's defaults (10 texts per request, 40 requests in flight) against the test
 *    embedding server answering after 20 ms, in a child process so the two do not share one event loop. The
 *    ceiling is concurrency × batch ÷ latency = 40 × 10 ÷ 0.02 s = 20 000 texts/s; on a loaded machine the server
 *    itself caps lower, so the same load is also sent with bare `node:http` (40 keep-alive sockets) as a baseline.
 * 2. `localHub` with the generated tiny BERT model (so: tokenizer, ONNX Runtime and pooling overhead, not a real
 *    model's arithmetic), one ONNX thread.
 */
import { fork } from 'node:child_process'
import * as http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEmbedder } from '../engine/embedders/index.js'
import { EmbeddingServer } from '../test/helpers/embedding-server.js'
import { writeTinyBertModel } from '../test/helpers/tiny-bert.js'

const LATENCY_MS = 20

if (process.argv[2] === '--serve') {
  const server = await EmbeddingServer.start({ latencyMs: LATENCY_MS, dimensions: 384 })
  process.send!(server.url)
  process.on('disconnect', () => void server.close().then(() => process.exit(0)))
} else {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', '@tapjs/typescript/import'] })
  const url = await new Promise<string>((resolve) => child.once('message', (m) => resolve(String(m))))
  const texts = Array.from({ length: 4_000 }, (_, i) => `document ${i} about a brave dog named kefir who likes intel chips`)
  const rest = await createEmbedder('bench', {
    source: 'rest', url: `${url}/batch`, dimensions: 384,
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  } as never, { allowedIpNetworks: ['127.0.0.0/8'] })
  const agent = new http.Agent({ keepAlive: true, maxSockets: 40 })
  const post = (body: string) => new Promise<void>((resolve, reject) => {
    const req = http.request(`${url}/batch`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(void JSON.parse(Buffer.concat(chunks).toString())))
    })
    req.on('error', reject).end(body)
  })
  const bodies = Array.from({ length: 400 }, (_, i) => JSON.stringify({ texts: texts.slice(i * 10, i * 10 + 10).map((text) => ({ text })) }))
  const baseline = async () => {
    const started = performance.now()
    await Promise.all(bodies.map(post))
    console.log(`bare node:http + JSON.parse, 4000 texts: ${Math.round(4_000 / ((performance.now() - started) / 1000))} texts/s`)
  }
  const ceiling = (40 * 10) / (LATENCY_MS / 1000)
  const measure = async () => {
    const started = performance.now()
    await rest.embedDocuments(texts)
    const rate = 4_000 / ((performance.now() - started) / 1000)
    console.log(`rest embedder, 4000 texts: ${Math.round(rate)} texts/s (ceiling ${ceiling}: ${Math.round((100 * rate) / ceiling)}%)`)
  }
  await rest.embedDocuments(texts.slice(0, 400))
  await baseline()
  await measure()
  await baseline()
  console.log('requests:', rest.requests.take())
  await rest.close()
  agent.destroy()
  child.disconnect()

  const models = await mkdtemp(join(tmpdir(), 'tessera-models-'))
  await writeTinyBertModel(models, 'tiny', { hidden: 384, inner: 64 })
  const hub = await createEmbedder('hub', { source: 'huggingFace', model: 'tiny', pooling: 'forceMean' } as never, { modelsPath: models })
  await hub.embedDocuments(texts.slice(0, 64))
  const started = performance.now()
  await hub.embedDocuments(texts.slice(0, 4_000))
  console.log(`localHub (tiny generated model, 384 dims, 1 ONNX thread): ${Math.round(4_000 / ((performance.now() - started) / 1000))} texts/s`)
  await hub.close()
  await rm(models, { recursive: true, force: true })
}
