/**
 * The inverted index's batch drafts against a model: after each batch of additions, replacements and removals
 * (and rebuilds), every word's postings and every document's forward record equal the model's, in memory after
 * the publish and on disk after a reload.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../engine/storage/index.js'
import { InvertedDraft, InvertedIndex, type ExtractedChunk } from '../../engine/inverted/index.js'
import { seededRandom } from '../helpers/random.js'

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
  return { words, fields, records: Uint32Array.from(records) }
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
  for (let docid = 0; docid < 400; docid++) {
    const doc = model.get(docid)
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
  const randomDoc = (): Doc => Array.from({ length: 1 + rand(8) }, (_, k) => [VOCABULARY[lowest + rand(rand(2) ? 10 : VOCABULARY.length - lowest)]!, FIELDS[rand(3)]!, k])
  for (let batch = 0; batch < 12; batch++) {
    const full = batch === 6 || batch === 9
    if (full) lowest = 5
    const draft = new InvertedDraft(index, full)
    const next = full ? new Map<number, Doc>() : new Map(model)
    // A rebuild re-adds most documents (some are left out: they leave the index).
    const steps = full ? [...model.keys()].filter(() => rand(4) > 0).map((docid) => ({ docid, remove: false })) : Array.from({ length: batch === 0 ? 300 : 40 }, () => ({ docid: rand(batch === 0 ? 300 : 400), remove: rand(4) === 0 }))
    for (let i = 0; i < steps.length; i += 7) {
      const group = steps.slice(i, i + 7)
      const adds = group.filter((s) => !s.remove)
      const docs = adds.map(() => randomDoc())
      // Several adds of one id in a chunk: the last one holds.
      draft.add(adds.map((s) => s.docid), chunkOf(docs))
      adds.forEach((s, k) => next.set(s.docid, docs[k]!))
      for (const s of group.filter((s) => s.remove)) { draft.remove(s.docid); next.delete(s.docid) }
    }
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
