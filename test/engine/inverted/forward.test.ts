/** The forward-record arena: set, replace, remove, compaction, against a plain map of the same records. */
import t from 'tap'
import { ForwardRecords } from '../../../engine/inverted/forward.js'
import { seededRandom } from '../../helpers/random.js'

t.test('records read back as written through replacements, removals and compactions', async (t) => {
  const arena = new ForwardRecords()
  const model = new Map<number, number[]>()
  const rand = seededRandom(42).int
  let mismatches = 0
  for (let step = 0; step < 20_000; step++) {
    const docid = rand(3000)
    if (rand(5) === 0) {
      arena.set(docid, null)
      model.delete(docid)
    } else {
      const record = Array.from({ length: 2 * (1 + rand(12)) }, () => rand(1 << 20))
      arena.set(docid, Uint32Array.from(record))
      model.set(docid, record)
    }
    if (step % 97 === 0) arena.maybeCompact()
  }
  arena.maybeCompact()
  for (let docid = 0; docid < 3100; docid++) {
    const want = model.get(docid)
    const got = arena.get(docid)
    if (want === undefined ? got !== undefined : !got || got.length !== want.length || want.some((v, i) => got[i] !== v)) mismatches++
    if (arena.has(docid) !== (want !== undefined)) mismatches++
  }
  t.equal(mismatches, 0)
  t.equal(arena.count, model.size, 'count of documents with a record')
  t.same([...arena.docids()], [...model.keys()].sort((a, b) => a - b), 'docids in order')
})

t.test('an empty record is no record', async (t) => {
  const arena = new ForwardRecords()
  arena.set(5, new Uint32Array([1, 2]))
  arena.set(5, new Uint32Array(0))
  t.equal(arena.has(5), false)
  t.equal(arena.get(5), undefined)
  t.equal(arena.count, 0)
  t.equal(arena.has(1_000_000), false, 'beyond the ids seen')
})

t.test('a view handed out is in shared memory and never changes afterwards', async (t) => {
  const arena = new ForwardRecords()
  const rand = seededRandom(7).int
  for (let docid = 0; docid < 500; docid++) arena.set(docid, Uint32Array.from({ length: 2 * (1 + rand(6)) }, () => rand(1000)))
  const view = arena.view()
  t.ok(view.data.buffer instanceof SharedArrayBuffer && view.start.buffer instanceof SharedArrayBuffer && view.end.buffer instanceof SharedArrayBuffer)
  const before = [...arena.docids()].map((d) => [d, [...arena.get(d)!]] as const)
  const bytes = { data: view.data.slice(), start: view.start.slice(), end: view.end.slice() }
  // Replacements, removals, new documents past the tables' length, and compactions (garbage over half).
  for (let step = 0; step < 3000; step++) {
    const docid = rand(3000)
    arena.set(docid, rand(4) === 0 ? null : Uint32Array.from({ length: 2 * (1 + rand(6)) }, () => rand(1000)))
    if (step % 200 === 0) arena.maybeCompact()
  }
  arena.maybeCompact()
  t.same([...view.start], [...bytes.start], 'start table unchanged')
  t.same([...view.end], [...bytes.end], 'end table unchanged')
  t.same([...view.data], [...bytes.data], 'arena bytes unchanged (changes went past the used part or to a new arena)')
  const reader = ForwardRecords.fromView(view)
  t.same(before.map(([d]) => [d, [...reader.get(d)!]]), before, 'a reader over the view sees the records as they were')
  t.equal(reader.count, before.length)
})
