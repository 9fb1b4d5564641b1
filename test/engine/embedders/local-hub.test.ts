// `localHub` end to end with a generated BERT-shaped ONNX model (no network): the model loads through
// transformers.js, and the three pooling settings give the vectors computed by hand from the weights.
import t, { type Test } from 'tap'
import { join } from 'node:path'
import { createEmbedder, type Embedder } from '../../../engine/embedders/index.js'
import { tinyBertHiddenStates, tinyBertTokenIds, writeTinyBertModel, type TinyBert } from '../../helpers/tiny-bert.js'

const models = t.testdir({})
let model: TinyBert
let clsModel: TinyBert
const open: Embedder[] = []

t.before(async () => {
  model = await writeTinyBertModel(models, 'tessera/tiny-bert')
  clsModel = await writeTinyBertModel(models, 'tessera/tiny-bert-cls', { pooling: 'cls', seed: 11 })
})
t.teardown(async () => {
  await Promise.all(open.map((e) => e.close()))
})

async function make(settings: Record<string, unknown>): Promise<Embedder> {
  const embedder = await createEmbedder('hf', { source: 'huggingFace', model: 'tessera/tiny-bert', ...settings } as never, { modelsPath: models })
  open.push(embedder)
  return embedder
}

const mean = (rows: number[][]) => rows[0]!.map((_, j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length)

function near(t: Test, actual: Float32Array, expected: number[], message: string): void {
  t.equal(actual.length, expected.length, `${message}: length`)
  const worst = Math.max(...expected.map((x, j) => Math.abs(x - actual[j]!)))
  t.ok(worst < 1e-5, `${message}: max difference ${worst}`)
}

const TEXTS = ['Hello world!', 'a brave dog runs', 'The cat is good, the dog is good.', 'kefir']

t.test('the generator and the tokenizer agree on token ids', async (t) => {
  t.same(tinyBertTokenIds(model, 'a brave dog runs'), [2, 7, 8, 9, 19, 17, 3])
})

t.test('forceMean: the mean of the token states', async (t) => {
  const embedder = await make({ pooling: 'forceMean' })
  t.equal(embedder.dimensions, 8)
  const vectors = await embedder.embedDocuments(TEXTS)
  TEXTS.forEach((text, i) => near(t, vectors[i]!, mean(tinyBertHiddenStates(model, text)), text))
  near(t, await embedder.embedQuery('a brave dog runs'), mean(tinyBertHiddenStates(model, 'a brave dog runs')), 'query')
})

t.test('forceCls: the state of [CLS]', async (t) => {
  const embedder = await make({ pooling: 'forceCls' })
  const vectors = await embedder.embedDocuments(TEXTS)
  TEXTS.forEach((text, i) => near(t, vectors[i]!, tinyBertHiddenStates(model, text)[0]!, text))
})

t.test("useModel: the model's pooling file, mean when it has none", async (t) => {
  const meanByDefault = await make({ pooling: 'useModel' })
  near(t, (await meanByDefault.embedDocuments(['a brave dog']))[0]!, mean(tinyBertHiddenStates(model, 'a brave dog')), 'no 1_Pooling: mean')
  const cls = await make({ model: 'tessera/tiny-bert-cls' })
  near(t, (await cls.embedDocuments(['a brave dog']))[0]!, tinyBertHiddenStates(clsModel, 'a brave dog')[0]!, '1_Pooling says cls')
  const forced = await make({ model: 'tessera/tiny-bert-cls', pooling: 'forceMean' })
  near(t, (await forced.embedDocuments(['a brave dog']))[0]!, mean(tinyBertHiddenStates(clsModel, 'a brave dog')), 'forceMean overrides it')
})

t.test('padding in a batch does not change a vector', async (t) => {
  const embedder = await make({ pooling: 'forceMean' })
  const long = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? 'kefir' : 'the good dog runs and the cat is good too'))
  const together = await embedder.embedDocuments(long)
  for (let i = 0; i < long.length; i += 7) near(t, together[i]!, Array.from((await embedder.embedDocuments([long[i]!]))[0]!), `text ${i}`)
})

t.test('a missing model is a clear error naming the folder', async (t) => {
  const dir = join(models, 'nobody/nothing')
  await t.rejects(createEmbedder('hf', { source: 'huggingFace', model: 'nobody/nothing' } as never, { modelsPath: models }), {
    code: 'vector_embedding_error',
    message: `Error while generating embeddings: user error: model \`nobody/nothing\` not found: no \`config.json\` in \`${dir}\`\n  - Note: models are not downloaded; put the model's \`config.json\`, \`tokenizer.json\` and \`onnx/model.onnx\` in \`${dir}\` (the folder \`--models-dir\` names)`,
  })
})

t.test('a canceled call stops before the next model run', async (t) => {
  const embedder = await make({})
  const controller = new AbortController()
  controller.abort(new Error('task canceled'))
  await t.rejects(embedder.embedDocuments(TEXTS, { signal: controller.signal }), { message: 'task canceled' })
})
