/** The vector store's row encoding, the shortest f32 printing and the distribution shift. */
import t from 'tap'
import { decodeEntry, encodeEntry, parseKey, rowKey, spaceKey } from '../../../engine/vectors/codec.js'
import { quantize, quantize8 } from '../../../engine/vectors/distance.js'
import { f32 } from '../../../engine/vectors/output.js'
import { shiftScore } from '../../../engine/search/semantic.js'

t.test('rows round-trip', async (t) => {
  const v = [Float32Array.from([0.1, -2, 3.5]), Float32Array.from([1, 0, -1])]
  const float = decodeEntry(encodeEntry({ vectors: v, packed: [], int8: [], userProvided: true, regenerate: false, slots: [7, 8] }, 3))
  t.same(float.vectors.map((x) => Array.from(x)), v.map((x) => Array.from(x)))
  t.same([float.userProvided, float.regenerate, float.slots], [true, false, [7, 8]])
  const q = decodeEntry(encodeEntry({ vectors: [], packed: v.map(quantize), int8: v.map(quantize8), userProvided: false, regenerate: true, slots: [9, 10] }, 3))
  t.same(q.packed.map((x) => Array.from(x)), [[0b101], [0b001]])
  t.same(q.int8.map((x) => Array.from(x)), [[4, -73, 127], [127, 0, -127]])
  t.same([q.userProvided, q.regenerate, q.vectors.length], [false, true, 0])
  t.same(parseKey(rowKey(5, 'my embedder', 42)), { kind: 'row', embedder: 'my embedder', docid: 42 })
  t.same(parseKey(spaceKey(5, 'é')), { kind: 'space', embedder: 'é' })
})

t.test('f32 values print as their shortest decimal', async (t) => {
  t.equal(f32(Math.fround(0.1)), 0.1)
  t.equal(f32(Math.fround(0.2)), 0.2)
  t.equal(f32(Math.fround(1 / 3)), 0.33333334)
  t.equal(f32(2), 2)
})

t.test('distribution shift', async (t) => {
  t.equal(shiftScore(0.8, undefined), 0.8)
  t.ok(Math.abs(shiftScore(0.998, { mean: 0.998, sigma: 0.01 }) - 0.5) < 1e-6, 'the mean lands on 0.5')
  t.ok(Math.abs(shiftScore(1.008, { mean: 0.998, sigma: 0.01 }) - 0.9) < 1e-5, 'mean + sigma lands on 0.9')
  t.equal(shiftScore(0.5, { mean: 0.998, sigma: 0.01 }), Math.fround(1.1920928955078125e-7), 'clamped to f32 epsilon')
})
