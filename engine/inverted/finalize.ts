/**
 * A batch's edits to one inverted index (draft.ts) turned into the batch's writes and the step that publishes them.
 *
 * Per word, the documents it gains and loses are counted, then laid out in flat arrays (a counting sort by word, in
 * internal id order), so a batch of any size costs no object per document or per word occurrence. The steps are a
 * generator (see util/turns.ts): `InvertedDraft.finalize` runs them straight through and publishes in place, as
 * the reference; `finalizeInTurns` runs them in turns of a few ms, so searches on other indexes answer meanwhile, and
 * with a pool:
 * - the words whose new postings are exactly the documents they gain (words the batch creates, or every word of a
 *   rebuild) are encoded in the pool, in partitions of about equal size, while this thread merges the words that
 *   need the index's current postings; the pool also sorts each partition's words for the term dictionary;
 * - when the batch changes many words, the next view (postings, words, dictionary) is prepared aside, and the
 *   publish is a swap of references instead of a pass over every changed word.
 * Both give the same writes, byte for byte, and the same published index (test/engine/inverted/finalize.test.ts).
 */
import roaring from '../util/roaring.js'
import { DELETED_ROW, RowRunBuilder, type Write } from '../storage/index.js'
import { Dictionary, mergeSortedSteps } from './dictionary.js'
import { postingsPartition, type EncodedPostings, type PostingsPartition } from './encode-postings.js'
import { LITTLE_ENDIAN, type ForwardRecords } from './forward.js'
import type { InvertedIndex } from './index.js'
import { SMALL_POSTING, type Postings } from './postings.js'
import { encodePosting, metaKey, type Meta } from './rows.js'
import type { Steps } from '../util/turns.js'
import type { WordIds } from './word-ids.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

/** A draft's mark on a document: a new record (written in the final commit, or already written ahead), or none. */
export const SET = 1
export const REMOVED = 2
export const WRITTEN = 3

/** What finalizing reads of a draft (its fields, see draft.ts). */
export interface DraftState {
  readonly base: InvertedIndex
  readonly full: boolean
  /** docid → SET, REMOVED, WRITTEN or 0 (untouched); grown by `mark`. */
  readonly marks: Uint8Array
  mark(docid: number, mark: number): void
  readonly records: ForwardRecords
  readonly ahead: Uint8Array
  readonly newWords: readonly string[]
  /** The batch's new words' ids (word k of `newWords` has id `base.nextWordId + k`). */
  readonly newWordIds: WordIds
  readonly newFields: readonly string[]
  readonly newFieldIds: ReadonlyMap<string, number>
  readonly nextWordId: number
}

export interface FinalizeOptions {
  /** Encodes a partition of postings (the pool's `encodePostings` job); absent: every word is merged here. */
  encode?: (input: PostingsPartition) => Promise<EncodedPostings>
  /** Partitions the encoded words are cut into (default 2: a pool's threads, say). */
  partitions?: number
  /** From how many changed words the next view is prepared aside (default ASIDE_WORDS). */
  asideWords?: number
  /** The fewest ids a partition sent to the pool holds (default MIN_PARTITION_IDS); fewer in all: merged here. */
  minPartition?: number
}

export interface Finalized {
  /** Postings and forward records as runs of rows (storage/row-run.ts), and the meta record. */
  ops: Write[]
  apply: () => void
}

/** Below this many changed words, publishing in place costs a few ms: cheaper than copying the index's postings. */
const ASIDE_WORDS = 10_000
/** A partition sent to the pool holds at least this many ids (smaller ones cost more to send than to encode). */
const MIN_PARTITION_IDS = 16_384
/**
 * And at most this many (1 MB): a partition is packed for its worker on this thread in one go, and the results of
 * many partitions come back while the first are being merged.
 */
const MAX_PARTITION_IDS = 262_144
/** And at most this many words (their strings are joined for the trip on this thread). */
const MAX_PARTITION_WORDS = 16_384

