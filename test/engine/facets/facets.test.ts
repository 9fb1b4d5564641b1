/**
 * The facet index against the reference evaluator: on random documents and random filter expressions, the bitmap
 * evaluation (facets/filter.ts) selects exactly the documents `matches` (filter/evaluate.ts) accepts; drafts keep
 * that after removals and replacements, and never change the view they start from. Sort ranks follow milli's
 * order (numbers before strings, missing values last).
 */
import t from 'tap'
import roaring from 'roaring'
import { parseFilter, matches, type FilterExpression } from '../../../engine/filter/index.js'
import { FacetDraft, FacetIndex, RangeUnions, facetConfig, MISSING_RANK } from '../../../engine/facets/index.js'
import { evaluateFilter } from '../../../engine/facets/filter.js'
import { countValues } from '../../../engine/facets/distribution.js'
import { defaultSettings } from '../../../engine/settings/index.js'
import { seededRandom } from '../../helpers/random.js'

const { RoaringBitmap32 } = roaring
type Doc = Record<string, unknown>

const settings = { ...defaultSettings(), filterableAttributes: ['a', 'b', 'n', 'arr', 'n.b', '_geo'], sortableAttributes: ['a'] }
const config = facetConfig(settings)

const STRINGS = ['x', 'y', 'Été', 'ete', 'ETE ', '1', '01', '2.5', 'a b', 'xy', '', 'true', 'zz']
const WORDS = ['x', 'y', 'ete', '"Été"', '1', '01', '2.5', '"a b"', 'xy', 'true', 'false', '-1', '3', '0', 'e', '"x"', 'zz', '"1e400"']

function randomValue(r: ReturnType<typeof seededRandom>, depth = 0): unknown {
  switch (r.int(depth > 1 ? 6 : 9)) {
    case 0: return r.int(7) - 3
    case 1: return (r.int(9) - 4) / 2
    case 2: case 3: return STRINGS[r.int(STRINGS.length)]
    case 4: return r.int(2) === 0
    case 5: return null
    case 6: return Array.from({ length: r.int(3) }, () => randomValue(r, depth + 1))
    case 7: return r.int(3) === 0 ? {} : { b: randomValue(r, depth + 1) }
    default: return [{ b: randomValue(r, depth + 1) }, { c: 1 }]
  }
}

function randomDoc(r: ReturnType<typeof seededRandom>, id: number): Doc {
  const doc: Doc = { id }
  for (const field of ['a', 'b', 'n', 'arr', 'n.b']) if (r.int(3) > 0) doc[field] = randomValue(r)
  if (r.int(3) === 0) doc._geo = { lat: r.int(20) - 10 + r.float(), lng: r.int(20) - 10 + r.float() }
  return doc
}

function randomCondition(r: ReturnType<typeof seededRandom>): string {
  const field = ['a', 'b', 'n', 'arr', 'n.b', 'arr.b', 'missing'][r.int(7)]!
  const w = () => WORDS[r.int(WORDS.length)]!
  switch (r.int(16)) {
    case 0: return `${field} = ${w()}`
    case 1: return `${field} != ${w()}`
    case 2: return `${field} > ${w()}`
    case 3: return `${field} >= ${w()}`
    case 4: return `${field} < ${w()}`
    case 5: return `${field} <= ${w()}`
    case 6: return `${field} ${w()} TO ${w()}`
    case 7: return `${field} IN [${w()}, ${w()}]`
    case 8: return `${field} ${r.int(2) ? 'NOT ' : ''}EXISTS`
    case 9: return `${field} IS ${r.int(2) ? 'NOT ' : ''}NULL`
    case 10: return `${field} IS ${r.int(2) ? 'NOT ' : ''}EMPTY`
    case 11: return `${field} ${r.int(2) ? 'NOT ' : ''}CONTAINS ${w()}`
    case 12: return `${field} ${r.int(2) ? 'NOT ' : ''}STARTS WITH ${w()}`
    case 13: return `${field} NOT IN [${w()}]`
    case 14: return `_geoRadius(${r.int(20) - 10}, ${r.int(20) - 10}, ${r.int(800_000)})`
    default: return `_geoBoundingBox([${r.int(10)}, ${r.int(10)}], [${r.int(10) - 10}, ${r.int(10) - 10}])`
  }
}

function randomExpression(r: ReturnType<typeof seededRandom>, depth = 0): string {
  if (depth > 2 || r.int(3) === 0) return randomCondition(r)
  const op = ['AND', 'OR'][r.int(2)]!
  const inner = `${randomExpression(r, depth + 1)} ${op} ${randomExpression(r, depth + 1)}`
  return r.int(3) === 0 ? `NOT (${inner})` : `(${inner})`
}

