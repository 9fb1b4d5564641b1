/**
 * A batch's edits to one inverted index (see index.ts), published in one synchronous step.
 */
import roaring from 'roaring'
import type { WriteOp } from '../storage/index.js'
import { ForwardRecords } from './forward.js'
import { SMALL_POSTING } from './postings.js'
import { grown } from '../util/typed.js'
import { encodePosting, forwardKey, metaKey, postingKey, type Meta } from './rows.js'
import type { ExtractedChunk } from './extract.js'
import type { InvertedIndex } from './index.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

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
      const dropped = this.full && base.postings.has(w)
      if (addFrom === addTo && removeFrom === removeTo && !dropped) continue
      let bitmap: Bitmap
      const current = this.full ? undefined : base.postings.get(w)
      if (!current) bitmap = new RoaringBitmap32(added.subarray(addFrom, addTo))
      else {
        bitmap = base.postings.size(w) > SMALL_POSTING ? current.clone() : current
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
      for (const [w, bitmap] of next) base.postings.set(w, bitmap)
      base.postings.compact()
      // After a rebuild, or on an index that had no records, the draft's records are the whole new arena.
      if (this.full || base.forward.count === 0) base.forward = this.records
      else for (let docid = 0; docid < marks.length; docid++) if (marks[docid] !== 0) base.forward.set(docid, this.records.get(docid) ?? null)
      base.forward.maybeCompact()
      base.dictionary.add(this.newWords.filter((word) => base.postings.has(this.newWordIds.get(word)!)))
    }
    return { ops, apply }
  }
}

