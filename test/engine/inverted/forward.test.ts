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
