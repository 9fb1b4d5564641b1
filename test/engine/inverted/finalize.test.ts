/**
 * The merge in turns and in the pool (finalize.ts) against the reference (`InvertedDraft.finalize`): two copies of
 * an index receive the same batches (new words and known ones, replacements, removals in the same batch, records
 * written ahead, rebuilds); one is finalized straight through and published in place, the other in turns with its
 * new words' postings encoded by the real worker pool (or inline) and its next view prepared aside or not. Each
 * batch's writes must be the same, byte for byte, and the published indexes the same, in memory and reloaded.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COLUMNS, Store, keys, type Write, type WriteOp } from '../../../engine/storage/index.js'
import { decodeWrites, encodeWrites } from '../../../engine/storage/wire.js'
import { InvertedDraft, InvertedIndex, type ExtractedChunk } from '../../../engine/inverted/index.js'
import { wordList } from '../../../engine/inverted/extract.js'
import { encodePostings } from '../../../engine/inverted/encode-postings.js'
import type { FinalizeOptions } from '../../../engine/inverted/finalize.js'
import { createWorkerPool } from '../../../workers/pool.js'
import { seededRandom } from '../../helpers/random.js'

const FIELDS = ['title', 'body', 'tags']

/** The writes as column, key → value (hex; `-` for a delete), and how many there were: read back from the wire form. */
function writes(ops: Write[]): { count: number; rows: Map<string, string> } {
  const rows = new Map<string, string>()
  let count = 0
  const row = (column: number, key: Buffer, value?: Buffer) => {
    count++
    rows.set(`${COLUMNS[column]}:${key.toString('hex')}`, value === undefined ? '-' : value.toString('hex'))
  }
  decodeWrites(encodeWrites(ops, (size) => new Uint8Array(size)), row, row)
  return { count, rows }
}

/**
 * What a search reads of an index, as JSON (compared as text: deep comparison of objects this size is slow):
 * words and their documents, the dictionary, fields, forward records. `stored`: only what a reload restores (an
 * emptied word keeps its id and its place in the dictionary in memory, not on disk).
 */
function view(index: InvertedIndex, docLimit: number, stored = false): string {
  const words: Record<string, number[]> = {}
  for (const [word, id] of index.wordIds) {
    const docids = index.postings.get(id)?.toArray() ?? []
    if (!stored || docids.length > 0) words[`${id}:${word}`] = docids
  }
  const forward: Record<number, number[]> = {}
  for (let docid = 0; docid < docLimit; docid++) { const r = index.forward.get(docid); if (r) forward[docid] = [...r] }
  const dictionary = stored ? null : index.dictionary.withPrefix('')
  return JSON.stringify({ words, dictionary, fields: [...index.fields], nextWordId: index.nextWordId, forward })
}

async function compare(t: Test, options: (batch: number) => FinalizeOptions): Promise<void> {
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'tessera-finalize-')))
  t.teardown(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }) })
  const stores = await Promise.all(dirs.map((d) => Store.open(d)))
  const indexes = await Promise.all(stores.map((s) => InvertedIndex.load(s, 7)))
  const rand = seededRandom(18).int
  // A vocabulary that keeps growing (each batch brings words never seen), with a few frequent words.
  let vocabulary = 0
  const word = () => (rand(3) === 0 ? `f${rand(8)}` : `w${rand(vocabulary + 1)}`)
  const DOCS = 1500
  for (let batch = 0; batch < 6; batch++) {
    vocabulary += 2000
    const full = batch === 4
    const drafts = indexes.map((index) => new InvertedDraft(index, full))
    const ahead: WriteOp[][] = [[], []]
    // Chunks of documents: additions and replacements (some ids twice in a batch), removals in between.
    const chunks = batch === 0 ? 8 : 3
    for (let c = 0; c < chunks; c++) {
      const docids = Array.from({ length: 100 }, () => rand(batch === 0 ? DOCS : DOCS + 500))
      const chunkWords: string[] = []
      const records: number[] = []
      const local = new Map<string, number>()
      for (const _ of docids) {
        const n = rand(40)
        records.push(n)
        for (let k = 0; k < n; k++) {
          const w = word()
          let i = local.get(w)
          if (i === undefined) local.set(w, (i = chunkWords.push(w) - 1))
          records.push(i, (rand(3) << 16) | k)
        }
      }
      const chunk: ExtractedChunk = { words: wordList(chunkWords), fields: [...FIELDS], records: Uint32Array.from(records) }
      const removals = Array.from({ length: 10 }, () => rand(DOCS))
      drafts.forEach((draft, d) => {
        draft.add(docids, chunk)
        for (const docid of docids.slice(0, 25)) {
          const bytes = draft.recordBytes(docid)
          if (!bytes || full) continue
          ahead[d]!.push({ column: 'positions', key: keys.indexKey(7, keys.u32(docid)), value: Buffer.from(bytes) })
          draft.writtenAhead(docid)
        }
        for (const docid of removals) draft.remove(docid)
      })
    }
    await Promise.all(stores.map((s, d) => s.commit(ahead[d]!, { sync: false })))
    const reference = drafts[0]!.finalize()
    const inTurns = await drafts[1]!.finalizeInTurns(options(batch))
    const [got, want] = [writes(inTurns.ops), writes(reference.ops)]
    t.equal(got.count, want.count, `batch ${batch}${full ? ' (rebuild)' : ''}: as many writes`)
    t.equal(JSON.stringify([...got.rows].sort()), JSON.stringify([...want.rows].sort()), `batch ${batch}: the same writes`)
    await stores[0]!.commit(reference.ops)
    await stores[1]!.commit(inTurns.ops)
    reference.apply()
    inTurns.apply()
    t.equal(view(indexes[1]!, DOCS + 500), view(indexes[0]!, DOCS + 500), `batch ${batch}: the same index published`)
    // A next view prepared aside brings its dictionary's trie and shared words, built in turns, and so does a batch
    // published in place on an index whose shared view was in use (this test takes it after every batch): the same
    // as the reference builds on first use.
    if (asideNow(options(batch)) || batch > 0) t.ok(indexes[1]!.dictionary.viewBuilt, `batch ${batch}: the dictionary's view was prepared`)
    t.equal(sharedDictionary(indexes[1]!), sharedDictionary(indexes[0]!), `batch ${batch}: the same shared dictionary`)
  }
  await Promise.all(stores.map((s) => s.close()))
  const reopened = await Promise.all(dirs.map((d) => Store.open(d)))
  const loaded = await Promise.all(reopened.map((s) => InvertedIndex.load(s, 7)))
  t.equal(view(loaded[1]!, DOCS + 500), view(loaded[0]!, DOCS + 500), 'the same index reloaded from disk')
  t.equal(view(loaded[1]!, DOCS + 500, true), view(indexes[1]!, DOCS + 500, true), 'what was published is what is stored')
  await Promise.all(reopened.map((s) => s.close()))
}

