/**
 * The inverted index's batch drafts against a model: after each batch of additions, replacements and removals
 * (and rebuilds), every word's postings and every document's forward record equal the model's, in memory after
 * the publish and on disk after a reload.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store, keys, type WriteOp } from '../../../engine/storage/index.js'
import { InvertedDraft, InvertedIndex, type ExtractedChunk } from '../../../engine/inverted/index.js'
import { wordList } from '../../../engine/inverted/extract.js'
import { seededRandom } from '../../helpers/random.js'

const VOCABULARY = Array.from({ length: 60 }, (_, i) => `w${i}`)
const FIELDS = ['title', 'body', 'tags']

/** A document as the model holds it: its words as `[word, field, position]`, in record order. */
type Doc = [string, string, number][]

function chunkOf(docs: Doc[]): ExtractedChunk {
  const words: string[] = []
  const fields: string[] = []
  const records: number[] = []
  const indexOf = (list: string[], v: string) => { let i = list.indexOf(v); if (i < 0) i = list.push(v) - 1; return i }
  for (const doc of docs) {
    records.push(doc.length)
    for (const [w, f, p] of doc) records.push(indexOf(words, w), (indexOf(fields, f) << 16) | p)
  }
  return { words: wordList(words), fields, records: Uint32Array.from(records) }
}

function check(t: Test, index: InvertedIndex, model: Map<number, Doc>, label: string): void {
  const expected = new Map<string, number[]>()
  for (const [docid, doc] of [...model].sort((a, b) => a[0] - b[0])) {
    for (const w of new Set(doc.map(([w]) => w))) {
      const list = expected.get(w) ?? []
      list.push(docid)
      expected.set(w, list)
    }
  }
  let wrong = 0
  for (const w of VOCABULARY) {
    const got = index.docids(w)?.toArray() ?? []
    if (JSON.stringify(got) !== JSON.stringify(expected.get(w) ?? [])) wrong++
  }
  for (let docid = 0; docid < 420; docid++) {
    const doc = model.get(docid)?.length ? model.get(docid) : undefined
    const record = index.forward.get(docid)
    const got = record ? Array.from({ length: record.length / 2 }, (_, k) => [index.words[record[2 * k]!], index.fields[record[2 * k + 1]! >>> 16], record[2 * k + 1]! & 0xffff]) : undefined
    if (JSON.stringify(got) !== JSON.stringify(doc)) wrong++
  }
  t.equal(wrong, 0, label)
}

t.test('postings and forward records follow batches of adds, replacements, removals and rebuilds', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-inverted-'))
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  let index = await InvertedIndex.load(store, 7)
  const model = new Map<number, Doc>()
  const rand = seededRandom(7).int
  // From the first rebuild on, w0..w4 are never indexed again (as if they had become stop words).
  let lowest = 0
  // (Some documents have no word at all: no record.)
  const randomDoc = (): Doc => Array.from({ length: rand(9) }, (_, k) => [VOCABULARY[lowest + rand(rand(2) ? 10 : VOCABULARY.length - lowest)]!, FIELDS[rand(3)]!, k])
  const ahead: WriteOp[] = []
  // Some adds write their record ahead (as a batch does for new documents), then the draft leaves it out.
  const writeAhead = (draft: InvertedDraft, docid: number) => {
    const bytes = draft.recordBytes(docid)
    if (!bytes || rand(2) === 0) return
    ahead.push({ column: 'positions', key: keys.indexKey(7, keys.u32(docid)), value: Buffer.from(bytes) })
    draft.writtenAhead(docid)
  }
  const edit = (draft: InvertedDraft, next: Map<number, Doc>, steps: { docid: number; remove: boolean }[], ahead: boolean) => {
    for (let i = 0; i < steps.length; i += 7) {
      const group = steps.slice(i, i + 7)
      const adds = group.filter((s) => !s.remove)
      const docs = adds.map(() => randomDoc())
      // Several adds of one id in a chunk: the last one holds.
      draft.add(adds.map((s) => s.docid), chunkOf(docs))
      adds.forEach((s, k) => next.set(s.docid, docs[k]!))
      if (ahead) for (const s of adds) writeAhead(draft, s.docid)
      for (const s of group.filter((s) => s.remove)) { draft.remove(s.docid); next.delete(s.docid) }
    }
  }
  const randomSteps = (n: number, range: number) => Array.from({ length: n }, () => ({ docid: rand(range), remove: rand(4) === 0 }))
  for (let batch = 0; batch < 12; batch++) {
    const full = batch === 6 || batch === 9
    if (full) lowest = 5
    let previous: InvertedDraft | undefined
    let next = full ? new Map<number, Doc>() : new Map(model)
    if (batch === 9) {
      // Additions and removals (records written ahead), then a rebuild in the same batch: the rebuild's draft
      // replaces the first one and must drop the rows it wrote ahead for documents that are gone.
      previous = new InvertedDraft(index)
      const afterFirst = new Map(model)
      edit(previous, afterFirst, randomSteps(60, 420), true)
      next = new Map<number, Doc>()
      model.clear()
      for (const [k, v] of afterFirst) model.set(k, v)
    }
    const draft = new InvertedDraft(index, full, previous)
    // A rebuild re-adds most documents (some are left out: they leave the index).
    const steps = full ? [...model.keys()].filter(() => rand(4) > 0).map((docid) => ({ docid, remove: false })) : randomSteps(batch === 0 ? 300 : 40, batch === 0 ? 300 : 400)
    edit(draft, next, steps, !full)
    await store.commit(ahead.splice(0), { sync: false })
    const { ops, apply } = draft.finalize()
    await store.commit(ops)
    apply()
    model.clear()
    for (const [k, v] of next) model.set(k, v)
    check(t, index, model, `batch ${batch}${full ? ' (rebuild)' : ''}: in memory`)
    if (batch % 3 === 2) {
      await store.close()
      store = await Store.open(path)
      index = await InvertedIndex.load(store, 7)
      check(t, index, model, `batch ${batch}: reloaded from disk`)
    }
  }
  await store.close()
})
