/**
 * The inverted index of one index (by internal id): what keyword search reads.
 *
 * - word id → word, and word → roaring bitmap of the documents containing it (`postings`);
 * - per document, its words in field and position order (`forward`, pairs of `wordId, fieldId << 16 | position`):
 *   what proximity, attribute rank, word position, exactness and phrases are computed from, and what a deletion
 *   or replacement needs to take a document out of the postings;
 * - field id → dotted field name (ids are stable; ranking weights come from the settings at search time);
 * - the term dictionary (sorted words) for prefix and typo derivations, and a cache of prefix unions.
 *
 * Persistence (RocksDB, the index's key range in two column families):
 * - `postings`: `id ‖ u32 wordId` → `u16 length ‖ word ‖ portable roaring bitmap`; `id` alone → the meta record
 *   (fields, next word id), JSON;
 * - `positions`: `id ‖ u32 docid` → the document's forward record (u32 little-endian).
 * The whole index is loaded into memory when first used (memory-first reads); a batch edits a draft and its writes
 * go in the batch's atomic commit; `publish` then applies it in one synchronous step, so a search sees the old or
 * the new index, never a mix.
 */
import roaring from 'roaring'
import { keys, type Store, type WriteOp } from '../storage/index.js'
import { Dictionary } from './dictionary.js'
import { ForwardRecords, LITTLE_ENDIAN } from './forward.js'
import { FIRST_POSITION_COST, POSITION_COSTS } from './positions.js'
import { grown } from '../util/typed.js'
import type { ExtractedChunk } from './extract.js'

export { Dictionary, type FuzzyMatch } from './dictionary.js'
export { ForwardRecords } from './forward.js'
export { coversField, searchOnCovers, extractWords, extractionConfig, flattenLeaves, isSearchable, tokenizerFor, type ExtractedChunk, type ExtractionConfig } from './extract.js'

const { RoaringBitmap32 } = roaring
export type Bitmap = InstanceType<typeof RoaringBitmap32>
export { RoaringBitmap32 }

/** Words in at least this many documents keep their per-field postings once computed. */
const FREQUENT_WORD_DOCS = 1000

/** Words whose per-field (or per-position) postings are kept at once, per view; the oldest kept go first. */
const KEPT_WORDS = 4096

function keep<V>(cache: Map<number, V>, key: number, value: V): void {
  if (cache.size >= KEPT_WORDS) cache.delete(cache.keys().next().value!)
  cache.set(key, value)
}

interface Meta {
  fields: string[]
  nextWordId: number
}

const metaKey = (indexId: number) => keys.indexKey(indexId)
const postingKey = (indexId: number, wordId: number) => keys.indexKey(indexId, keys.u32(wordId))
const forwardKey = (indexId: number, docid: number) => keys.indexKey(indexId, keys.u32(docid))

function encodePosting(word: string, docids: Bitmap): Buffer {
  const w = Buffer.from(word, 'utf8')
  const bits = docids.serialize('portable')
  const out = Buffer.allocUnsafe(2 + w.byteLength + bits.byteLength)
  out.writeUInt16BE(w.byteLength, 0)
  w.copy(out, 2)
  out.set(bits, 2 + w.byteLength)
  return out
}

/** A stored forward record; a view of `raw` when it can be (the arena copies it). */
function decodeForward(raw: Buffer): Uint32Array {
  if (LITTLE_ENDIAN && raw.byteOffset % 4 === 0) return new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength >>> 2)
  const out = new Uint32Array(raw.byteLength >>> 2)
  for (let i = 0; i < out.length; i++) out[i] = raw.readUInt32LE(i * 4)
  return out
}

export class InvertedIndex {
  /** word id → word (ids are never reused; a word whose postings emptied keeps its id). */
  readonly words: string[] = []
  readonly wordIds = new Map<string, number>()
  /** word id → documents (undefined: the word is in no live document). */
  postings: (Bitmap | undefined)[] = []
  /** docid → forward record (one arena; a first batch's arena is taken over whole). */
  forward = new ForwardRecords()
  readonly fields: string[] = []
  readonly fieldIds = new Map<string, number>()
  dictionary = new Dictionary()
  nextWordId = 0
  /** Bumped at each publish (caches keyed on the index's content check it). */
  version = 0
  /** Prefix → union of the postings of the words it starts (built on demand, dropped at publish). */
  readonly prefixCache = new Map<string, Bitmap>()
  /** Word id → its documents per field id, for frequent words (built on demand, dropped at publish). */
  private readonly fieldPostingsCache = new Map<number, Bitmap[]>()
  /** Word id → its documents by best position cost, for frequent words (likewise). */
  private readonly positionPostingsCache = new Map<number, Bitmap[]>()

