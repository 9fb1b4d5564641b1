/**
 * Word id → where the word occurs, document by document: the forward records turned around for the words searches
 * ask for (what milli reads from `word_position_docids`), built from the records when a search first needs a word
 * and kept for the published view.
 *
 * Why: ranking a candidate scanned its whole forward record for the query's words. On long documents that scan was
 * most of a search: the median query on the man pages corpus (911 searchable words a page on average; the pages
 * queries match are the long ones) read 300,000 record words to rank 77 documents. With a word's occurrences at hand, a candidate costs a lookup per query word
 * and the occurrences themselves, whatever the document's length. Short documents (dictionary definitions) are
 * still cheaper to scan, so the matcher chooses per document (search/matcher.ts).
 *
 * Building reads the records of the documents holding one of the missing words, once for all of them, and only the
 * long ones: the matcher reads lists for records longer than a length that grows with the query's words, so a list
 * covers the records longer than the length it was built for and answers any later query asking for that length or
 * more, until the next publish drops the lists (the records change then). On GCIDE, where most definitions are
 * short, a frequent word's list had read a good part of the corpus for the few long entries a query ranks from it.
 * Lists are kept whole, without eviction: together they can never outgrow the records they are built from (4 bytes
 * an occurrence and 8 a document, against the records' 8 an occurrence), and only the words searches asked for are
 * built. A bound below the queries' working set was measured and dropped: with a quarter of
 * the records' words kept, the man pages' 500 bench queries rebuilt their lists over and over (LRU thrashing) and
 * searched slower than scanning the records (p50 8.2 ms against 7.6 before the lists and 3.5 with them kept whole).
 */
import { grown } from '../util/typed.js'
import type { Bitmap } from './index.js'
import type { ForwardRecords } from './forward.js'

/** One word's occurrences: document `docs[k]` holds it at `ats[offsets[k] .. offsets[k + 1])` (`fieldId << 16 | position`, in record order). */
export interface WordOccurrences {
  /** The documents holding the word, in internal id order. */
  docs: Uint32Array
  offsets: Uint32Array
  ats: Uint32Array
}

/** Reusable scratch of `build`: word id → bit (a word being built) and slot (searches are synchronous). */
const scratch = { bits: new Uint32Array(32), slot: new Int32Array(1024) }

/** What the occurrences are read from: a published view's postings and forward records. */
export interface OccurrenceSource {
  forward: ForwardRecords
  docsOf(wordId: number): Bitmap | undefined
  union(bitmaps: Bitmap[]): Bitmap
}

export class OccurrenceLists {
  /** Word → its list (null: no occurrence) over the documents whose record is longer than `minLength`. */
  private readonly kept = new Map<number, { list: WordOccurrences | null; minLength: number }>()

  /** Drop every list (a publish changed the records). */
  clear(): void {
    this.kept.clear()
  }

  /**
   * The occurrences of each word (null: none) in the documents whose record is longer than `minLength` (in record
   * entries, two a word), built for those not kept yet; a list kept over longer records only gets the records it
   * lacks.
   */
  of(source: OccurrenceSource, words: readonly number[], minLength = 0): (WordOccurrences | null)[] {
    // Words to build, grouped by the records their kept list already covers (none: Infinity): one pass per group,
    // so a word that only lacks short records does not make the pass read the long records of another.
    const missing = new Map<number, number[]>()
    for (const word of words) {
      const kept = this.kept.get(word)
      if (kept !== undefined && kept.minLength <= minLength) continue
      const covered = kept === undefined ? Infinity : kept.minLength
      const group = missing.get(covered) ?? []
      if (!group.includes(word)) group.push(word)
      missing.set(covered, group)
    }
    for (const [covered, group] of missing) {
      const built = build(source, group, minLength, covered)
      group.forEach((word, i) => this.kept.set(word, { list: merged(this.kept.get(word)?.list ?? null, built.lists[i]!), minLength: built.longestSkipped }))
    }
    return words.map((word) => this.kept.get(word)!.list)
  }
}

/**
 * The lists of `words` (distinct), from one pass over the records longer than `minLength` of the documents holding
 * any of them (a shorter record costs a comparison), and the longest record skipped: the lists hold every document
 * whose record is longer than that (0 when none was skipped: every document). Records longer than `covered` are
 * left out (the words' kept lists have them).
 */