/** The batch's writes and its publish step; `options` null: the reference (no pool, published in place). */
export function* finalizeSteps(s: DraftState, options: FinalizeOptions | null): Steps<Finalized> {
  const base = s.base
  const id = base.indexId
  if (s.full) {
    let n = 0
    for (const docid of base.forward.docids()) {
      if ((++n & 255) === 0) yield
      if (!s.records.has(docid)) s.mark(docid, REMOVED)
    }
    for (let docid = 0; docid < s.ahead.length; docid++) if (s.ahead[docid] === 1 && !s.records.has(docid)) s.mark(docid, REMOVED)
  }
  const { added, addedAt, removed, removedAt } = yield* countChanges(s)
  const words = s.nextWordId
  // The batch's new words' ids start here (base.nextWordId moves at the publish).
  const firstNew = base.nextWordId
  const range = (offsets: Uint32Array, w: number) => [w === 0 ? 0 : offsets[w - 1]!, offsets[w]!] as const

  const ops: Write[] = []
  // A word's new documents: a bitmap, or (small postings) their ids, the bitmap freed as soon as it is encoded:
  // a batch of a natural-text corpus touches hundreds of thousands of rare words, and bitmaps freed all at once
  // after the publish left their memory fragmented and resident.
  const next = new Map<number, Bitmap | Uint32Array | undefined>()
  const wordOf = (w: number) => base.words[w] ?? s.newWords[w - base.nextWordId]!

  // Words whose new postings are the documents they gain, to the pool, in partitions of about equal size.
  const offloaded = new Uint8Array(options?.encode ? words : 0)
  const partitions: { words: number[]; result: Promise<EncodedPostings> }[] = []
  if (options?.encode) {
    const pure: number[] = []
    let total = 0
    for (let w = 0; w < words; w++) {
      if ((w & 4095) === 0) yield
      const [from, to] = range(addedAt, w)
      if (from === to || (!s.full && base.postings.has(w))) continue
      pure.push(w)
      total += to - from
    }
    const least = options.minPartition ?? MIN_PARTITION_IDS
    const target = Math.max(least, Math.min(MAX_PARTITION_IDS, Math.ceil(total / Math.max(1, options.partitions ?? 2))))
    for (let k = total < least ? pure.length : 0; k < pure.length;) {
      const part: number[] = []
      let size = 0
      for (; k < pure.length && size < target && part.length < MAX_PARTITION_WORDS; k++) {
        const [from, to] = range(addedAt, pure[k]!)
        part.push(pure[k]!)
        size += to - from
      }
      const offsets = new Uint32Array(part.length + 1)
      const ids = new Uint32Array(size)
      part.forEach((w, i) => {
        const [from, to] = range(addedAt, w)
        ids.set(added.subarray(from, to), offsets[i]!)
        offsets[i + 1] = offsets[i]! + to - from
        offloaded[w] = 1
      })
      const result = options.encode(postingsPartition(part.map(wordOf), offsets, ids))
      // Awaited below in order; one failing while an earlier one is awaited must not go unhandled.
      result.catch(() => {})
      partitions.push({ words: part, result })
      yield
    }
  }

  // New words merged here that have documents (the pool's are in its sorted runs), for the dictionary.
  const mergedHere: string[] = []
  const mergedRows = new RowRunBuilder('postings', id)
  for (let w = 0; w < words; w++) {
    if ((w & 63) === 0) yield
    if (offloaded[w] === 1) continue
    const [addFrom, addTo] = range(addedAt, w)
    const [removeFrom, removeTo] = range(removedAt, w)
    const dropped = s.full && base.postings.has(w)
    if (addFrom === addTo && removeFrom === removeTo && !dropped) continue
    let bitmap: Bitmap
    const current = s.full ? undefined : base.postings.get(w)
    if (!current) bitmap = new RoaringBitmap32(added.subarray(addFrom, addTo))
    else {
      bitmap = base.postings.size(w) > SMALL_POSTING ? current.clone() : current
      if (removeFrom < removeTo) bitmap.removeMany(removed.subarray(removeFrom, removeTo))
      if (addFrom < addTo) bitmap.addMany(added.subarray(addFrom, addTo))
    }
    if (bitmap.isEmpty) {
      next.set(w, undefined)
      mergedRows.delete(w)
      bitmap.dispose()
    } else {
      mergedRows.copy(w, encodePosting(wordOf(w), bitmap))
      if (w >= base.nextWordId) mergedHere.push(wordOf(w))
      if (bitmap.size > SMALL_POSTING) next.set(w, bitmap)
      else {
        next.set(w, bitmap.toUint32Array())
        bitmap.dispose()
      }
    }
  }

  pushRun(ops, mergedRows)

  // The pool's partitions: their rows, their postings for the publish, their new words sorted for the dictionary.
  const sortedRuns: string[][] = []
  for (const partition of partitions) {
    const out = (yield partition.result) as EncodedPostings
    const rows = new RowRunBuilder('postings', id, out.values)
    let from = 0
    for (let k = 0; k < partition.words.length; k++) {
      if ((k & 255) === 255) yield
      const w = partition.words[k]!
      rows.range(w, from, (from = out.ends[k]!))
      const [a, b] = range(addedAt, w)
      next.set(w, b - a > SMALL_POSTING ? new RoaringBitmap32(added.subarray(a, b)) : added.slice(a, b))
    }
    const run: string[] = []
    for (const k of out.order) if (partition.words[k]! >= base.nextWordId) run.push(wordOf(partition.words[k]!))
    sortedRuns.push(run)
    pushRun(ops, rows)
    yield
  }

  // Records are ranges of the draft's arena where its bytes are the stored form (see forward.ts) and its byte
  // offsets fit a run's u32 ranges, else copies.
  const arena = s.records.data
  const inPlace = LITTLE_ENDIAN && arena.byteLength < DELETED_ROW
  const recordRows = inPlace ? new RowRunBuilder('positions', id, new Uint8Array(arena.buffer, arena.byteOffset, arena.byteLength)) : new RowRunBuilder('positions', id)
  const marks = s.marks
  for (let docid = 0; docid < marks.length; docid++) {
    if ((docid & 255) === 0) yield
    if (marks[docid] !== SET && marks[docid] !== REMOVED) continue
    // A document without words has no record: its row goes only if one is on disk (stored, or written ahead).
    if (marks[docid] === SET && s.records.has(docid)) {
      if (inPlace) recordRows.range(docid, s.records.start[docid]! * 4, s.records.end[docid]! * 4)
      else recordRows.copy(docid, s.records.bytes(docid)!)
    } else if (base.forward.has(docid) || s.ahead[docid] === 1) recordRows.delete(docid)
  }
  pushRun(ops, recordRows)
  if (s.newFields.length > 0 || s.nextWordId !== base.nextWordId) {
    const meta: Meta = { fields: [...base.fields, ...s.newFields], nextWordId: s.nextWordId }
    ops.push({ column: 'postings', key: metaKey(id), value: Buffer.from(JSON.stringify(meta)), unread: true })
  }

  const publishForward = () => {
    // After a rebuild, or on an index that had no records, the draft's records are the whole new arena.
    if (s.full || base.forward.count === 0) base.forward = s.records
    else for (let docid = 0; docid < marks.length; docid++) if (marks[docid] !== 0) base.forward.set(docid, s.records.get(docid) ?? null)
    base.forward.maybeCompact()
  }
  const publishFields = () => {
    for (const field of s.newFields) {
      const f = s.newFieldIds.get(field)!
      base.fields[f] = field
      base.fieldIds.set(field, f)
    }
    base.nextWordId = s.nextWordId
  }

  if (options !== null && next.size >= (options.asideWords ?? ASIDE_WORDS)) {
    const view = yield* nextView(s, next, sortedRuns, mergedHere)
    if (s.full || base.forward.count === 0) yield* s.records.maybeCompactSteps()
    const apply = () => {
      base.newView()
      publishFields()
      base.words = view.words
      base.wordIds = view.wordIds
      base.postings = view.postings
      base.dictionary = view.dictionary
      publishForward()
    }
    return { ops, apply }
  }
  // The new words of a small batch join the dictionary at the publish: the merged word list is made here, in turns
  // (merged at the publish, a list of 225,000 words held the thread that serves requests for 10-23 ms). Where threads
  // have searched the index since the last publish (its dictionary's shared view was taken), its trie and shared words
  // are built here too: built in the next search's path, they held that thread for ~250 ms on GCIDE. An index nobody
  // searched keeps them lazy (the work would be spent on every batch of a stream nobody searches).
  const newInDictionary = sortedRuns.length === 0 ? mergedHere : [...mergedHere, ...sortedRuns.flat()]
  let prepared: Dictionary | null = null
  if (options !== null && newInDictionary.length > 0) {
    const merged = yield* mergeSortedSteps(base.dictionary.sorted, [...newInDictionary].sort())
    prepared = base.dictionary.viewTaken ? yield* Dictionary.preparedSteps(merged, (word) => base.wordIds.get(word) ?? s.newWordIds.get(word)!) : Dictionary.fromSorted(merged)
  }
  const apply = () => {
    base.newView()
    s.newWords.forEach((word, k) => {
      base.words[firstNew + k] = word
      base.wordIds.set(word, firstNew + k)
    })
    publishFields()
    for (const [w, docids] of next) {
      if (docids instanceof Uint32Array) base.postings.setIds(w, docids)
      else base.postings.set(w, docids)
    }
    // The postings now belong to the index (small ones were freed): the draft may outlive its batch.
    next.clear()
    base.postings.compact()
    publishForward()
    if (prepared) base.dictionary = prepared
    else base.dictionary.add(newInDictionary)
  }
  return { ops, apply }
}