/** Whether a batch of this test goes aside (it changes more words than any batch here when `asideWords` is 0). */
const asideNow = (options: FinalizeOptions) => options.asideWords === 0

/** The dictionary as search threads are handed it. */
function sharedDictionary(index: InvertedIndex): string {
  const { words, trie } = index.view().dictionary
  const plain = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as Uint32Array) : v]))
  return JSON.stringify({ words: plain(words), trie: plain(trie) })
}

t.test('in turns, without a pool, published in place or aside', (t) =>
  compare(t, (batch) => ({ asideWords: batch % 2 === 0 ? 0 : Infinity })))

t.test('new words encoded in partitions (inline encoder), next view aside', (t) =>
  compare(t, (batch) => ({ encode: async (input) => encodePostings(input), partitions: 3, minPartition: 1, asideWords: batch % 3 === 1 ? Infinity : 0 })))

t.test('new words encoded by the worker pool', async (t) => {
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  let sent = 0
  await compare(t, () => ({ encode: (input) => { sent++; return pool.run('encodePostings', input) }, partitions: 4, minPartition: 1000 }))
  t.ok(sent >= 8, `partitions went to the pool (${sent})`)
})

t.test('a partition that fails in the pool fails the finalize, and nothing is published', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-finalize-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = await Store.open(dir)
  const index = await InvertedIndex.load(store, 7)
  const draft = new InvertedDraft(index)
  draft.add([0, 1], { words: wordList(['alpha', 'beta']), fields: ['title'], records: Uint32Array.from([1, 0, 0, 1, 1, 1]) })
  await t.rejects(draft.finalizeInTurns({ encode: async () => { throw new Error('worker died') }, minPartition: 1 }), /worker died/)
  t.equal(index.wordIds.size, 0, 'the index has no word')
  t.equal(index.dictionary.size, 0, 'nor its dictionary')
  await store.close()
})

t.test('a small batch published in place: its dictionary is merged before, its view built only if one was taken', async (t) => {
  const index = new InvertedIndex(7)
  const batch = async (words: string[], docid: number) => {
    const draft = new InvertedDraft(index)
    draft.add([docid], { words: wordList(words), fields: ['title'], records: Uint32Array.from([words.length, ...words.flatMap((_, k) => [k, k])]) })
    const { apply } = await draft.finalizeInTurns({ asideWords: Infinity })
    apply()
  }
  await batch(['pear', 'apple'], 0)
  await batch(['fig', 'apple'], 1)
  t.same(index.dictionary.withPrefix(''), ['apple', 'fig', 'pear'], 'words merged in order')
  t.notOk(index.dictionary.viewBuilt, 'nobody took the view: trie and shared words stay lazy')
  index.view()
  await batch(['kiwi'], 2)
  t.ok(index.dictionary.viewBuilt, 'after a view was taken, the next one is prepared with the batch')
  const { words } = index.view().dictionary
  t.same([...words.ids], ['apple', 'fig', 'kiwi', 'pear'].map((w) => index.wordId(w)), 'with each word\'s id')
})