function build(source: OccurrenceSource, words: readonly number[], minLength: number, covered: number): { lists: (WordOccurrences | null)[]; longestSkipped: number } {
  const bitmaps: Bitmap[] = []
  let maxWord = 0
  for (const word of words) {
    const docs = source.docsOf(word)
    if (docs) bitmaps.push(docs)
    if (word > maxWord) maxWord = word
  }
  if (bitmaps.length === 0) return { lists: words.map(() => null), longestSkipped: 0 }
  scratch.bits = grown(scratch.bits, (maxWord >>> 5) + 1)
  scratch.slot = grown(scratch.slot, maxWord + 1)
  const { bits, slot } = scratch
  words.forEach((word, i) => {
    bits[word >>> 5]! |= 1 << (word & 31)
    slot[word] = i
  })
  const docids = (bitmaps.length === 1 ? bitmaps[0]! : source.union(bitmaps)).toUint32Array()
  const { data, start, end, limit } = source.forward
  // One pass over the records: each occurrence of a listed word as (slot, document, field and position).
  let found = new Uint32Array(1024)
  let n = 0
  let longestSkipped = 0
  for (let i = 0; i < docids.length; i++) {
    const docid = docids[i]!
    if (docid >= limit) continue
    const to = end[docid]!
    const length = to - start[docid]!
    if (length <= minLength) {
      if (length > longestSkipped) longestSkipped = length
      continue
    }
    if (length > covered) continue
    for (let k = start[docid]!; k < to; k += 2) {
      const word = data[k]!
      if (word > maxWord || (bits[word >>> 5]! & (1 << (word & 31))) === 0) continue
      if (n + 3 > found.length) found = grown(found, n + 3)
      found[n++] = slot[word]!
      found[n++] = docid
      found[n++] = data[k + 1]!
    }
  }
  // Each word's documents and occurrences counted, then its list filled in document order.
  const W = words.length
  const docCount = new Uint32Array(W)
  const atCount = new Uint32Array(W)
  const lastDoc = new Int32Array(W).fill(-1)
  for (let f = 0; f < n; f += 3) {
    const s = found[f]!
    atCount[s]!++
    if (lastDoc[s] !== found[f + 1]) { lastDoc[s] = found[f + 1]!; docCount[s]!++ }
  }
  const lists: (WordOccurrences | null)[] = words.map((_, s) => (atCount[s] === 0 ? null : {
    docs: new Uint32Array(docCount[s]!), offsets: new Uint32Array(docCount[s]! + 1), ats: new Uint32Array(atCount[s]!),
  }))
  const nDocs = new Uint32Array(W)
  const nAts = new Uint32Array(W)
  lastDoc.fill(-1)
  for (let f = 0; f < n; f += 3) {
    const s = found[f]!
    const docid = found[f + 1]!
    const list = lists[s]!
    if (lastDoc[s] !== docid) {
      lastDoc[s] = docid
      list.offsets[nDocs[s]!] = nAts[s]!
      list.docs[nDocs[s]!++] = docid
    }
    list.ats[nAts[s]!++] = found[f + 2]!
  }
  for (let s = 0; s < W; s++) {
    const list = lists[s]
    if (list) list.offsets[list.docs.length] = list.ats.length
  }
  for (const word of words) bits[word >>> 5] = 0
  return { lists, longestSkipped }
}

/** One word's lists over disjoint sets of documents, as one list. */
function merged(a: WordOccurrences | null, b: WordOccurrences | null): WordOccurrences | null {
  if (a === null) return b
  if (b === null) return a
  const docs = new Uint32Array(a.docs.length + b.docs.length)
  const offsets = new Uint32Array(docs.length + 1)
  const ats = new Uint32Array(a.ats.length + b.ats.length)
  let i = 0
  let j = 0
  let o = 0
  for (let d = 0; d < docs.length; d++) {
    const fromA = j === b.docs.length || (i < a.docs.length && a.docs[i]! < b.docs[j]!)
    const list = fromA ? a : b
    const k = fromA ? i++ : j++
    docs[d] = list.docs[k]!
    offsets[d] = o
    for (let x = list.offsets[k]!, to = list.offsets[k + 1]!; x < to; x++) ats[o++] = list.ats[x]!
  }
  offsets[docs.length] = o
  return { docs, offsets, ats }
}

/** The first index `k >= from` with `docs[k] >= docid` (galloping, then binary search): the matcher's cursors move forward. */
export function seekDoc(docs: Uint32Array, docid: number, from: number): number {
  const n = docs.length
  if (from > 0 && (from > n || docs[from - 1]! >= docid)) from = 0
  let step = 1
  let hi = from
  while (hi < n && docs[hi]! < docid) {
    from = hi + 1
    hi += step
    step *= 2
  }
  if (hi > n) hi = n
  while (from < hi) {
    const mid = (from + hi) >>> 1
    if (docs[mid]! < docid) from = mid + 1
    else hi = mid
  }
  return from
}
