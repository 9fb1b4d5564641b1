// What a change of an embedder's settings re-embeds (engine/indexing/generate-vectors.ts `reembedding`), as
// Meilisearch's reindex actions decide it.
import t from 'tap'
import { reembedding } from '../../../engine/indexing/generate-vectors.js'

const rest = { source: 'rest', url: 'http://x/e', request: { t: '{{text}}' }, response: { e: '{{embedding}}' }, documentTemplate: '{{doc.a}}', documentTemplateMaxBytes: 400 }

t.test('new embedders and changes of what produces vectors re-embed everything', async (t) => {
  t.equal(reembedding(undefined, rest), 'all')
  t.equal(reembedding(rest, { ...rest, url: 'http://y/e' }), 'all')
  t.equal(reembedding(rest, { ...rest, request: { u: '{{text}}' } }), 'all')
  t.equal(reembedding(rest, { ...rest, dimensions: 3 }), 'all')
  t.equal(reembedding(rest, { ...rest, source: 'ollama', model: 'm' }), 'all')
  t.equal(reembedding({ source: 'huggingFace', model: 'a' }, { source: 'huggingFace', model: 'a', pooling: 'forceCls' }), 'all')
})

t.test('template changes re-embed the documents whose text changed; the rest nothing', async (t) => {
  t.equal(reembedding(rest, { ...rest, documentTemplate: '{{doc.b}}' }), 'changedTexts')
  t.equal(reembedding(rest, { ...rest, documentTemplateMaxBytes: 100 }), 'changedTexts')
  t.equal(reembedding(rest, { ...rest, apiKey: 'k', headers: { a: 'b' }, distribution: { mean: 0.5, sigma: 0.1 }, batchSize: 3 }), 'none')
  t.equal(reembedding(rest, { ...rest, source: 'rest' }), 'none')
  t.equal(reembedding({ source: 'userProvided', dimensions: 2 }, { source: 'userProvided', dimensions: 3 }), 'none', 'userProvided never generates')
  t.equal(reembedding({ source: 'openAi', model: 'text-embedding-3-small' }, { source: 'openAi', model: 'text-embedding-3-small', binaryQuantized: true }), 'none', 'quantizing converts, it does not re-embed')
})