function build(docs: Doc[]): FacetIndex {
  const draft = new FacetDraft(new FacetIndex(config), config)
  docs.forEach((doc, docid) => draft.add(docid, doc))
  return draft.result()
}

function reference(expr: FilterExpression, docs: (Doc | null)[]): number[] {
  return docs.flatMap((doc, docid) => (doc && matches(expr, doc) ? [docid] : []))
}

function liveOf(docs: (Doc | null)[]): InstanceType<typeof RoaringBitmap32> {
  return RoaringBitmap32.from(docs.flatMap((d, i) => (d ? [i] : [])))
}

const noFallback = () => { throw new Error('no fallback expected') }

t.test('bitmap evaluation equals the reference evaluator on random documents and expressions', async (t) => {
  const r = seededRandom(20261122)
  let nonTrivial = 0
  for (let round = 0; round < 30; round++) {
    const docs = Array.from({ length: 60 }, (_, i) => randomDoc(r, i))
    const index = build(docs)
    const live = liveOf(docs)
    for (let q = 0; q < 40; q++) {
      const text = randomExpression(r)
      const expr = parseFilter(text, 'invalid_search_filter')!
      const expected = reference(expr, docs)
      const got = evaluateFilter(expr, index, live, noFallback).toArray()
      if (expected.length > 0 && expected.length < docs.length) nonTrivial++
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        t.same(got, expected, `${text} (round ${round})`)
        return
      }
    }
  }
  // The generator must exercise real selections, not only all-or-nothing ones.
  t.ok(nonTrivial > 600, `non-trivial selections: ${nonTrivial}`)
})

t.test('drafts: removals and replacements keep the index equal to a fresh build, and the base view is unchanged', async (t) => {
  const r = seededRandom(7)
  for (let round = 0; round < 15; round++) {
    const docs: (Doc | null)[] = Array.from({ length: 50 }, (_, i) => randomDoc(r, i))
    const base = build(docs as Doc[])
    const before = [...base.fields].map(([path, f]) => [path, f.exists.toArray(), [...f.strings].map(([k, e]) => [k, e.docids.toArray()]), [...f.numbers].map(([k, b]) => [k, b.toArray()])])
    const draft = new FacetDraft(base)
    // Halfway, a snapshot (as delete-by-filter takes one) is queried, which caches its sorted keys: the edits
    // after it must neither change it nor leave the final view with its stale caches.
    const queries = Array.from({ length: 20 }, () => parseFilter(randomExpression(r), 'invalid_search_filter')!)
    let snapshot: { view: FacetIndex; docs: (Doc | null)[]; answers: number[][] } | null = null
    for (let k = 0; k < 20; k++) {
      if (k === 10) {
        const view = draft.snapshot()
        snapshot = { view, docs: [...docs], answers: queries.map((e) => evaluateFilter(e, view, liveOf(docs), noFallback).toArray()) }
        t.same(snapshot.answers, queries.map((e) => reference(e, docs)), `snapshot equals the reference (round ${round})`)
      }
      const docid = r.int(docs.length)
      const old = docs[docid]
      if (old) draft.remove(docid, old)
      docs[docid] = r.int(3) === 0 ? null : randomDoc(r, docid)
      if (docs[docid]) draft.add(docid, docs[docid]!)
    }
    const edited = draft.result()
    t.same(queries.map((e) => evaluateFilter(e, snapshot!.view, liveOf(snapshot!.docs), noFallback).toArray()), snapshot!.answers, 'the snapshot is frozen')
    t.same(queries.map((e) => evaluateFilter(e, edited, liveOf(docs), noFallback).toArray()), queries.map((e) => reference(e, docs)), 'later edits are seen')
    const after = [...base.fields].map(([path, f]) => [path, f.exists.toArray(), [...f.strings].map(([k, e]) => [k, e.docids.toArray()]), [...f.numbers].map(([k, b]) => [k, b.toArray()])])
    t.same(after, before, 'the base view is untouched')
    const live = liveOf(docs)
    for (let q = 0; q < 40; q++) {
      const text = randomExpression(r)
      const expr = parseFilter(text, 'invalid_search_filter')!
      const got = evaluateFilter(expr, edited, live, noFallback).toArray()
      const expected = reference(expr, docs)
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        t.same(got, expected, `${text} (round ${round})`)
        return
      }
    }
    // No value is left without documents.
    for (const [path, f] of edited.fields) {
      for (const [key, entry] of f.strings) t.notOk(entry.docids.isEmpty, `${path} "${key}" has documents`)
      for (const [key, b] of f.numbers) t.notOk(b.isEmpty, `${path} ${key} has documents`)
    }
  }
})