function pushRun(ops: Write[], rows: RowRunBuilder): void {
  const run = rows.finish()
  if (run) ops.push(run)
}

/** Per word, the documents it gains (`added`) and, unless rebuilding, loses (`removed`): counted, then laid out. */
function* countChanges(s: DraftState): Steps<{ added: Uint32Array; addedAt: Uint32Array; removed: Uint32Array; removedAt: Uint32Array }> {
  const { base, marks, records } = s
  const words = s.nextWordId
  const addedAt = new Uint32Array(words + 1)
  const removedAt = new Uint32Array(words + 1)
  const seen = new Uint32Array(words)
  let stamp = 0
  const visit = (data: Uint32Array, from: number, to: number, counts: Uint32Array, docid: number, out: Uint32Array | null) => {
    stamp++
    for (let k = from; k < to; k += 2) {
      const w = data[k]!
      if (seen[w] === stamp) continue
      seen[w] = stamp
      if (out) out[counts[w]!++] = docid
      else counts[w + 1]!++
    }
  }
  const forward = base.forward
  function* pass(added: Uint32Array | null, removed: Uint32Array | null): Steps<void> {
    for (let docid = 0; docid < marks.length; docid++) {
      if ((docid & 255) === 0) yield
      if (marks[docid] === 0) continue
      if (!s.full && forward.has(docid)) visit(forward.data, forward.start[docid]!, forward.end[docid]!, removedAt, docid, removed)
      if (marks[docid] !== REMOVED) visit(records.data, records.start[docid]!, records.end[docid]!, addedAt, docid, added)
    }
  }
  yield* pass(null, null)
  for (let w = 0; w < words; w++) {
    addedAt[w + 1]! += addedAt[w]!
    removedAt[w + 1]! += removedAt[w]!
  }
  const added = new Uint32Array(addedAt[words]!)
  const removed = new Uint32Array(removedAt[words]!)
  // The second pass advances each word's cursor to its end: its start is then the previous word's end.
  yield* pass(added, removed)
  return { added, addedAt, removed, removedAt }
}