  constructor(readonly indexId: number) {}

  /** Start a new published view: caches of the old one are dropped. */
  newView(): void {
    this.version++
    this.prefixCache.clear()
    this.fieldPostingsCache.clear()
    this.positionPostingsCache.clear()
  }

  wordId(word: string): number | undefined {
    return this.wordIds.get(word)
  }

  docids(word: string): Bitmap | undefined {
    const id = this.wordIds.get(word)
    return id === undefined ? undefined : this.postings[id]
  }

  /**
   * The documents holding a word in each field (index: field id), from the forward records: milli's
   * `word_fid_docids`, computed on demand and kept for frequent words.
   */
  fieldPostings(wordId: number): Bitmap[] {
    const cached = this.fieldPostingsCache.get(wordId)
    if (cached) return cached
    const docs = this.postings[wordId]
    const lists: number[][] = []
    if (docs) {
      const { data, start, end } = this.forward
      for (const docid of docs) {
        let last = -1
        for (let k = start[docid]!, to = end[docid]!; k < to; k += 2) {
          if (data[k] !== wordId) continue
          const fid = data[k + 1]! >>> 16
          if (fid === last) continue
          last = fid
          const list = lists[fid] ?? (lists[fid] = [])
          if (list[list.length - 1] !== docid) list.push(docid)
        }
      }
    }
    const out: Bitmap[] = []
    for (let fid = 0; fid < lists.length; fid++) out[fid] = lists[fid] ? RoaringBitmap32.from(lists[fid]!) : new RoaringBitmap32()
    if (this.isFrequent(wordId)) keep(this.fieldPostingsCache, wordId, out)
    return out
  }

  /** Whether a word's per-field (and, with `positions`, per-position) postings are already kept. */
  hasKeptPlaces(wordId: number, positions: boolean): boolean {
    return this.fieldPostingsCache.has(wordId) && (!positions || this.positionPostingsCache.has(wordId))
  }

  /** Whether a word's per-field and per-position postings are kept once computed (it is in many documents). */
  isFrequent(wordId: number): boolean {
    return (this.postings[wordId]?.size ?? 0) >= FREQUENT_WORD_DOCS
  }

  /**
   * The documents holding a word by the position cost of its best occurrence in any field, for a term first in the
   * query (index: the cost, see positions.ts), from the forward records: what milli reads from
   * `word_position_docids`, computed on demand and kept for frequent words.
   */
  positionPostings(wordId: number): Bitmap[] {
    const cached = this.positionPostingsCache.get(wordId)
    if (cached) return cached
    const docs = this.postings[wordId]
    const lists: number[][] = Array.from({ length: POSITION_COSTS }, () => [])
    if (docs) {
      const { data, start, end } = this.forward
      for (const docid of docs) {
        let best = POSITION_COSTS
        for (let k = start[docid]!, to = end[docid]!; k < to && best > 0; k += 2) {
          if (data[k] !== wordId) continue
          const c = FIRST_POSITION_COST[data[k + 1]! & 0xffff]!
          if (c < best) best = c
        }
        if (best < POSITION_COSTS) lists[best]!.push(docid)
      }
    }
    const out = lists.map((list) => new RoaringBitmap32(list))
    if (this.isFrequent(wordId)) keep(this.positionPostingsCache, wordId, out)
    return out
  }

  static async load(store: Store, indexId: number): Promise<InvertedIndex> {
    const index = new InvertedIndex(indexId)
    const range = keys.indexRange(indexId)
    const loaded: string[] = []
    for await (const [key, value] of store.scan('postings', range)) {
      if (key.byteLength === 4) {
        const meta = JSON.parse(value.toString('utf8')) as Meta
        meta.fields.forEach((f, i) => { index.fields[i] = f; index.fieldIds.set(f, i) })
        index.nextWordId = meta.nextWordId
        continue
      }
      const id = keys.readU32(key, 4)
      const len = value.readUInt16BE(0)
      const word = value.toString('utf8', 2, 2 + len)
      index.words[id] = word
      index.wordIds.set(word, id)
      index.postings[id] = RoaringBitmap32.deserialize(value.subarray(2 + len), 'portable')
      loaded.push(word)
    }
    for await (const [key, value] of store.scan('positions', range)) index.forward.set(keys.readU32(key, 4), decodeForward(value))
    index.dictionary = new Dictionary(loaded)
    return index
  }
}

/** A draft's mark on a document: a new record (written in the final commit, or already written ahead), or none. */
const SET = 1
const REMOVED = 2
const WRITTEN = 3

