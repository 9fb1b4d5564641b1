/** Postings held by size: rare words in the arena, the others as bitmaps, moving between the two as they change. */
import t from 'tap'
import { Postings, RoaringBitmap32, SMALL_POSTING } from '../../../engine/inverted/index.js'

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i * 3)

t.test('a word keeps its documents across the small and large forms', async (t) => {
  const p = new Postings()
  t.equal(p.get(0), undefined)
  t.notOk(p.has(0))
  t.equal(p.size(5), 0, 'a word never seen holds nothing')

  p.set(3, new RoaringBitmap32(range(10, 5)))
  t.ok(p.has(3))
  t.equal(p.size(3), 5)
  t.same(p.get(3)!.toArray(), range(10, 5), 'a small posting comes back as the same ids')
  t.not(p.get(3), p.get(3), 'each caller gets a bitmap of its own for a small posting')

  p.set(3, new RoaringBitmap32(range(0, SMALL_POSTING + 1)))
  t.same(p.get(3)!.toArray(), range(0, SMALL_POSTING + 1), 'a large posting comes back as the same ids')
  t.ok(p.get(3)!.isFrozen, 'read in place from the shared arena (a frozen view)')
  t.equal(p.get(3), p.get(3), 'the same view for every caller')
  t.equal(p.size(3), SMALL_POSTING + 1)

  p.set(3, new RoaringBitmap32(range(7, SMALL_POSTING)))
  t.same(p.get(3)!.toArray(), range(7, SMALL_POSTING), 'shrunk to the limit: small again')
  t.not(p.get(3), p.get(3))

  p.set(3, new RoaringBitmap32())
  t.notOk(p.has(3), 'an empty posting is no posting')
  t.equal(p.get(3), undefined)
  p.set(3, new RoaringBitmap32([1]))
  p.set(3, undefined)
  t.notOk(p.has(3))
})

t.test('many words in the arena, changed and compacted, keep their own ids', async (t) => {
  const p = new Postings()
  const model = new Map<number, number[]>()
  for (let w = 0; w < 2000; w++) {
    const ids = range(w, 1 + (w % 7))
    model.set(w, ids)
    p.set(w, new RoaringBitmap32(ids))
  }
  for (let w = 0; w < 2000; w += 3) {
    const ids = w % 2 === 0 ? range(w + 1, 2) : range(w, SMALL_POSTING + 10)
    model.set(w, ids)
    p.set(w, new RoaringBitmap32(ids))
  }
  p.compact()
  let wrong = 0
  for (const [w, ids] of model) if (JSON.stringify(p.get(w)?.toArray()) !== JSON.stringify(ids) || p.size(w) !== ids.length) wrong++
  t.equal(wrong, 0)
})

t.test('the union of small and large postings, and how many of the words are in a document', async (t) => {
  const p = new Postings()
  p.set(1, new RoaringBitmap32([3, 9]))
  p.set(2, new RoaringBitmap32([9, 12]))
  const big = range(100, SMALL_POSTING + 5)
  p.set(3, new RoaringBitmap32(big))
  const all = p.union([1, 2, 3, 4, 99])
  t.same(all.docids.toArray(), [3, 9, 12, ...big])
  t.equal(all.words, 3, 'words without documents do not count')
  t.same(p.union([2]).docids.toArray(), [9, 12])
  t.equal(p.union([]).docids.size, 0)
  t.equal(p.union([5]).words, 0)
})