/** The next view's postings, words and dictionary, prepared aside (the index is read meanwhile). */
function* nextView(s: DraftState, next: Map<number, Bitmap | Uint32Array | undefined>, sortedRuns: string[][], mergedHere: string[]): Steps<{ postings: Postings; words: string[]; wordIds: WordIds; dictionary: Dictionary }> {
  const base = s.base
  const postings = base.postings.clone()
  yield
  let n = 0
  for (const [w, docids] of next) {
    if ((++n & 255) === 0) yield
    if (docids instanceof Uint32Array) postings.setIds(w, docids)
    else postings.set(w, docids)
  }
  next.clear()
  yield
  postings.compact()
  yield
  // On an index that had no words, the draft's own list and map are the next view's (the draft is done with).
  const fresh = base.nextWordId === 0
  const words = fresh ? s.newWords.slice() : base.words.slice()
  const wordIds = fresh ? s.newWordIds : base.wordIds.clone()
  yield
  if (!fresh) {
    const firstNew = base.nextWordId
    for (let k = 0; k < s.newWords.length; k++) {
      if ((++n & 1023) === 0) yield
      words[firstNew + k] = s.newWords[k]!
      wordIds.set(s.newWords[k]!, firstNew + k)
    }
  }
  // The sorted runs merged two by two, level by level (each level one pass over the words), in turns.
  let runs: (readonly string[])[] = [base.dictionary.sorted, ...sortedRuns, [...mergedHere].sort()]
  while (runs.length > 1) {
    const merged: (readonly string[])[] = []
    for (let k = 0; k < runs.length; k += 2) {
      merged.push(k + 1 < runs.length ? yield* mergeSortedSteps(runs[k]!, runs[k + 1]!) : runs[k]!)
    }
    runs = merged
  }
  // A batch this large prepares the trie and the shared words too (in turns): left to the first search after the
  // publish, they held the thread that serves requests for ~250 ms on GCIDE (a small batch's dictionary stays lazy:
  // preparing it would cost every batch that time, searched or not).
  const dictionary = runs[0] === base.dictionary.sorted ? base.dictionary : yield* Dictionary.preparedSteps(runs[0]!, (word) => wordIds.get(word)!)
  return { postings, words, wordIds, dictionary }
}
