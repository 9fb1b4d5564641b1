/**
 * The stored form of a document's `_vectors` (configured embedders' entries taken out, milli's stored form), and
 * documents written before it (still carrying their `_vectors` as sent) reading back the same.
 */
import t from 'tap'
import { withoutEmbedderVectors } from '../../../engine/vectors/document.js'
import { shape } from '../../../engine/documents/read.js'

t.test('withoutEmbedderVectors', async (t) => {
  const embedders = { manual: {} }
  const only = { id: 'a', name: 'x', _vectors: { manual: [1, 0] } }
  t.same(withoutEmbedderVectors(only, embedders), { id: 'a', name: 'x' }, '`_vectors` goes when nothing is left')
  const mixed = { id: 'b', _vectors: { manual: { embeddings: [[1, 0]], regenerate: true }, other: [0.5] } }
  t.same(withoutEmbedderVectors(mixed, embedders), { id: 'b', _vectors: { other: [0.5] } }, 'names that are not embedders stay')
  const none = { id: 'c', _vectors: { other: null } }
  t.equal(withoutEmbedderVectors(none, embedders), none, 'nothing to take out: the same object')
  const plain = { id: 'd' }
  t.equal(withoutEmbedderVectors(plain, embedders), plain)
})

t.test('documents stored before read the same', async (t) => {
  const stored = { manual: { embeddings: [[1, 0]], regenerate: false } }
  const legacy = { id: 'a', title: 't', _vectors: { manual: [0, 1], other: [0.5] } }
  const current = { id: 'a', title: 't', _vectors: { other: [0.5] } }
  t.same(shape(legacy, null, true, stored), shape(current, null, true, stored), 'the store\'s vectors win over the ones left in the row')
  t.same(shape(legacy, null, true, stored)._vectors, { other: { embeddings: [[0.5]], regenerate: false }, manual: { embeddings: [[1, 0]], regenerate: false } })
  t.same(shape(legacy, null, false), { id: 'a', title: 't' })
})