t.test('_vectors conditions go to the fallback', async (t) => {
  const index = build([{ id: 0 }])
  const live = RoaringBitmap32.from([0])
  const expr = parseFilter('_vectors EXISTS OR a = 1', 'invalid_search_filter')!
  let called = 0
  const got = evaluateFilter(expr, index, live, () => { called++; return RoaringBitmap32.from([0]) })
  t.equal(called, 1)
  t.same(got.toArray(), [0])
})

t.test('sort ranks: numbers before strings in both directions, missing last, several values rank by the first met', async (t) => {
  const docs: Doc[] = [
    { a: 'b' }, { a: 3 }, {}, { a: [10, 'a'] }, { a: 1.5 }, { a: 'B' }, { a: null }, { a: [2, 20] },
  ]
  const index = build(docs)
  const f = index.field('a')!
  const asc = f.sortRanks(true)
  const desc = f.sortRanks(false)
  const order = (ranks: Int32Array) => docs.map((_, i) => i).filter((i) => (ranks[i] ?? MISSING_RANK) !== MISSING_RANK)
    .sort((x, y) => ranks[x]! - ranks[y]! || x - y)
  // Ascending: 1.5, 2 (doc 7), 3, 10 (doc 3), then strings 'b' and 'B' share the normalized value "b".
  t.same(order(asc.ranks), [4, 7, 1, 3, 0, 5])
  // Descending: 20 (doc 7), 10, 3, 1.5, then strings.
  t.same(order(desc.ranks), [7, 3, 1, 4, 0, 5])
  t.equal(asc.ranks[2] ?? MISSING_RANK, MISSING_RANK, 'no value: missing')
  t.equal(asc.ranks[6] ?? MISSING_RANK, MISSING_RANK, 'null: missing')
  t.same(asc.values.slice(0, 4), [1.5, 2, 3, 10])
  t.equal(asc.values[4], 'b', 'the first document\'s spelling')
})

t.test('range unions: any run of consecutive bitmaps, across levels, equals the plain union', async (t) => {
  const r = seededRandom(16)
  for (const count of [0, 1, 15, 16, 17, 255, 256, 257, 1000, 5000]) {
    const bitmaps = Array.from({ length: count }, (_, i) => RoaringBitmap32.from(Array.from({ length: 1 + r.int(3) }, () => i * 3 + r.int(5))))
    const unions = new RangeUnions(bitmaps)
    const runs: [number, number][] = [[0, count], [0, 0], [count, count], [-3, count + 3]]
    for (let k = 0; k < 200; k++) { const a = r.int(count + 1); runs.push([a, a + r.int(count + 1 - a)]) }
    for (let k = 0; k < 50; k++) {
      const c = RoaringBitmap32.from(Array.from({ length: r.int(4) }, () => r.int(count * 3 + 5)))
      const hits = bitmaps.flatMap((b, i) => (b.intersects(c) ? [i] : []))
      t.same([unions.find(c, false), unions.find(c, true)], hits.length === 0 ? [-1, -1] : [hits[0], hits[hits.length - 1]], `find in ${count} bitmaps`)
    }
    for (const [from, to] of runs) {
      const expected = RoaringBitmap32.orMany(bitmaps.slice(Math.max(0, from), Math.max(0, to))).toArray()
      const got = unions.union(from, to).toArray()
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        t.same(got, expected, `${count} bitmaps, ${from} .. ${to}`)
        return
      }
    }
  }
  t.pass('every run matches')
})

t.test('facet counts: by document and by value agree, on every candidate set size', async (t) => {
  const r = seededRandom(99)
  const docs: Doc[] = Array.from({ length: 400 }, (_, id) => {
    const pick = () => (r.int(3) === 0 ? `S${r.int(150)}` : r.int(200) / 4)
    return { id, a: r.int(5) === 0 ? [pick(), pick(), null] : pick(), b: r.int(4) === 0 ? {} : `only${r.int(3)}` }
  })
  const index = build(docs)
  let compared = 0
  for (const path of ['a', 'b']) {
    const f = index.field(path)!
    for (const size of [0, 1, 5, 50, 200, 400]) {
      const candidates = RoaringBitmap32.from(Array.from({ length: size }, () => r.int(docs.length)))
      for (const limit of [null, 1, 7, 1000]) {
        const byDoc = countValues(f, candidates, limit, true)
        t.same(byDoc, countValues(f, candidates, limit, false), `${path}, ${size} candidates, limit ${limit}`)
        if (limit !== null) t.same(byDoc.numbers, countValues(f, candidates, null, true).numbers.slice(0, byDoc.numbers.length), 'a limit keeps the first values')
        compared++
      }
    }
  }
  t.equal(compared, 48)
})