/**
 * A batch's edits to one inverted index. Documents are added from extracted chunks (their word and field indexes
 * remapped to the index's ids) or removed; `finalize` computes the new postings of the touched words and the
 * writes; `apply` publishes them. Nothing of the base index changes before `apply`.
 *
 * New forward records go in an arena of the draft's own; `finalize` counts, then lays out, the documents each word
 * gains and loses in flat arrays (a counting sort by word, in internal id order), so a batch of any size costs no
 * object per document or per word occurrence.
 */
export class InvertedDraft {
  private readonly newWords: string[] = []
  private readonly newWordIds = new Map<string, number>()
  private nextWordId: number
  private readonly newFields: string[] = []
  private readonly newFieldIds = new Map<string, number>()
  /** New forward records of the documents marked SET. */
  private readonly records = new ForwardRecords()
  /** docid → SET, REMOVED, or 0 (untouched). */
  private marks = new Uint8Array(1024)
  private marked = 0
  private scratch = new Uint32Array(256)
  /** docid → 1 when a record of it was written ahead in this batch (its row must go if the record does). */
  private ahead = new Uint8Array(1024)

  /**
   * `full`: a rebuild — every document of the base is dropped unless added again. `previous`: the draft this one
   * replaces in the batch (a rebuild after additions), whose records written ahead this one must account for.
   */
  constructor(readonly base: InvertedIndex, readonly full = false, previous?: InvertedDraft) {
    this.nextWordId = base.nextWordId
    if (previous) this.ahead = previous.ahead.slice()
  }

  private wordIdOf(word: string): number {
    let id = this.base.wordIds.get(word) ?? this.newWordIds.get(word)
    if (id === undefined) {
      id = this.nextWordId++
      this.newWords.push(word)
      this.newWordIds.set(word, id)
    }
    return id
  }

  private fieldIdOf(field: string): number {
    let id = this.base.fieldIds.get(field) ?? this.newFieldIds.get(field)
    if (id === undefined) {
      id = this.base.fields.length + this.newFields.length
      if (id > 0xffff) throw new Error('too many searchable fields (65,536)')
      this.newFields.push(field)
      this.newFieldIds.set(field, id)
    }
    return id
  }

  private mark(docid: number, mark: number): void {
    this.marks = grown(this.marks, docid + 1)
    if (this.marks[docid] === 0) this.marked++
    this.marks[docid] = mark
  }

  /** Add (or replace) the documents `docids[i]`, whose words are the i-th run of `chunk`. */
  add(docids: readonly number[], chunk: ExtractedChunk): void {
    const wordMap = new Uint32Array(chunk.words.length)
    for (let i = 0; i < chunk.words.length; i++) wordMap[i] = this.wordIdOf(chunk.words[i]!)
    const fieldMap = new Uint32Array(chunk.fields.length)
    for (let i = 0; i < chunk.fields.length; i++) fieldMap[i] = this.fieldIdOf(chunk.fields[i]!)
    const { records } = chunk
    let at = 0
    for (const docid of docids) {
      const count = records[at++]!
      const record = (this.scratch = grown(this.scratch, count * 2, 0))
      for (let k = 0; k < count; k++) {
        record[2 * k] = wordMap[records[at++]!]!
        const v = records[at++]!
        record[2 * k + 1] = ((fieldMap[v >>> 16]! << 16) | (v & 0xffff)) >>> 0
      }
      this.records.set(docid, record.subarray(0, count * 2))
      this.mark(docid, SET)
    }
  }

  /** A document's new record in its stored form (undefined: none). */
  recordBytes(docid: number): Buffer | undefined {
    return this.records.bytes(docid)
  }

  /** The caller wrote the document's current record ahead: the final commit leaves it out. */
  writtenAhead(docid: number): void {
    if (this.marks[docid] === SET) this.marks[docid] = WRITTEN
    this.ahead = grown(this.ahead, docid + 1)
    this.ahead[docid] = 1
  }

  remove(docid: number): void {
    this.records.set(docid, null)
    this.mark(docid, REMOVED)
  }

  /** Documents added, replaced or removed. */
  get touched(): number {
    return this.marked
  }

