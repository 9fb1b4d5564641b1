/** The occurrence lists (inverted/occurrences.ts): built from the forward records, kept per view. */
import t from 'tap'
import { ForwardRecords, RoaringBitmap32, seekDoc, type Bitmap } from '../../../engine/inverted/index.js'
import { OccurrenceLists, type OccurrenceSource } from '../../../engine/inverted/occurrences.js'
import { mulberry32 } from '../../../bench/data/random.js'

/** Random records over `vocabulary` words: each document a run of (word, fid << 16 | position) pairs. */
function records(docs: number, vocabulary: number, seed: number): { forward: ForwardRecords; postings: Map<number, number[]> } {
  const rand = mulberry32(seed)
  const forward = new ForwardRecords()
  const postings = new Map<number, number[]>()
  for (let docid = 0; docid < docs; docid++) {
    if (docid % 7 === 3) continue // ids without a record
    const pairs: number[] = []
    for (let fid = 0; fid < 2; fid++) {
      const length = Math.floor(rand() * 40)
      for (let pos = 0; pos < length; pos++) {
        const word = Math.floor(rand() * rand() * vocabulary)
        pairs.push(word, (fid << 16) | pos)
        const list = postings.get(word) ?? []
        if (list[list.length - 1] !== docid) list.push(docid)
        postings.set(word, list)
      }
    }
    forward.set(docid, Uint32Array.from(pairs))
  }
  return { forward, postings }
}

function sourceOf(forward: ForwardRecords, postings: Map<number, number[]>): OccurrenceSource & { builds: number } {
  const source = {
    builds: 0,
    forward,
    docsOf: (word: number): Bitmap | undefined => {
      source.builds++
      const list = postings.get(word)
      return list ? RoaringBitmap32.from(list) : undefined
    },
    union: (bitmaps: Bitmap[]) => RoaringBitmap32.orMany(bitmaps),
  }
  return source
}

/** A word's occurrences in a document, read straight from its record. */
function expected(forward: ForwardRecords, word: number, docid: number): number[] {
  const record = forward.get(docid)
  const out: number[] = []
  if (record) for (let k = 0; k < record.length; k += 2) if (record[k] === word) out.push(record[k + 1]!)
  return out
}

t.test('each word lists every document holding it and its occurrences in record order', async (t) => {
  const { forward, postings } = records(300, 60, 1)
  const lists = new OccurrenceLists()
  const words = [0, 1, 5, 17, 59, 1000]
  const got = lists.of(sourceOf(forward, postings), words)
  t.equal(got[5], null, 'a word in no document has no list')
  words.slice(0, 5).forEach((word, i) => {
    const list = got[i]!
    t.same([...list.docs], postings.get(word), `word ${word}: its documents`)
    t.equal(list.offsets.length, list.docs.length + 1)
    t.equal(list.offsets[list.docs.length], list.ats.length)
    list.docs.forEach((docid, k) => t.same([...list.ats.subarray(list.offsets[k]!, list.offsets[k + 1]!)], expected(forward, word, docid), `word ${word}, document ${docid}`))
  })
})

t.test('kept lists are answered again without reading the records; a cleared set builds again', async (t) => {
  const { forward, postings } = records(200, 30, 2)
  const lists = new OccurrenceLists()
  const source = sourceOf(forward, postings)
  const first = lists.of(source, [3, 4])
  t.equal(source.builds, 2)
  const again = lists.of(source, [4, 3, 3])
  t.equal(source.builds, 2, 'nothing built again')
  t.equal(again[0], first[1])
  t.equal(again[1], first[0])
  t.equal(again[2], first[0], 'a word asked twice gets the same list')
  lists.clear()
  lists.of(source, [3])
  t.equal(source.builds, 3)
})

/** What a list over the records longer than `minLength` must be: each document's occurrences read from its record. */
function expectedList(forward: ForwardRecords, postings: Map<number, number[]>, word: number, minLength: number): { docs: number[]; ats: number[][] } {
  const docs = (postings.get(word) ?? []).filter((docid) => (forward.get(docid)?.length ?? 0) > minLength)
  return { docs, ats: docs.map((docid) => expected(forward, word, docid)) }
}

t.test('lists over long records only; a shorter length adds the records a kept list lacks, a longer one builds nothing', async (t) => {
  const { forward, postings } = records(400, 40, 5)
  const lists = new OccurrenceLists()
  const source = sourceOf(forward, postings)
  const words = [0, 1, 2, 7, 39]
  const check = (got: ReturnType<OccurrenceLists['of']>, minLength: number, label: string) => words.forEach((word, i) => {
    const want = expectedList(forward, postings, word, minLength)
    const list = got[i]
    // A list may also hold shorter records (it was built for a shorter length): those the matcher never reads.
    const docs = list ? [...list.docs].filter((docid) => forward.get(docid)!.length > minLength) : []
    t.same(docs, want.docs, `${label}, word ${word}: its documents with a longer record`)
    if (list) for (const [k, docid] of [...list.docs].entries()) if (forward.get(docid)!.length > minLength) t.same([...list.ats.subarray(list.offsets[k]!, list.offsets[k + 1]!)], expected(forward, word, docid))
  })
  check(lists.of(source, words, 100), 100, 'records over 100')
  const builds = source.builds
  check(lists.of(source, words, 120), 120, 'records over 120, from the kept lists')
  t.equal(source.builds, builds, 'a longer length builds nothing')
  const partial = lists.of(source, words, 40)
  check(partial, 40, 'records over 40, merged with the kept lists')
  t.ok(partial.some((list, i) => list !== null && list.docs.length > expectedList(forward, postings, words[i]!, 100).docs.length), 'shorter records were added')
  check(lists.of(source, words, 0), 0, 'every record')
  partial.forEach((list, i) => { if (list) t.same([...list.docs], [...list.docs].sort((a, b) => a - b), `word ${words[i]}: documents in id order`) })
  const all = lists.of(source, words, 0)
  words.forEach((word, i) => t.same([...(all[i]?.docs ?? [])], postings.get(word) ?? [], `word ${word}: complete at length 0`))
})

t.test('seekDoc finds the first document at or after an id, from any cursor', async (t) => {
  const rand = mulberry32(4)
  for (let round = 0; round < 200; round++) {
    const docs = Uint32Array.from([...new Set(Array.from({ length: Math.floor(rand() * 50) }, () => Math.floor(rand() * 200)))].sort((a, b) => a - b))
    for (let probe = 0; probe < 20; probe++) {
      const docid = Math.floor(rand() * 210)
      const cursor = Math.floor(rand() * (docs.length + 2))
      let want = docs.findIndex((d) => d >= docid)
      if (want < 0) want = docs.length
      const got = seekDoc(docs, docid, cursor)
      if (got !== want) t.fail(`docs ${[...docs]}, id ${docid}, cursor ${cursor}: ${got}, not ${want}`)
    }
  }
  t.pass('200 random lists, 20 probes each')
})
