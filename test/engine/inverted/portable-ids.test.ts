/**
 * Postings written without roaring (portable-ids.ts) are the bytes roaring writes: ids of every density and spread,
 * the 4,096 ids where roaring turns an array container into a bitset, and whole partitions of encoded rows.
 */
import t from 'tap'
import roaring from 'roaring'
import { mulberry32 } from '../../../bench/data/random.js'
import { portableSize, writePortable } from '../../../engine/inverted/portable-ids.js'
import { encodePostings, postingsPartition } from '../../../engine/inverted/encode-postings.js'
import { encodePosting } from '../../../engine/inverted/rows.js'

const { RoaringBitmap32 } = roaring

/** `count` distinct ids, sorted, drawn from `[0, span)`. */
function idsOf(rand: () => number, count: number, span: number): Uint32Array {
  const set = new Set<number>()
  while (set.size < Math.min(count, span)) set.add(Math.floor(rand() * span) >>> 0)
  return Uint32Array.from([...set].sort((a, b) => a - b))
}

const roaringBytes = (ids: Uint32Array) => {
  const bitmap = new RoaringBitmap32(ids)
  const bytes = Buffer.from(bitmap.serialize('portable'))
  bitmap.dispose()
  return bytes
}

t.test('the portable bytes of ids are roaring\'s', async (t) => {
  const rand = mulberry32(18)
  const cases: Uint32Array[] = [
    new Uint32Array(0),
    Uint32Array.of(0),
    Uint32Array.of(0xffffffff),
    Uint32Array.of(65535, 65536),
    Uint32Array.from({ length: 4096 }, (_, i) => i * 16),
    Uint32Array.from({ length: 4096 }, (_, i) => 70_000 + i),
  ]
  for (let n = 0; n < 300; n++) {
    const count = 1 + Math.floor(rand() ** 3 * 3000)
    const span = [64, 1 << 16, 1 << 20, 2 ** 32][n % 4]!
    cases.push(idsOf(rand, count, span))
  }
  let checked = 0
  for (const ids of cases) {
    const size = portableSize(ids, 0, ids.length)
    t.not(size, -1, `${ids.length} ids in arrays: written without roaring`)
    // Written in the middle of a larger buffer, as a partition's rows are.
    const out = new Uint8Array(size + 10)
    const end = writePortable(ids, 0, ids.length, out, new DataView(out.buffer), 5)
    t.equal(end, 5 + size, 'as many bytes as said')
    const expected = roaringBytes(ids)
    if (!Buffer.from(out.subarray(5, end)).equals(expected)) t.fail(`ids ${ids.subarray(0, 8).join(',')}… (${ids.length}): bytes differ`)
    else checked++
  }
  t.equal(checked, cases.length, 'every case byte for byte')
})

t.test('more than 4,096 ids under one high half are left to roaring', async (t) => {
  const dense = Uint32Array.from({ length: 4097 }, (_, i) => i)
  t.equal(portableSize(dense, 0, dense.length), -1)
  t.equal(portableSize(dense, 1, dense.length), 8 + 8 + 2 * 4096, 'one fewer: an array container')
  const spread = Uint32Array.from({ length: 8000 }, (_, i) => (i % 2) * 65536 + (i >> 1))
  spread.sort()
  t.not(portableSize(spread, 0, spread.length), -1, '8,000 ids over two blocks of 4,000: arrays')
})

t.test('a partition\'s rows are encodePosting\'s, dense and non-ASCII words included', async (t) => {
  const rand = mulberry32(7)
  const words: string[] = []
  const lists: Uint32Array[] = []
  for (let k = 0; k < 400; k++) {
    words.push(k % 7 === 0 ? `été${k}` : k % 11 === 0 ? `日本${k}` : k % 13 === 0 ? `\u{1F600}${k}` : `w${k}`)
    lists.push(k % 50 === 3 ? idsOf(rand, 5000 + Math.floor(rand() * 3000), 1 << 16) : idsOf(rand, 1 + Math.floor(rand() ** 4 * 300), 1 << 18))
  }
  const offsets = new Uint32Array(words.length + 1)
  lists.forEach((l, k) => { offsets[k + 1] = offsets[k]! + l.length })
  const ids = new Uint32Array(offsets[words.length]!)
  lists.forEach((l, k) => ids.set(l, offsets[k]!))
  const out = encodePostings(postingsPartition(words, offsets, ids))
  let from = 0
  let same = 0
  for (let k = 0; k < words.length; k++) {
    const bitmap = new RoaringBitmap32(lists[k]!)
    const expected = encodePosting(words[k]!, bitmap)
    bitmap.dispose()
    if (Buffer.from(out.values.subarray(from, out.ends[k]!)).equals(expected)) same++
    else t.fail(`${words[k]}: the row differs`)
    from = out.ends[k]!
  }
  t.equal(same, words.length, 'every row byte for byte')
  t.equal(from, out.values.byteLength, 'nothing after the last row')
  t.same([...out.order].map((k) => words[k]), [...words].sort(), 'the words in sorted order')
})