  /** The batch's writes, and the step that publishes them. */
  finalize(): { ops: WriteOp[]; apply: () => void } {
    const base = this.base
    const id = base.indexId
    if (this.full) {
      for (const docid of base.forward.docids()) if (!this.records.has(docid)) this.mark(docid, REMOVED)
      for (let docid = 0; docid < this.ahead.length; docid++) if (this.ahead[docid] === 1 && !this.records.has(docid)) this.mark(docid, REMOVED)
    }
    const marks = this.marks
    const words = this.nextWordId
    // Per word, the documents it gains (`added`) and, unless rebuilding, loses (`removed`): counted, then laid out.
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
    const pass = (added: Uint32Array | null, removed: Uint32Array | null) => {
      for (let docid = 0; docid < marks.length; docid++) {
        if (marks[docid] === 0) continue
        if (!this.full && base.forward.has(docid)) visit(base.forward.data, base.forward.start[docid]!, base.forward.end[docid]!, removedAt, docid, removed)
        if (marks[docid] !== REMOVED) visit(this.records.data, this.records.start[docid]!, this.records.end[docid]!, addedAt, docid, added)
      }
    }
    pass(null, null)
    for (let w = 0; w < words; w++) {
      addedAt[w + 1]! += addedAt[w]!
      removedAt[w + 1]! += removedAt[w]!
    }
    const added = new Uint32Array(addedAt[words]!)
    const removed = new Uint32Array(removedAt[words]!)
    // The second pass advances each word's cursor to its end: its start is then the previous word's end.
    pass(added, removed)
    const range = (offsets: Uint32Array, w: number) => [w === 0 ? 0 : offsets[w - 1]!, offsets[w]!] as const

    const ops: WriteOp[] = []
    const next = new Map<number, Bitmap | undefined>()
    const wordOf = (w: number) => base.words[w] ?? this.newWords[w - base.nextWordId]!
    for (let w = 0; w < words; w++) {
      const [addFrom, addTo] = range(addedAt, w)
      const [removeFrom, removeTo] = range(removedAt, w)
      const dropped = this.full && base.postings[w] !== undefined
      if (addFrom === addTo && removeFrom === removeTo && !dropped) continue
      let bitmap: Bitmap
      if (this.full || !base.postings[w]) bitmap = new RoaringBitmap32(added.subarray(addFrom, addTo))
      else {
        bitmap = base.postings[w]!.clone()
        if (removeFrom < removeTo) bitmap.removeMany(removed.subarray(removeFrom, removeTo))
        if (addFrom < addTo) bitmap.addMany(added.subarray(addFrom, addTo))
      }
      if (bitmap.isEmpty) {
        next.set(w, undefined)
        ops.push({ column: 'postings', key: postingKey(id, w), unread: true })
      } else {
        next.set(w, bitmap)
        ops.push({ column: 'postings', key: postingKey(id, w), value: encodePosting(wordOf(w), bitmap), unread: true })
      }
    }
    for (let docid = 0; docid < marks.length; docid++) {
      if (marks[docid] !== SET && marks[docid] !== REMOVED) continue
      // A document without words has no record: its row goes only if one is on disk (stored, or written ahead).
      const record = marks[docid] === SET ? this.records.bytes(docid) : undefined
      if (record) ops.push({ column: 'positions', key: forwardKey(id, docid), value: record, unread: true })
      else if (base.forward.has(docid) || this.ahead[docid] === 1) ops.push({ column: 'positions', key: forwardKey(id, docid), unread: true })
    }
    if (this.newFields.length > 0 || this.nextWordId !== base.nextWordId) {
      const meta: Meta = { fields: [...base.fields, ...this.newFields], nextWordId: this.nextWordId }
      ops.push({ column: 'postings', key: metaKey(id), value: Buffer.from(JSON.stringify(meta)), unread: true })
    }
    const apply = () => {
      base.newView()
      for (const word of this.newWords) {
        const w = this.newWordIds.get(word)!
        base.words[w] = word
        base.wordIds.set(word, w)
      }
      for (const field of this.newFields) {
        const f = this.newFieldIds.get(field)!
        base.fields[f] = field
        base.fieldIds.set(field, f)
      }
      base.nextWordId = this.nextWordId
      for (const [w, bitmap] of next) base.postings[w] = bitmap
      // After a rebuild, or on an index that had no records, the draft's records are the whole new arena.
      if (this.full || base.forward.count === 0) base.forward = this.records
      else for (let docid = 0; docid < marks.length; docid++) if (marks[docid] !== 0) base.forward.set(docid, this.records.get(docid) ?? null)
      base.forward.maybeCompact()
      base.dictionary.add(this.newWords.filter((word) => base.postings[this.newWordIds.get(word)!] !== undefined))
    }
    return { ops, apply }
  }
}

/** The loaded inverted indexes, by internal index id. */
export class InvertedStore {
  private readonly loaded = new Map<number, Promise<InvertedIndex>>()

  constructor(private readonly store: Store) {}

  get(indexId: number): Promise<InvertedIndex> {
    let index = this.loaded.get(indexId)
    if (!index) {
      index = InvertedIndex.load(this.store, indexId)
      this.loaded.set(indexId, index)
      index.catch(() => this.loaded.delete(indexId))
    }
    return index
  }

  forget(indexId: number): void {
    this.loaded.delete(indexId)
  }
}
