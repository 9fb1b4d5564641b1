// Embedders built inside worker threads from plain data, as the pool will: a remote one and a local model, two
// threads at once (transformers.js keeps its options per thread).
import t from 'tap'
import { Worker } from 'node:worker_threads'
import { siblingModule } from '../../../engine/util/module-path.js'
import { EmbeddingServer, embedText } from '../../helpers/embedding-server.js'
import { tinyBertHiddenStates, writeTinyBertModel } from '../../helpers/tiny-bert.js'

interface Reply { vectors?: Float32Array[]; dimensions?: number; reused?: boolean; requests?: { total: number }; error?: string }

function inWorker(data: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(siblingModule(import.meta.url, '../../helpers/embed-worker'), { workerData: data })
    worker.once('message', (reply: Reply) => {
      void worker.terminate()
      resolve(reply)
    })
    worker.once('error', reject)
  })
}

t.test('rest and localHub embedders work in worker threads', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(() => server.close())
  const models = t.testdir({})
  const model = await writeTinyBertModel(models, 'tiny')
  const texts = ['a brave dog', 'kefir']
  const rest = {
    name: 'rest', texts, runtime: { allowedIpNetworks: ['127.0.0.0/8'] },
    settings: { source: 'rest', url: `${server.url}/batch`, request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] } },
  }
  const hub = { name: 'hub', texts, runtime: { modelsPath: models }, settings: { source: 'huggingFace', model: 'tiny', pooling: 'forceCls' } }
  const [remote, local] = await Promise.all([inWorker(rest), inWorker(hub)])
  t.equal(remote.error, undefined)
  t.equal(remote.dimensions, 8)
  t.ok(remote.reused, 'the registry keeps the embedder across jobs')
  t.same(remote.vectors!.map((v) => Array.from(v, (x) => Math.round(x * 1e6) / 1e6)), texts.map((x) => embedText(x, 8)))
  t.equal(remote.requests!.total, 2, 'the probe and one batch')
  t.equal(local.error, undefined)
  texts.forEach((text, i) => {
    const expected = tinyBertHiddenStates(model, text)[0]!
    t.ok(expected.every((x, j) => Math.abs(x - local.vectors![i]![j]!) < 1e-5), text)
  })
})
