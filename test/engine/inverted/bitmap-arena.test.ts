/** The shared arena of frozen large postings: changes, compaction and clones against a model; views never change. */
import t from 'tap'
import roaring from 'roaring'
import { BitmapArena } from '../../../engine/inverted/bitmap-arena.js'
import { seededRandom } from '../../helpers/random.js'

const { RoaringBitmap32 } = roaring

function randomIds(rand: (n: number) => number): number[] {
  const n = 65 + rand(2000)
  // Dense runs and sparse ids: array, bitset and run containers.
  const base = rand(200_000)
  return [...new Set(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? base + i : rand(1 << 20))))].sort((a, b) => a - b)
}

t.test('bitmaps read back as set through replacements, removals, growth, compaction and clones', async (t) => {
  let arena = new BitmapArena()
  const model = new Map<number, number[]>()
  const rand = seededRandom(3).int
  for (let step = 0; step < 3000; step++) {
    const w = rand(400)
    if (rand(5) === 0) {
      arena.set(w, undefined)
      model.delete(w)
    } else {
      const ids = randomIds(rand)
      arena.set(w, new RoaringBitmap32(ids))
      model.set(w, ids)
    }
    if (step % 101 === 0) arena.maybeCompact()
    if (step === 1500) arena = arena.clone()
  }
  let mismatches = 0
  for (let w = 0; w < 450; w++) {
    const want = model.get(w)
    const got = arena.get(w)
    if (arena.has(w) !== (want !== undefined)) mismatches++
    if (want === undefined ? got !== undefined : !got || !got.isFrozen || got.size !== want.length || got.toArray().some((v, i) => v !== want[i])) mismatches++
  }
  t.equal(mismatches, 0)
})

t.test('a view keeps the bitmaps of its time, in shared memory, whatever changes after it', async (t) => {
  const arena = new BitmapArena()
  const rand = seededRandom(11).int
  const before = new Map<number, number[]>()
  for (let w = 0; w < 100; w++) {
    const ids = randomIds(rand)
    arena.set(w, new RoaringBitmap32(ids))
    before.set(w, ids)
  }
  const view = arena.view()
  t.ok(view.bytes.buffer instanceof SharedArrayBuffer && view.at.buffer instanceof SharedArrayBuffer)
  const held = arena.get(5)!
  const copy = view.bytes.slice()
  for (let step = 0; step < 1000; step++) {
    const w = rand(300)
    arena.set(w, rand(3) === 0 ? undefined : new RoaringBitmap32(randomIds(rand)))
    if (step % 50 === 0) arena.maybeCompact()
  }
  t.ok(Buffer.from(view.bytes).equals(Buffer.from(copy)), 'the viewed bytes are unchanged')
  const reader = BitmapArena.fromView(view)
  let mismatches = 0
  for (const [w, ids] of before) if (reader.get(w)?.toArray().join() !== ids.join()) mismatches++
  t.equal(mismatches, 0, 'a reader over the view sees every bitmap as it was')
  t.same(held.toArray(), before.get(5), 'a bitmap handed out before the changes still reads its ids')
  t.throws(() => held.add(1), 'a posting handed out cannot be changed')
})
