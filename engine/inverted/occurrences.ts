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
 * Building reads the records of every document holding one of the missing words, once for all of them; a word's
 * list is complete or absent, so a kept list answers any later query until the next publish drops them (the
 * records change then). Lists are kept whole, without eviction: together they can never outgrow the records they
 * are built from (4 bytes an occurrence and 8 a document, against the records' 8 an occurrence), and only the words
 * searches asked for are built. A bound below the queries' working set was measured and dropped: with a quarter of
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
  private readonly kept = new Map<number, WordOccurrences>()

  /** Drop every list (a publish changed the records). */
  clear(): void {
    this.kept.clear()
  }

  /** The occurrences of each word (null: the word is in no document), built for those not kept yet. */
  of(source: OccurrenceSource, words: readonly number[]): (WordOccurrences | null)[] {
    const out: (WordOccurrences | null)[] = new Array(words.length).fill(null)
    const missing: number[] = []
    words.forEach((word, i) => {
      const list = this.kept.get(word)
      if (list) out[i] = list
      else if (!missing.includes(word)) missing.push(word)
    })
    if (missing.length > 0) {
      const built = build(source, missing)
      missing.forEach((word, i) => { if (built[i]) this.kept.set(word, built[i]!) })
      words.forEach((word, i) => { if (out[i] === null) out[i] = built[missing.indexOf(word)] ?? null })
    }
    return out
  }
}

/** The lists of `words` (distinct), from one pass over the records of the documents holding any of them. */
function build(source: OccurrenceSource, words: readonly number[]): (WordOccurrences | null)[] {
  const bitmaps: Bitmap[] = []
  let maxWord = 0
  for (const word of words) {
    const docs = source.docsOf(word)
    if (docs) bitmaps.push(docs)
    if (word > maxWord) maxWord = word
  }
  if (bitmaps.length === 0) return words.map(() => null)
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
  for (let i = 0; i < docids.length; i++) {
    const docid = docids[i]!
    if (docid >= limit) continue
    for (let k = start[docid]!, to = end[docid]!; k < to; k += 2) {
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
  return lists
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
