/**
 * `pairCost` against a reference that compares every pair of occurrences the way the proximity rule defines the
 * cost: random documents small enough for the paired path and large enough for the sorted sweep (positions out of
 * record order, phrase first / last words, several fields, positions at the top of their 16 bits, ngrams).
 */
import t from 'tap'
import { pairCost, ROLE_FIRST, ROLE_LAST, type MatchedDocument } from '../../../engine/search/match-costs.js'
import { mulberry32 } from '../../../bench/data/random.js'

interface Occurrence { term: number; fid: number; pos: number; typo: number; span: number; flags: number }

function documentOf(occurrences: Occurrence[], byAttribute = false): MatchedDocument {
  const n = occurrences.length
  const doc = {
    n,
    term: Int32Array.from(occurrences, (o) => o.term),
    at: Uint32Array.from(occurrences, (o) => ((o.fid << 16) | o.pos) >>> 0),
    typo: Int32Array.from(occurrences, (o) => o.typo),
    span: Int32Array.from(occurrences, (o) => o.span),
    flags: Uint8Array.from(occurrences, (o) => o.flags),
    minTypo: new Int32Array(3),
    byAttribute,
    fieldWords: () => 0,
  }
  for (let t = 0; t < 3; t++) {
    const typos = occurrences.filter((o) => o.term === t).map((o) => o.typo)
    doc.minTypo[t] = typos.length > 0 ? Math.min(...typos) : 0
  }
  return doc
}

/** The rule's definition, pair by pair. */
function reference(occurrences: Occurrence[], minTypo: Int32Array, left: number, right: number, leftWords: number, byAttribute: boolean): number {
  const lefts = occurrences.filter((o) => o.term === left && o.typo === minTypo[left] && (o.flags & ROLE_FIRST) === 0)
  const rights = occurrences.filter((o) => o.term === right && o.typo === minTypo[right] && (o.flags & ROLE_LAST) === 0)
  if (lefts.length === 0 || rights.length === 0) return 3
  let min = 3
  for (const l of lefts) {
    for (const r of rights) {
      if (l.fid !== r.fid) continue
      if (byAttribute) return 0
      if (l.span > 1 && r.span > 1 && l.pos === r.pos) { min = Math.min(min, 1); continue }
      const d = r.pos - (l.pos + ((l.flags & ROLE_LAST) !== 0 ? 0 : leftWords - 1))
      const c = d >= 1 && d <= 3 ? d - 1 : d === -1 ? 1 : d === -2 ? 2 : 3
      min = Math.min(min, c)
    }
  }
  return min
}

t.test('the sorted sweep and the paired comparison give the rule\'s cost', async (t) => {
  const rand = mulberry32(18)
  const int = (n: number) => Math.floor(rand() * n)
  let swept = 0
  const costs = new Set<number>()
  for (let round = 0; round < 3000; round++) {
    const count = round % 3 === 0 ? 2 + int(10) : 20 + int(400)
    const fields = 1 + int(3)
    const span = round % 4 === 0 ? 3 : 60 + int(2000)
    const high = round % 5 === 0 ? 65535 - span : 0
    const ngrams = round % 7 === 0
    const occurrences: Occurrence[] = []
    for (let i = 0; i < count; i++) {
      occurrences.push({
        term: int(3),
        fid: int(fields),
        pos: high + int(span),
        typo: int(4) === 0 ? 1 : 0,
        span: ngrams && int(6) === 0 ? 2 : 1,
        flags: int(8) === 0 ? ROLE_FIRST : int(8) === 0 ? ROLE_LAST : 0,
      })
    }
    // Half the documents keep record order (the sweep then sorts nothing).
    if (round % 2 === 0) occurrences.sort((a, b) => a.fid - b.fid || a.pos - b.pos)
    const byAttribute = round % 11 === 0
    const doc = documentOf(occurrences, byAttribute)
    const leftWords = round % 6 === 0 ? 2 : 1
    const expected = reference(occurrences, doc.minTypo, 0, 1, leftWords, byAttribute)
    const got = pairCost(doc, 0, 1, leftWords)
    costs.add(got)
    if (count >= 20 && !ngrams && !byAttribute) swept++
    if (got !== expected) {
      t.equal(got, expected, `round ${round}: ${count} occurrences in ${fields} fields`)
      return
    }
  }
  t.pass('3,000 documents: every cost equal to the reference')
  t.ok(swept > 1000, `most large documents take the sorted sweep (${swept})`)
  t.same([...costs].sort(), [0, 1, 2, 3], 'every cost occurs')
})

t.test('a pair in two fields, or with a side missing, costs 3', async (t) => {
  const far: Occurrence[] = []
  for (let i = 0; i < 40; i++) far.push({ term: 0, fid: 0, pos: i, typo: 0, span: 1, flags: 0 }, { term: 1, fid: 1, pos: i, typo: 0, span: 1, flags: 0 })
  t.equal(pairCost(documentOf(far), 0, 1, 1), 3)
  const oneSide = far.filter((o) => o.term === 0)
  t.equal(pairCost(documentOf(oneSide), 0, 1, 1), 3)
  // The last position of field 0 and the first of field 1 are not neighbours.
  const edge: Occurrence[] = []
  for (let i = 0; i < 40; i++) edge.push({ term: 0, fid: 0, pos: 65535 - i, typo: 0, span: 1, flags: 0 }, { term: 1, fid: 1, pos: i, typo: 0, span: 1, flags: 0 })
  t.equal(pairCost(documentOf(edge), 0, 1, 1), 3)
})
