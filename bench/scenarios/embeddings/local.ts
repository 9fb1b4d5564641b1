/**
 * Local-model throughput: documents per second embedded by a `huggingFace` (localHub) embedder running the
 * generated BERT-shaped ONNX model of the tests (test/helpers/tiny-bert.ts) in the worker pool, one ONNX thread per
 * worker, with 1 and then 2 pool threads. Each setting runs `runs` times (the median is reported), twice over: the
 * whole addition task through a fresh server (parsing, embedding, the HNSW graph, the commit), and the generation
 * alone in this process (`generateAll` through a worker pool of that size: texts/s per worker).
 *
 * The model is a lookup, one projection and tanh: the figures measure what Tessera adds around a model
 * (tokenizing, the pool, pooling, storing vectors and their graph), not a real model's inference, which would
 * dominate and scale with the threads given to it.
 */
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { launch } from '../../harness/server.js'
import { generateAll } from '../../../engine/embedders/index.js'
import { embeddingRunner } from '../../../engine/pool/jobs.js'
import { createWorkerPool } from '../../../workers/pool.js'
import { writeTinyBertModel } from '../../../test/helpers/tiny-bert.js'
import { call as request } from '../../harness/requests.js'
import { waitTask } from '../../harness/task-wait.js'

/** Vector length of the generated model (that of common small sentence models). */
export const LOCAL_HIDDEN = 384
const WORDS = ['hello', 'world', 'a', 'brave', 'dog', 'cat', 'the', 'test', 'kefir', 'intel', 'is', 'good', 'run', 'sample', 'text', 'river', 'mountain', 'forest', 'city', 'ocean']

export interface LocalRun {
  threads: number
  /** Documents per second of each run of the whole task, in run order. */
  runs: number[]
  median: number
  /** Texts per second of each run of the generation alone, in run order. */
  generationRuns: number[]
  generationMedian: number
}

/** The generation alone: `documents` texts through a pool of `threads` workers, in texts/s. */
async function generationRate(models: string, threads: number, documents: number, run: number): Promise<number> {
  const pool = createWorkerPool(threads)
  try {
    const settings = { source: 'huggingFace', model: 'tiny', pooling: 'forceMean', documentTemplate: '{{doc.text}}' }
    const input = (docs: { id: number; text: string }[]) => ({
      indexUid: 'bench', docs, ids: docs.map((d) => String(d.id)), embedders: { local: { settings: settings as never } }, runtime: { modelsPath: models },
    })
    const options = { signal: new AbortController().signal, parallel: threads }
    // Every worker loads the model before the clock starts (a chunk per thread).
    await generateAll(input(Array.from({ length: 64 * threads }, (_, i) => ({ id: i, text: text(i) }))), embeddingRunner(pool), options)
    const docs = Array.from({ length: documents }, (_, i) => ({ id: i, text: text(i + (run + 7) * documents) }))
    const started = performance.now()
    const out = await generateAll(input(docs), embeddingRunner(pool), options)
    const seconds = (performance.now() - started) / 1000
    if (out.error) throw new Error(`local model generation: ${out.error.message}`)
    return documents / seconds
  } finally {
    await pool.close()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
/** Twelve words of the model's vocabulary per document, varied by its number. */
const text = (i: number) => Array.from({ length: 12 }, (_, k) => WORDS[(i * 7 + k * 13 + (i >> k)) % WORDS.length]).join(' ')

export async function localModelThroughput(dataParent: string, documents: number, runs: number, log: (s: string) => void): Promise<LocalRun[]> {
  const models = mkdtempSync(join(dataParent, 'models-'))
  await writeTinyBertModel(models, 'tiny', { hidden: LOCAL_HIDDEN, inner: 64, words: WORDS })
  const out: LocalRun[] = []
  for (const threads of [1, 2]) {
    const dir = mkdtempSync(join(dataParent, `local-${threads}-`))
    const server = await launch(['--db-path', dir, '--max-indexing-threads', String(threads), '--models-dir', models], { TESSERA_LOG_LEVEL: 'WARN' })
    const url = `http://127.0.0.1:${server.port}`
    const endpoint = { url }
    const call = async (method: string, path: string, body?: unknown) => (await request(endpoint, method, path, body)).body
    const wait = (uid: number) => waitTask(endpoint, uid)
    try {
      const rates: number[] = []
      for (let run = 0; run < runs; run++) {
        const uid = `local${run}`
        const embedder = { source: 'huggingFace', model: 'tiny', pooling: 'forceMean', documentTemplate: '{{doc.text}}' }
        const set = await wait((await call('PATCH', `/indexes/${uid}/settings`, { embedders: { local: embedder } })).taskUid)
        if (set.status !== 'succeeded') throw new Error(`local model settings: ${JSON.stringify(set.error)}`)
        const docs = Array.from({ length: documents }, (_, i) => ({ id: i, text: text(i + run * documents) }))
        const started = performance.now()
        const task = await wait((await call('POST', `/indexes/${uid}/documents`, docs)).taskUid)
        const seconds = (performance.now() - started) / 1000
        if (task.status !== 'succeeded') throw new Error(`local model documents: ${JSON.stringify(task.error)}`)
        rates.push(documents / seconds)
        log(`embeddings: local model, ${threads} pool thread(s), run ${run + 1}: ${Math.round(documents / seconds)} documents/s`)
      }
      const generation: number[] = []
      for (let run = 0; run < runs; run++) {
        generation.push(await generationRate(models, threads, documents, run))
        log(`embeddings: local model, generation alone, ${threads} worker(s), run ${run + 1}: ${Math.round(generation.at(-1)!)} texts/s`)
      }
      out.push({ threads, runs: rates, median: median(rates), generationRuns: generation, generationMedian: median(generation) })
    } finally {
      server.proc.kill('SIGTERM')
      await server.exited
    }
  }
  return out
}
