/**
 * A worker-thread entry for tests: builds the embedder it is sent (plain settings and runtime data), embeds the
 * texts, and posts back the vectors (transferred) and the request counts.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { embedderFor } from '../../engine/embedders/index.js'

const { name, settings, runtime, texts } = workerData as { name: string; settings: never; runtime: never; texts: string[] }
try {
  const embedder = await embedderFor('index', name, settings, runtime)
  const vectors = await embedder.embedDocuments(texts)
  const again = await embedderFor('index', name, settings, runtime)
  parentPort!.postMessage({ vectors, dimensions: embedder.dimensions, reused: again === embedder, requests: embedder.requests.take() }, vectors.map((v) => v.buffer as ArrayBuffer))
  await embedder.close()
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message })
}
